"""Challenge Game parts (rulebook, Empire Builder Series Variations): configs
``challenge_cost_to_move``, ``challenge_cost_to_load`` and ``challenge_reshuffle``.
"Cost to Move — Each player must pay 1 million per turn that his train moves on its own
track. The 4 million cost for moving on the other players' track remains the same."
"Cost to Load — Each player uses one milepost of movement to pick up or drop off one load."
"Reshuffle — When the "Tax" card is drawn, reshuffle the deck and remove the "Tax" card
from the game." """

from __future__ import annotations

import pytest
from tests.eurorails.helpers import (
    OPS,
    city,
    draw,
    lay,
    legal_strings,
    path,
    place,
    set_turn,
    standard,
)

from motherlode.core.errors import IllegalActionError


def test_cost_to_move_1_a_turn_on_own_track_4_on_others() -> None:
    s = standard(2, challenge_cost_to_move=True)
    b = s.game.board
    route = path(b, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    half = len(route) // 2
    lay(s, 0, route[: half + 1])
    lay(s, 1, route[half:])
    place(s, 0, route[1], prev=route[0])
    set_turn(s, 0, OPS)
    s.apply_string(f"move {route[2]}")
    assert s.cash == [49, 50], "1 to the bank for the turn"
    s.apply_string(f"move {route[3]}")
    assert s.cash == [49, 50], "once a turn"
    for m in route[4 : half + 2]:
        s.apply_string(f"move {m}")
    assert s.cash == [45, 54], "the 4 for the other player's track stays"
    place(s, 0, route[2], prev=route[1])
    set_turn(s, 0, OPS)
    s.cash[0] = 0
    with pytest.raises(IllegalActionError, match="costs 1 a turn"):
        s.apply_string(f"move {route[3]}")


def test_cost_to_move_off_by_default() -> None:
    s = standard(2)
    route = path(s.game.board, city(s, "Paris"), city(s, "Lyon"), avoid_cities=True)
    lay(s, 0, route)
    place(s, 0, route[1], prev=route[0])
    set_turn(s, 0, OPS)
    s.apply_string(f"move {route[2]}")
    assert s.cash == [50, 50]


def test_cost_to_load_uses_a_milepost_per_load() -> None:
    s = standard(2, challenge_cost_to_load=True)
    b = s.game.board
    wine = b.load_index("Wine")
    bordeaux = city(s, "Bordeaux")
    assert wine in b.city_goods[b.city_of[bordeaux]]
    place(s, 0, bordeaux)
    set_turn(s, 0, OPS)
    assert s.moves == 9
    s.apply_string("pick Wine")
    assert s.moves == 8
    s.moves = 1
    s.apply_string("pick Wine")
    assert s.moves == 0 and s.loads[0] == [wine, wine]
    strings = legal_strings(s)
    assert not any(x.startswith(("pick", "drop", "deliver")) for x in strings)


def test_cost_to_load_a_delivery_drops_off_a_load() -> None:
    s = standard(2, challenge_cost_to_load=True)
    b = s.game.board
    card = s.hands[0][0]
    dem = b.demands[card][0]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0, OPS)
    s.apply_string(f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}")
    assert s.moves == 8


def test_reshuffle_when_the_tax_card_is_drawn_and_it_leaves_the_game() -> None:
    s = standard(2, challenge_reshuffle=True)
    s.draw.remove(150)
    s.discard = [s.draw.pop(), s.draw.pop()]
    size = len(s.draw)
    s.cash = [120, 30]
    s._event(150, 0)
    assert s.cash[0] < 120, "the tax is still paid"
    assert s.discard == [] and len(s.draw) == size + 2
    assert 150 in s.aside and 150 not in s.draw
    s.check_invariants()
    s2 = standard(2)
    s2.draw.remove(150)
    s2._event(150, 0)
    assert s2.discard == [150]


def test_field_warehousing_a_dropped_load_stays_for_anyone_for_4_turns() -> None:
    s = standard(2, challenge_field_warehousing=True)
    b = s.game.board
    wine = b.load_index("Wine")
    berlin = city(s, "Berlin")
    wc = b.city_of[berlin]
    assert wine not in b.city_goods[wc]
    s.loads[0] = [wine]
    s.chips[wine] -= 1
    tray = s.chips[wine]
    place(s, 0, berlin)
    set_turn(s, 0, OPS)
    s.apply_string("drop Wine")
    assert s.warehouse == [[wc, wine, 0, s.turns_done[0] + 5]] and s.chips[wine] == tray
    assert "pick Wine" not in legal_strings(s), "not picked up again at once"
    assert s.observation(None)["warehouse"] == [{"city": "Berlin", "load": "Wine", "dropped_by": 0}]
    s.check_invariants()
    # another player passing through picks it up normally
    place(s, 1, berlin)
    set_turn(s, 1, OPS)
    assert "pick Wine" in legal_strings(s)
    s.apply_string("pick Wine")
    assert s.loads[1] == [wine] and s.warehouse == [] and s.chips[wine] == tray
    s.check_invariants()


def test_field_warehousing_back_to_the_tray_after_the_droppers_4th_turn() -> None:
    s = standard(2, challenge_field_warehousing=True)
    b = s.game.board
    wine = b.load_index("Wine")
    berlin = city(s, "Berlin")
    s.loads[0] = [wine]
    s.chips[wine] -= 1
    place(s, 0, berlin)
    set_turn(s, 0, OPS)
    s.apply_string("drop Wine")
    s.apply_string("end move")
    s.apply_string("end turn")  # the dropping turn ends
    for k in range(4):
        assert s.warehouse, f"still there before the end of P1's turn {k + 1} after"
        for _ in range(2):  # P2's turn, then P1's
            s.apply_string("end move")
            s.apply_string("end turn")
    assert s.warehouse == [] and s.chips[wine] == b.load_chips[wine]
    s.check_invariants()


def test_field_warehousing_off_by_default() -> None:
    s = standard(2)
    b = s.game.board
    wine = b.load_index("Wine")
    s.loads[0] = [wine]
    s.chips[wine] -= 1
    place(s, 0, city(s, "Berlin"))
    set_turn(s, 0, OPS)
    s.apply_string("drop Wine")
    assert s.warehouse == [] and s.chips[wine] == b.load_chips[wine]


def test_open_contracts_a_discarded_hand_goes_on_the_table_4_at_most() -> None:
    s = standard(2, challenge_open_contracts=True)
    set_turn(s, 0, OPS)
    s.apply_string("discard hand")
    assert s.contracts == [1, 2, 3] and s.discard == []
    for card in (7, 8, 9):
        draw(s, card)
    assert s.turn_player() == 1
    set_turn(s, 1, OPS)
    s.apply_string("discard hand")
    assert s.contracts == [1, 2, 3, 4] and s.discard == [5, 6], "extra cards discarded"
    assert [c["card"] for c in s.observation(None)["contracts"]] == [1, 2, 3, 4]
    for card in (10, 11, 12):
        draw(s, card)
    s.check_invariants()
    again = s.game.deserialize(s.serialize())
    assert again.contracts == [1, 2, 3, 4]


def test_open_contracts_anyone_delivers_and_the_card_is_discarded() -> None:
    s = standard(2, challenge_open_contracts=True)
    b = s.game.board
    set_turn(s, 0, OPS)
    s.apply_string("discard hand")
    for card in (7, 8, 9):
        draw(s, card)
    dem = b.demands[2][1]
    s.loads[1] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 1, b.city_centre[dem.city])
    set_turn(s, 1, OPS)
    text = f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #2"
    assert text in legal_strings(s)
    s.apply_string(text)
    assert s.cash[1] == 50 + dem.payment and s.loads[1] == []
    assert s.contracts == [1, 3] and s.discard[-1] == 2
    assert s.hands[1] == [4, 5, 6] and not s.is_chance_node(), "no card drawn"
    s.check_invariants()


def test_open_contracts_off_by_default() -> None:
    s = standard(2)
    set_turn(s, 0, OPS)
    s.apply_string("discard hand")
    assert s.contracts == [] and s.discard == [1, 2, 3]

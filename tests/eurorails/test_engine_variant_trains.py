"""Challenge Game, Additional Trains (configs ``challenge_additional_trains`` and
``four_demand_cards``).

"Additional Trains — Each player starts with two trains, a freight and a fast freight,
which may be upgraded in the usual way. Both move and may move in the same turn. Players
may (by mutual agreement) have four demand cards instead of three."
"""

from __future__ import annotations

import random

import pytest
from tests.eurorails.helpers import (
    BUILD,
    OPS,
    city,
    dealt,
    draw,
    game,
    lay,
    legal_strings,
    nm,
    path,
    place,
    place2,
    set_turn,
    standard,
)

import motherlode
from motherlode.core.errors import IllegalActionError, NotationError
from motherlode.games.eurorails.board import CHUNNEL, FERRY
from motherlode.games.eurorails.bot import GreedyAgent
from motherlode.games.eurorails.game import EurorailsState


def two_trains(players: int = 2, **options: object) -> EurorailsState:
    return standard(players, challenge_additional_trains=True, **options)


def paris_lyon(s: EurorailsState, owner: int = 0) -> list[int]:
    """Track from Paris toward Marseille (past Lyon's side), 17 segments."""
    route = path(s.game.board, city(s, "Paris"), city(s, "Marseille"), avoid_cities=True)
    lay(s, owner, route)
    return route


def test_each_player_starts_with_two_trains_a_freight_and_a_fast_freight() -> None:
    s = two_trains(3)
    assert s.train == [0, 0, 0] and s.train2 == [1, 1, 1]
    second = s.observation(None)["players"][1]["second_train"]
    assert second == {
        "train": "Fast Freight",
        "at": None,
        "at_city": None,
        "on_ferry_to": None,
        "loads": [],
    }
    assert "train 2: Fast Freight at not placed" in str(s)


def test_each_train_is_placed_at_the_start_in_any_city() -> None:
    s = two_trains()
    set_turn(s, 0, OPS)
    strings = legal_strings(s)
    assert "start Paris" in strings and "train 2 start Paris" in strings
    s.apply_string("start Paris")
    assert "train 2 start Wien" in legal_strings(s), "the second train still to place"
    s.apply_string("train 2 start Wien")
    assert s.pos[0] == city(s, "Paris") and s.pos2[0] == city(s, "Wien")
    assert (s.moves, s.moves2) == (9, 12), "a Freight moves 9, a Fast Freight 12"


def test_both_move_and_may_move_in_the_same_turn_each_with_its_own_allowance() -> None:
    s = two_trains()
    route = paris_lyon(s)
    place(s, 0, route[0])
    place2(s, 0, route[0])
    set_turn(s, 0, OPS)
    for m in route[1:10]:
        s.apply_string(f"move {m}")
    assert s.pos[0] == route[9] and s.moves == 0
    assert not any(x.startswith("move") for x in legal_strings(s)), "the Freight is done"
    assert s.string_to_action(f"train 2 move {route[1]}") in s.legal_actions()
    for m in route[1:13]:
        s.apply_string(f"train 2 move {m}")
    assert s.pos2[0] == route[12] and s.moves2 == 0, "the Fast Freight moves its 12"
    assert legal_strings(s) == ["end move"]


def test_the_trains_may_move_in_any_order_and_interleave() -> None:
    s = two_trains()
    route = paris_lyon(s)
    place(s, 0, route[0])
    place2(s, 0, route[0])
    set_turn(s, 0, OPS)
    s.apply_string(f"train 2 move {route[1]}")
    s.apply_string(f"move {route[1]}")
    s.apply_string(f"train 2 move {route[2]}")
    assert (s.pos[0], s.pos2[0], s.moves, s.moves2) == (route[1], route[2], 8, 10)


def test_each_train_carries_its_own_loads() -> None:
    s = two_trains()
    b = s.game.board
    wine = b.load_index("Wine")
    place(s, 0, city(s, "Bordeaux"))
    place2(s, 0, city(s, "Bordeaux"))
    set_turn(s, 0, OPS)
    s.apply_string("train 2 pick Wine")
    assert s.loads[0] == [] and s.loads2[0] == [wine]
    assert "drop Wine" not in legal_strings(s), "the Freight carries nothing"
    assert "train 2 drop Wine" not in legal_strings(s), "no pick-up/drop loop"
    s.apply_string("pick Wine")
    assert s.loads[0] == [wine] and s.chips[wine] == b.load_chips[wine] - 2
    s.check_invariants()
    obs = s.observation(None)["players"][0]
    assert obs["loads"] == ["Wine"] and obs["second_train"]["loads"] == ["Wine"]


def test_each_train_delivers_from_the_one_hand() -> None:
    s = two_trains()
    b = s.game.board
    card = s.hands[0][1]
    dem = b.demands[card][0]
    s.loads2[0] = [dem.load]
    s.chips[dem.load] -= 1
    place2(s, 0, b.city_centre[dem.city])
    set_turn(s, 0, OPS)
    text = f"train 2 deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}"
    assert text in legal_strings(s)
    s.apply_string(text)
    assert s.cash[0] == 50 + dem.payment and s.loads2[0] == [] and card not in s.hands[0]
    assert s.is_chance_node(), "a replacement card is drawn"


def test_each_train_is_upgraded_in_the_usual_way_instead_of_building() -> None:
    s = two_trains()
    set_turn(s, 0, BUILD)
    strings = legal_strings(s)
    assert {"upgrade Fast Freight", "upgrade Heavy Freight"} <= set(strings)
    assert "train 2 upgrade Super Freight" in strings
    assert "train 2 upgrade Heavy Freight" not in strings
    s.apply_string("train 2 upgrade Super Freight")
    assert s.train == [0, 0] and s.train2 == [3, 1] and s.cash[0] == 30
    assert s.turn_player() == 1, "an upgrade ends the turn (instead of building)"
    set_turn(s, 0, BUILD)
    s.apply_string("upgrade Heavy Freight")
    assert s.train[0] == 2 and s.train2[0] == 3


def test_the_fast_freight_meets_the_chunnel_building_restriction() -> None:
    s = two_trains()
    assert not s.freight_only(0), "the second train is a Fast Freight from the start"
    s.train2[0] = 0
    assert s.freight_only(0)


def test_a_rented_chunnel_is_closed_to_the_freight_open_to_the_fast_freight() -> None:
    s = two_trains()
    b = s.game.board
    k = next(k for k, x in enumerate(b.links) if x.kind == CHUNNEL)
    s.link_owners[k] = [1]
    s._rebuild_touch()
    end = b.links[k].ends[0]
    place(s, 0, end)
    place2(s, 0, end)
    set_turn(s, 0, OPS)
    strings = legal_strings(s)
    assert "chunnel" not in strings and "train 2 chunnel" in strings
    with pytest.raises(IllegalActionError, match="Freight may not use the Chunnel by renting"):
        s.apply_string("chunnel")
    s.apply_string("train 2 chunnel")
    assert s.pos2[0] == b.links[k].ends[1] and s.cash == [46, 54]


def test_use_fees_once_per_opponent_per_turn_for_both_trains() -> None:
    s = two_trains()
    route = paris_lyon(s, owner=1)
    place(s, 0, route[0])
    place2(s, 0, route[0])
    set_turn(s, 0, OPS)
    s.apply_string(f"move {route[1]}")
    s.apply_string(f"move {route[2]}")
    s.apply_string(f"train 2 move {route[1]}")
    s.apply_string(f"train 2 move {route[2]}")
    assert s.cash == [46, 54], "4 a turn to each opponent, whatever the number of trains"


def test_a_derailment_hits_each_train_one_lost_turn() -> None:
    s = two_trains()
    g = s.game
    b = g.board
    event = 162
    area = sorted(g.areas[event])
    wine, beer, coal = (b.load_index(x) for x in ("Wine", "Beer", "Coal"))
    s.loads[0] = [wine, beer]
    s.loads2[0] = [coal]
    for x in (wine, beer, coal):
        s.chips[x] -= 1
    place(s, 0, area[0])
    place2(s, 0, area[1])
    set_turn(s, 1, OPS)
    s.discard.append(s.hands[1].pop())
    draw(s, event)
    assert s.loads2[0] == [], "the second train's only load is lost at once"
    assert s.pending == [0] and s.current_player() == 0, "P1 chooses the first train's loss"
    assert set(legal_strings(s)) == {"lose Wine", "lose Beer"}
    s.apply_string("lose Beer")
    assert s.loads[0] == [wine] and s.lost[0] == 1
    s.check_invariants()


def test_a_derailment_choice_for_the_second_train() -> None:
    s = two_trains()
    g = s.game
    b = g.board
    event = 162
    area = sorted(g.areas[event])
    wine, beer = b.load_index("Wine"), b.load_index("Beer")
    s.loads2[0] = [wine, beer]
    s.chips[wine] -= 1
    s.chips[beer] -= 1
    place2(s, 0, area[0])
    set_turn(s, 1, OPS)
    s.discard.append(s.hands[1].pop())
    draw(s, event)
    assert s.pending == [2 + 0] and s.current_player() == 0
    assert set(legal_strings(s)) == {"lose Wine", "lose Beer"}
    again = s.game.deserialize(s.serialize())
    assert again.legal_actions() == s.legal_actions()
    s.apply_string("lose Wine")
    assert s.loads2[0] == [beer] and s.loads[0] == []
    s.check_invariants()


def test_a_ferry_stops_one_train_and_the_other_moves_on() -> None:
    s = two_trains()
    b = s.game.board
    link = next(k for k, x in enumerate(b.links) if x.kind == FERRY)
    port = b.links[link].ends[0]
    s.link_owners[link] = [0]
    s._rebuild_touch()
    route = paris_lyon(s)
    place(s, 0, port)
    place2(s, 0, route[0])
    set_turn(s, 0, OPS)
    s.apply_string("ferry P1")
    assert s.phase == OPS and s.on_ferry[0] == b.links[link].ends[1] and s.moves == 0
    assert "ferry P1" not in legal_strings(s), "boarded once"
    s.apply_string(f"train 2 move {route[1]}")
    s.apply_string("end move")
    s.apply_string("end turn")
    set_turn(s, 0, OPS)
    s._start_turn()
    assert s.pos[0] == b.links[link].ends[1] and s.moves == 5, "the other port, at half rate"
    assert s.moves2 == 12


def test_two_trains_in_the_notation_observation_tensor_and_svg() -> None:
    s = two_trains()
    route = paris_lyon(s)
    place(s, 0, route[0])
    place2(s, 0, route[3], prev=route[2])
    set_turn(s, 0, OPS)
    shape = s.game.observation_tensor_shape()
    assert s.observation_tensor(0).shape == shape
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    s.apply_string(f"train 2 move {route[4]}")
    again = s.game.deserialize(s.serialize())
    assert again.serialize() == s.serialize() and again.legal_actions() == s.legal_actions()
    assert s.observation(None)["moves_left_2"] == 11
    svg = s.render_svg(0)
    assert f'data-action="train 2 move {nm(s, route[5])}"' in svg
    assert "P1 train 2 Fast Freight" in svg
    with pytest.raises(NotationError, match="not an action of a train"):
        s.string_to_action("train 2 end move")
    with pytest.raises(IllegalActionError, match=r"only reverse direction .*\(train 2\)"):
        s.apply_string(f"train 2 move {route[3]}")


def test_four_demand_cards_instead_of_three() -> None:
    g = game(2, four_demand_cards=True)
    s = dealt(g, [[1, 2, 3, 4], [5, 6, 7, 8]])
    assert s.hands == [[1, 2, 3, 4], [5, 6, 7, 8]]
    set_turn(s, 0, OPS)
    s.apply_string("discard hand")
    for card in (9, 10, 11):
        draw(s, card)
    assert s.is_chance_node(), "a fourth card is drawn"
    draw(s, 12)
    assert s.hands[0] == [9, 10, 11, 12] and not s.is_chance_node()
    assert s.train2 == [], "with or without the second train"


def test_four_demand_cards_a_delivery_from_the_fourth_card() -> None:
    s = dealt(game(2, four_demand_cards=True), [[1, 2, 3, 4], [5, 6, 7, 8]])
    b = s.game.board
    assert len(s.hands[0]) == 4
    card = s.hands[0][3]
    dem = b.demands[card][2]
    s.loads[0] = [dem.load]
    s.chips[dem.load] -= 1
    place(s, 0, b.city_centre[dem.city])
    set_turn(s, 0, OPS)
    text = f"deliver {b.load_names[dem.load]} to {b.city_names[dem.city]} #{card}"
    assert text in legal_strings(s)
    s.apply_string(text)
    assert s.cash[0] == 50 + dem.payment and len(s.hands[0]) == 3 and s.is_chance_node()
    assert s.observation_tensor(0).shape == s.game.observation_tensor_shape()


def test_additional_trains_off_by_default() -> None:
    s = standard(2)
    assert s.train2 == [] and len(s.hands[0]) == 3
    set_turn(s, 0, OPS)
    assert not any(x.startswith("train 2") for x in legal_strings(s))
    with pytest.raises(NotationError):
        s.string_to_action("train 2 start Paris")
    assert '"second"' not in s.serialize()
    assert "second_train" not in s.observation(None)["players"][0]


def test_the_greedy_bot_runs_both_trains() -> None:
    g = game(2, challenge_additional_trains=True, four_demand_cards=True)
    s = motherlode.deal(g, seed=3)
    bots = [GreedyAgent(g, seed=q) for q in range(2)]
    rng = random.Random(0)
    moved2 = placed2 = False
    for _ in range(3000):
        if s.is_terminal() or s.normal_round() >= 8:
            break
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        a = bots[s.current_player()].act(s)
        text = s.action_to_string(a)
        placed2 |= text.startswith("train 2 start")
        moved2 |= text.startswith("train 2 move")
        s.apply_action(a)
    assert placed2 and moved2
    assert all(m >= 0 for m in s.pos2)

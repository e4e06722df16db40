"""One scenario per rule sentence of the El Dorado rulebook, named after its section.

The designed sheets (data/sheet1..4.json) are used throughout. Sheet 1, as the tests
read it (odd rows shifted right; `*` an amulet with the signpost-die reward)::

    1   M  P  T  A* K  M  t  P  K
    2     K  M  P  A  t  T  M  K  P
    3   P  T  K  M  P  A  K  t  M  GOLD
    4     A  M  t  P  T  M  A* P  K
    5   T  K  P  M  A  t  P  M  T
        a  b  c  d  e  f  g  h  i  j

Sheet 3 has settlements d1 ($2), f2 ($3), g3 ($1), e4 ($4), h5 ($2); sheet 4 has e1 ($2),
e2 ($3), f2 ($1), f3 ($4), h4 ($2), i5 ($3) and its ethnographer is hired at e2, f2, f3.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import motherlode
from motherlode import CHANCE, TERMINAL, IllegalActionError, NotationError
from motherlode.games.eldorado.sheets import SIGNPOST, load_dice, load_sheet
from tests.eldorado.helpers import face, game, labels, legal_strings, play, position

DATA = Path(motherlode.__file__).parent / "games" / "eldorado" / "data"

# -- Components -----------------------------------------------------------------------------


def test_components_six_dice_machete_paddle_torch_amulet_map_coins() -> None:
    dice = load_dice()
    for die in dice[:6]:
        assert sorted(die[:5]) == [0, 1, 2, 3, 4] and die[5] > 5
    assert [die[5] - 5 for die in dice[:6]] == [1, 1, 2, 2, 3, 3]  # designed, marked


def test_components_one_die_with_signposts_and_coins() -> None:
    die = load_dice()[6]
    assert die.count(SIGNPOST) == 3 and sorted(f - 5 for f in die if f > 5) == [1, 2, 3]


def test_components_four_maps() -> None:
    assert [load_sheet(m).number for m in (1, 2, 3, 4)] == [1, 2, 3, 4]


# -- Goal of the Game / 4 Maps / 2 Difficulty Levels ---------------------------------------


def test_four_maps_the_higher_the_number_the_greater_the_challenge() -> None:
    sheets = [load_sheet(m) for m in (1, 2, 3, 4)]
    assert [s.temple_symbols for s in sheets] == [3, 4, 4, 5]
    assert [s.golden_minimum for s in sheets] == [3, 3, 3, 4]
    assert [len(s.spaces) for s in sheets] == sorted(len(s.spaces) for s in sheets)
    assert [bin(s.settlement_mask).count("1") for s in sheets] == [0, 0, 5, 6]


def test_four_maps_all_players_have_a_map_with_the_same_number() -> None:
    g = game(players=3, map=2)
    obs = g.new_initial_state().observation(None)
    assert obs["map"] == 2 and len(obs["sheets"]) == 3


def test_difficulty_easier_level_crosses_out_the_yellow_temple() -> None:
    assert game(map=1, hard=False).required == 2
    assert game(map=1, hard=True).required == 3
    assert game(map=4, hard=False).required == 4
    assert game(map=4, hard=True).required == 5


# -- Game Setup / Course of Play ---------------------------------------------------------------


def test_setup_all_dice_in_the_middle_and_the_first_round_starts_with_a_roll() -> None:
    s = game().new_initial_state()
    assert s.current_player() == CHANCE and s.to_roll == [0, 1, 2, 3, 4, 5, 6]
    for k in range(7):
        s.apply_string(f"roll d{k}=map" if k < 6 else "roll d6=signpost")
    assert s.current_player() == 0  # the starting player circles the hat
    assert s.middle == [face("map")] * 6 + [SIGNPOST]


def test_course_of_play_the_one_most_recently_on_an_expedition_starts() -> None:
    g = game(players=3, first_player=2)
    s = g.new_initial_state()
    for k in range(7):
        s.apply_string(f"roll d{k}=map" if k < 6 else "roll d6=signpost")
    assert s.current_player() == 2 and s.serialize().startswith("m1 easy 3p | r1 p2 start")
    assert "P3 (hat)" in str(s) and "P1 (hat)" not in str(s)
    play(s, "take d0", "d0 move a2")
    assert (s.current_player(), s.round) == (0, 1)  # on the left, the round goes on
    play(s, "take d1", "d1 move a2", "take d2", "d2 move a2")
    assert (s.current_player(), s.round) == (2, 2)  # the round ends with the hat's right
    assert game(players=3).new_initial_state().seat == 0  # default: P1, as in older records


def test_course_of_play_the_next_player_on_the_left_takes_the_next_turn() -> None:
    g = game()
    s = position(g, phase="use", middle={1: "map"}, held={0: ("machete", 1)})
    play(s, "d0 move a1")
    assert s.current_player() == 1 and s.round == 1 and s.phase_name() == "start"


def test_roll_if_there_is_no_die_in_the_middle_the_player_rolls_all_dice() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={0: ("machete", 1)})
    play(s, "d0 move a1")
    assert s.round == 2 and s.current_player() == CHANCE and s.to_roll == list(range(7))


def test_roll_if_there_is_at_least_one_die_in_the_middle_no_roll() -> None:
    g = game()
    s = position(g, seat=1, phase="use", middle={5: "torch"}, held={0: ("machete", 1)})
    play(s, "d0 move a1")
    assert s.current_player() == 0 and s.phase_name() == "start"
    assert legal_strings(s) == ["take d5"]


def test_choose_a_die_tell_it_and_place_it_next_to_the_map() -> None:
    g = game()
    s = position(g, middle={0: "machete", 3: "2c"})
    play(s, "take d3")
    assert s.middle[3] == -1 and s.held[3] == face("2c") and s.uses[3] == 1
    assert s.observation(1)["turn"]["chosen"] == {"d3": {"face": "2c", "uses_left": 1}}


def test_use_the_die_a_player_must_use_1_die() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("machete", 1)}, filled={0: ["torch"]})
    assert "end" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="must still be used"):
        s.apply_string("end")


def test_use_the_die_a_die_without_any_use_is_discarded() -> None:
    g = game()
    # every slot a paddle could fill is filled, and no paddle space is reachable
    s = position(g, phase="use", held={1: ("paddle", 1)}, visited={0: ["a5"]},
                 filled={0: ["paddle", "3coins"]}, used={0: ["3coins"]})
    assert legal_strings(s) == ["discard d1"]
    s2 = position(g, phase="use", held={1: ("machete", 1)}, visited={0: ["a1"]})
    with pytest.raises(IllegalActionError, match="possible use"):
        s2.apply_string("discard d1")


# -- Map - Route Zone -------------------------------------------------------------------------


def test_route_begin_from_any_outermost_space_on_the_left() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("machete", 1)})
    assert [m for m in legal_strings(s) if " move " in m] == ["d0 move a1"]
    s = position(g, phase="use", held={6: ("signpost", 1)})
    assert [m for m in legal_strings(s) if " move " in m] == [
        "d6 move a1", "d6 move a2", "d6 move a3", "d6 move a4", "d6 move a5"]


def test_route_continue_by_filling_spaces_adjacent_to_any_visited_space() -> None:
    g = game()
    s = position(g, phase="use", held={6: ("signpost", 1)}, visited={0: ["a1", "b1"]})
    assert [m for m in legal_strings(s) if " move " in m] == [
        "d6 move c1", "d6 move a2", "d6 move b2"]
    s = position(g, phase="use", held={2: ("torch", 1)}, visited={0: ["a1", "b1"]})
    assert [m for m in legal_strings(s) if " move " in m] == ["d2 move c1"]
    with pytest.raises(IllegalActionError, match="not adjacent"):
        s.apply_string("d2 move e4")


def test_route_move_with_the_appropriate_symbol() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("torch", 1)}, visited={0: ["a1", "b1"]})
    with pytest.raises(IllegalActionError, match="shows a map"):
        s.apply_string("d2 move a2")


def test_route_the_signpost_acts_as_a_joker() -> None:
    g = game()
    s = position(g, phase="use", held={6: ("signpost", 1)}, visited={0: ["a1", "b1"]})
    play(s, "d6 move b2")  # a machete space
    assert labels(s, 0) == {"a1", "b1", "b2"}


def test_route_a_die_showing_a_signpost_is_never_a_coin() -> None:
    g = game()
    s = position(g, phase="use", held={6: ("signpost", 1)}, visited={0: ["a2", "b2", "c2", "d2"]})
    moves = legal_strings(s)
    assert "d6 offer e2" not in moves and "d6 fill signpost/1" not in moves
    assert "d6 move e3" in moves


def test_route_you_do_not_have_to_continue_from_the_most_recent_space() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("torch", 1)}, visited={0: ["a1", "b1", "a2", "a3"]})
    play(s, "d0 move b3")  # next to a3 (visited long ago), not to the last space
    assert "b3" in labels(s, 0)


def test_route_visited_spaces_remain_filled_in() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("torch", 1)}, visited={0: ["a1", "b1"]})
    play(s, "d0 move c1")
    assert {"a1", "b1", "c1"} <= labels(s, 0)


# -- Making an Offering in a Temple --------------------------------------------------------------

ROW2 = ["a2", "b2", "c2", "d2"]  # d2 is next to temple e2


def test_offering_needs_access_to_the_temple() -> None:
    g = game()
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: ["a2", "b2", "c2"]})
    with pytest.raises(IllegalActionError, match="not adjacent"):
        s.apply_string("d4 offer e2")


def test_offering_you_cannot_pass_through_a_temple_without_an_offering() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("torch", 1)}, visited={0: ROW2})
    assert "d2 move f2" not in legal_strings(s)  # f2 lies beyond temple e2
    s = position(g, phase="use", held={2: ("torch", 1)}, visited={0: ROW2},
                 offers={0: [("e2", 2)]})
    assert "d2 move f2" in legal_strings(s)


def test_beyond_a_temple_the_expedition_continues_in_subsequent_turns() -> None:
    g = game()
    # f2 (a torch) lies beyond temple e2 only; c1 (a torch) is next to b2 and c2
    s = position(g, phase="use", held={2: ("2c", 1)}, middle={0: "torch", 1: "torch"},
                 visited={0: ROW2}, filled={0: ["torch"]})
    play(s, "d2 offer e2", "activate torch")
    assert "res move f2" not in legal_strings(s) and "res move c1" in legal_strings(s)
    with pytest.raises(IllegalActionError, match="f2 lies beyond temple e2, offered in this"
                       " turn: the expedition continues past it in a later turn"):
        s.apply_string("res move f2")
    play(s, "res move c1", "take d0", "d0 move a5")
    play(s, "take d1", "d1 move f2")  # the next turn: past the temple
    assert {"e2", "f2"} <= labels(s, 0)


def test_beyond_a_temple_not_with_the_second_die_of_the_same_turn() -> None:
    g = game(map=3)
    # sheet 3: d3 (a paddle) lies beyond temple c3 only
    s = position(g, phase="use", held={2: ("2c", 1), 4: ("paddle", 1)},
                 visited={0: ["a3", "b3"]}, filled={0: ["taketwo"]}, used={0: ["taketwo"]},
                 active="taketwo")
    play(s, "d2 offer c3")
    assert "d4 move d3" not in legal_strings(s) and "d4 move a2" in legal_strings(s)
    assert s.serialize().split(" | ")[6].endswith(";c3=2*")  # made this turn
    with pytest.raises(IllegalActionError, match="beyond temple c3"):
        s.apply_string("d4 move d3")


def test_offering_example_a_first_offering_of_any_size_sets_the_minimum() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: ROW2})
    play(s, "d2 offer e2")
    e2 = g.sheet.by_label["e2"]
    assert s.offers[0] == [(e2, 2)] and s.minima[e2] == 2
    assert s.observation(1)["temple_minima"] == {"e2": 2}  # written on every other map


def test_offering_example_b_a_later_offering_at_least_the_minimum_leaves_it() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={4: ("3c", 1)}, visited={0: ROW2, 1: ROW2},
                 offers={0: [("e2", 2)]})
    play(s, "d4 offer e2")
    e2 = g.sheet.by_label["e2"]
    assert s.offers[1] == [(e2, 3)] and s.minima[e2] == 2


def test_offering_below_the_minimum_is_illegal() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={0: ("1c", 1)}, visited={0: ROW2, 1: ROW2},
                 offers={0: [("e2", 2)]})
    with pytest.raises(IllegalActionError, match="minimum offering in e2 is 2"):
        s.apply_string("d0 offer e2")


def test_offering_only_one_die_may_be_used() -> None:
    g = game(map=3)
    # two coin dice taken with the special action are still two separate offerings
    s = position(g, phase="use", held={2: ("2c", 1), 4: ("3c", 1)},
                 visited={0: ["a3", "b3"]}, filled={0: ["taketwo"]}, used={0: ["taketwo"]},
                 active="taketwo")
    play(s, "d2 offer c3")
    c3 = g.sheet.by_label["c3"]
    assert s.offers[0] == [(c3, 2)]
    with pytest.raises(NotationError):
        s.string_to_action("d2+d4 offer c3")


def test_offering_all_coins_of_the_die_and_resource_must_be_used() -> None:
    g = game()
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: ROW2},
                 filled={0: ["1coin"]})
    play(s, "activate 1coin", "d4+res offer e2")
    assert s.offers[0][-1][1] == 4 and s.minima[g.sheet.by_label["e2"]] == 4


def test_offering_further_temples_are_written_beside_and_count_for_the_tie() -> None:
    g = game()  # easy: 2 temples required
    s = position(g, phase="use", held={4: ("3c", 1)},
                 visited={0: ["a4", "b4", "d4", "e4", "f3", "g3"]},
                 offers={0: [("c4", 2), ("e2", 1)]})
    play(s, "d4 offer h3")
    assert s.temples_offered(0) == 3 and s.coins_offered(0) == 6 and s.scores()[0] == 6.0


# -- Map No. 1: Reward for Finding the Amulet ---------------------------------------------------


def test_map1_reward_the_first_player_on_the_amulet_space_uses_the_signpost_die() -> None:
    g = game()
    s = position(g, phase="use", held={3: ("amulet", 1)}, middle={0: "map"},
                 visited={0: ["a1", "b1", "c1"]})
    play(s, "d3 move d1")
    assert s.reward == 1 and s.claimed[g.sheet.by_label["d1"]] == 0
    # used immediately, in the upper or lower zone
    assert all(m.startswith("reward ") for m in legal_strings(s))
    assert "reward fill 3coins/1" in legal_strings(s)
    play(s, "reward move e1")
    assert "e1" in labels(s, 0) and s.current_player() == 1


def test_map1_reward_rivals_cross_out_the_die_above_this_space() -> None:
    g = game()
    s2 = position(g, seat=1, phase="use", held={3: ("amulet", 1)}, middle={0: "map"},
                  visited={0: ["a1", "b1", "c1", "d1"], 1: ["a1", "b1", "c1"]},
                  claimed={"d1": 0})
    play(s2, "d3 move d1")
    assert s2.reward == 0 and s2.current_player() == 0


# -- Maps No. 3 and 4: Settlements of the Muisca Tribe ------------------------------------------

TO_F2 = ["a2", "b2", "c2", "d2", "e2"]  # sheet 3: e2 is next to settlement f2 ($3)


def test_settlement_you_do_not_pass_until_the_fee_is_paid() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={1: ("paddle", 1)}, visited={0: TO_F2})
    assert "d1 move g2" not in legal_strings(s)  # g2 lies beyond f2 only


def test_settlement_fee_paid_in_instalments() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: TO_F2})
    play(s, "d2 pay f2")
    f2 = g.sheet.by_label["f2"]
    assert s.paid[0][f2] == 2 and "f2" not in labels(s, 0)
    s = position(g, phase="use", held={3: ("2c", 1)}, visited={0: TO_F2}, paid={0: {"f2": 2}})
    play(s, "d3 pay f2")
    assert "f2" in labels(s, 0) and s.paid[0][f2] == 3  # the excess coin is lost


def test_settlement_paid_with_a_die_never_a_resource() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={1: ("machete", 1)}, visited={0: TO_F2},
                 filled={0: ["2coins"]})
    play(s, "activate 2coins")
    assert not any("pay" in m for m in legal_strings(s))
    with pytest.raises(IllegalActionError, match="never a resource"):
        s.apply_string("res pay f2")


def test_settlement_coins_of_one_die_fill_only_one_settlement() -> None:
    g = game(map=3)
    # e1 neighbours d1 ($2); d2 and e2 reach f2 ($3)
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: ["a1", "b1", "c1", *TO_F2]})
    assert {"d4 pay d1", "d4 pay f2"} <= set(legal_strings(s))
    play(s, "d4 pay d1")
    assert "d1" in labels(s, 0) and s.paid[0][g.sheet.by_label["f2"]] == 0


# -- Map - Resources and Helpers Zone ----------------------------------------------------------


def test_resources_die_symbol_means_any_die() -> None:
    g = game()
    for f in ("machete", "torch", "2c", "amulet"):
        s = position(g, phase="use", held={2: (f, 1)})
        assert "d2 fill 3coins/1" in legal_strings(s)


def test_resources_die_symbol_takes_no_resource() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("paddle", 1)}, filled={0: ["machete"]})
    play(s, "activate machete")
    assert "res fill 3coins/1" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="takes a die"):
        s.apply_string("res fill 3coins/1")


def test_resources_flat_symbol_takes_a_resource_or_die_of_that_kind() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("map", 1)}, filled={0: ["machete"]})
    play(s, "d0 fill 2machetes/1", "activate machete")
    with pytest.raises(IllegalActionError, match="needs map"):
        s.apply_string("res fill 2machetes/2")


def test_resources_flat_symbol_a_resource_or_die_with_2_coins() -> None:
    g = game(map=2)  # sheet 2: the map resource costs the flat symbol "2 coins"
    m = g.sheet.res_by_id["map"]
    s = position(g, phase="use", held={2: ("2c", 1)})
    play(s, "d2 fill map/1")
    assert s.obtained(0, m)
    s = position(g, phase="use", held={4: ("3c", 1)})
    play(s, "d4 fill map/1")  # at least 2 coins; the excess is lost
    assert s.obtained(0, m)
    for d, f in ((0, "1c"), (6, "signpost"), (2, "map")):
        s = position(g, phase="use", held={d: (f, 1)}, visited={0: ["a1"]})
        assert f"d{d} fill map/1" not in legal_strings(s)
    s = position(g, phase="use", held={0: ("1c", 1)})
    with pytest.raises(IllegalActionError, match="map/1 of map needs a die or resource with 2"
                       " coins"):
        s.apply_string("d0 fill map/1")
    s = position(g, phase="use", held={0: ("machete", 1)}, filled={0: ["2coins"]})
    play(s, "activate 2coins", "res fill map/1")  # a resource with 2 coins
    assert s.obtained(0, m)


def test_resources_flat_coin_symbol_with_the_guides(tmp_path: Path) -> None:
    data = DATA
    for m, rid, d, f in ((4, "torch", 0, "1c"), (3, "machete", 2, "amulet")):
        doc = json.loads((data / f"sheet{m}.json").read_text())
        next(r for r in doc["resources"] if r["id"] == rid)["cost"] = ["coins:2"]
        path = tmp_path / f"flat{m}.json"
        path.write_text(json.dumps(doc))
        g = game(map=m, sheet_file=str(path))
        s = position(g, phase="use", held={d: (f, 1)}, filled={0: ["guide"]})
        play(s, f"d{d} fill {rid}/1")  # sheet 4: 1 coin + the guide's; sheet 3: amulet = 2 coins
        assert s.obtained(0, g.sheet.res_by_id[rid])


def test_resources_obtain_by_filling_all_spaces_example_two_maps() -> None:
    g = game()
    s = position(g, phase="use", held={4: ("map", 1)})
    play(s, "d4 fill 2machetes/1")
    r = g.sheet.res_by_id["2machetes"]
    assert not s.obtained(0, r)
    s = position(g, seat=0, phase="use", held={2: ("map", 1)}, filled={0: ["2machetes/1"]})
    play(s, "d2 fill 2machetes/2")
    assert s.obtained(0, r)


def test_resources_may_be_obtained_in_any_order() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, filled={0: ["signpost/3"]})
    play(s, "d2 fill signpost/1")  # circles 1 and 2 (slot 3 was filled first)
    assert s.obtained(0, g.sheet.res_by_id["signpost"])


def test_map1_example_machete_die_gives_a_machete_resource() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("machete", 1)})
    play(s, "d0 fill machete/1")
    assert s.obtained(0, g.sheet.res_by_id["machete"])


def test_map1_example_three_coins_for_two_dice_of_any_kind() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("map", 1)}, visited={0: ["a1"]})
    play(s, "d2 fill 3coins/1")
    s = position(g, phase="use", held={2: ("torch", 1)}, filled={0: ["3coins/1"]})
    play(s, "d2 fill 3coins/2")
    assert s.obtained(0, g.sheet.res_by_id["3coins"])


def test_map1_example_signpost_for_three_coins_resource_then_die() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("torch", 1)}, visited={0: ["a1", "b1"]},
                 filled={0: ["1coin"]})
    play(s, "d2 move c1", "activate 1coin", "res fill signpost/1")
    sp = g.sheet.res_by_id["signpost"]
    assert bin(s.filled[0] & g.res_mask[sp]).count("1") == 1
    s2 = position(g, phase="use", held={3: ("2c", 1)}, filled={0: ["signpost/1"]})
    play(s2, "d3 fill signpost/2")
    assert s2.obtained(0, sp)


def test_use_resources_only_1_resource_per_turn() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("torch", 1)}, filled={0: ["machete", "paddle"]},
                 visited={0: ["a2"]})
    play(s, "activate paddle", "res move b1")
    assert "activate machete" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="only 1 resource"):
        s.apply_string("activate machete")


def test_use_resources_die_and_resource_in_any_order() -> None:
    g = game()
    a = position(g, phase="use", held={0: ("torch", 1)}, filled={0: ["paddle"]},
                 visited={0: ["a4"]})
    b = a.clone()
    play(a, "d0 move a5", "activate paddle", "res move a3")
    play(b, "activate paddle", "res move a3", "d0 move a5")
    assert a.serialize() == b.serialize()


def test_use_resources_die_and_resource_are_never_combined_except_coins() -> None:
    g = game()
    s = position(g, phase="use", held={3: ("2c", 1)}, filled={0: ["1coin"]})
    play(s, "activate 1coin")
    with pytest.raises(NotationError, match="combine only to offer"):
        s.string_to_action("d3+res fill signpost/1")


def test_use_resources_in_the_turn_obtained() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("machete", 1)})
    play(s, "d0 fill machete/1", "activate machete", "res move a1")
    assert labels(s, 0) == {"a1"}


def test_use_resources_each_resource_is_single_use() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("torch", 1)}, filled={0: ["machete"]},
                 used={0: ["machete"]})
    with pytest.raises(IllegalActionError, match="single-use"):
        s.apply_string("activate machete")


def test_use_resources_two_items_used_in_the_same_turn_in_both_zones() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("torch", 1)}, filled={0: ["2machetes"]},
                 visited={0: ["a2"]})
    play(s, "d0 move b3", "activate 2machetes", "res move a1")
    assert s.current_player() == 0 and s.items  # the second machete must still be used
    assert "end" not in legal_strings(s)
    play(s, "res fill machete/1")
    assert s.obtained(0, g.sheet.res_by_id["machete"]) and s.seat == 1


# -- Map No. 2: the zero offering and the cartographer ------------------------------------------

TO_D3 = ["a3", "b3", "c3"]  # sheet 2: c3 is next to temple d3


def test_map2_zero_offering_by_the_first_player() -> None:
    g = game(map=2)
    s = position(g, phase="use", held={0: ("machete", 1)}, visited={0: TO_D3},
                 filled={0: ["zero"]})
    play(s, "activate zero", "res offer d3")
    d3 = g.sheet.by_label["d3"]
    assert s.offers[0] == [(d3, 0)] and s.minima[d3] == 0 and "d3" in labels(s, 0)


def test_map2_zero_offering_rivals_may_then_offer_any_number_including_0() -> None:
    g = game(map=2)
    s = position(g, seat=1, phase="use", held={0: ("1c", 1)}, visited={0: TO_D3, 1: TO_D3},
                 filled={0: ["zero"], 1: ["zero"]}, used={0: ["zero"]},
                 offers={0: [("d3", 0)]})
    assert {"d0 offer d3", "activate zero"} <= set(legal_strings(s))
    play(s, "activate zero", "res offer d3")
    assert s.offers[1][-1][1] == 0


def test_map2_zero_offering_not_once_a_minimum_above_0_is_set() -> None:
    g = game(map=2)
    s = position(g, seat=1, phase="use", held={0: ("machete", 1)}, visited={0: TO_D3, 1: TO_D3},
                 filled={1: ["zero"]}, offers={0: [("d3", 2)]})
    assert "activate zero" not in legal_strings(s)


def test_map2_zero_offering_example_three_amulets_die_resource_signpost() -> None:
    g = game(map=2)
    zero, amulet = g.sheet.res_by_id["zero"], g.sheet.res_by_id["amulet"]
    s = position(g, middle={0: "machete", 3: "amulet", 6: "signpost"}, filled={0: ["amulet"]})
    # "The player chose a die with an amulet, so they fill in 1 of the 3 spaces. They also
    # use an already owned resource with 1 amulet – they fill in the second space."
    play(s, "take d3", "d3 fill zero/1", "activate amulet", "res fill zero/2")
    assert (s.used[0] >> amulet) & 1 and not s.obtained(0, zero) and s.seat == 1
    play(s, "take d0", "d0 move a3")
    # "In one of the following turns the player chose a die with a signpost (it acts as a
    # joker), which they use as an amulet. They fill in the third space"
    play(s, "take d6", "d6 fill zero/3")
    assert s.obtained(0, zero)


def test_map2_cartographer_example_a_map_die_and_an_owned_map_resource() -> None:
    g = game(map=2)
    s = position(g, middle={0: "machete", 4: "map"}, filled={0: ["map"]})
    # "The player chose a die with a map, so they fill in 1 of the 2 map spaces. They also
    # use an already owned resource with 1 map – they fill in the second space"
    play(s, "take d4", "d4 fill cartographer/1", "activate map", "res fill cartographer/2")
    assert s.has(0, g.cartographer) and s.seat == 1
    play(s, "take d0", "d0 move a3")
    for d in range(7):  # "whose services they can use later in the game"
        s.apply_string(f"roll d{d}={'signpost' if d == 6 else 'map'}")
    assert "d0 move a2" in legal_strings(play(s, "take d0"))  # a2 is a paddle


def test_map2_cartographer_hired_with_two_maps() -> None:
    g = game(map=2)
    s = position(g, phase="use", held={4: ("map", 1)}, filled={0: ["cartographer/1"]})
    play(s, "d4 fill cartographer/2")
    assert s.has(0, g.cartographer)


def test_map2_cartographer_a_die_with_a_map_is_a_signpost_every_turn() -> None:
    g = game(map=2)
    plain = position(g, phase="use", held={4: ("map", 1)}, visited={0: ["a3"]})
    assert "d4 move b3" not in legal_strings(plain)  # b3 is a torch
    s = position(g, phase="use", held={4: ("map", 1)}, visited={0: ["a3"]},
                 filled={0: ["cartographer"]})
    play(s, "d4 move b3")
    s = position(g, phase="use", held={1: ("map", 1)}, visited={0: ["a3", "b3"]},
                 filled={0: ["cartographer"]}, round=5)
    play(s, "d1 move c3")  # again in a later turn: not single-use
    assert "c3" in labels(s, 0)


def test_map2_cartographer_is_an_additional_action() -> None:
    g = game(map=2)
    s = position(g, phase="use", held={4: ("map", 1)}, visited={0: ["a3"]},
                 filled={0: ["cartographer", "amulet"]})
    play(s, "d4 move a2", "activate amulet", "res move b2")  # a2 is a paddle, b2 an amulet
    assert labels(s, 0) == {"a3", "a2", "b2"}


# -- Map No. 3: special actions and the guide ---------------------------------------------------


def test_map3_special_reroll_all_dice_regardless_of_the_middle() -> None:
    g = game(map=3)
    s = position(g, middle={2: "torch"}, filled={0: ["reroll"]})
    play(s, "activate reroll")
    assert s.current_player() == CHANCE and s.to_roll == list(range(7))
    for d in range(7):
        s.apply_string(f"roll d{d}={'2c' if d in (2, 3) else 'signpost' if d == 6 else 'map'}")
    assert s.phase_name() == "start" and "activate reroll" not in legal_strings(s)


def test_map3_special_take_two_dice_used_one_after_the_other() -> None:
    g = game(map=3)
    s = position(g, middle={0: "machete", 1: "paddle"}, visited={0: ["a1"]},
                 filled={0: ["taketwo"]})
    play(s, "activate taketwo", "take d0", "take d1")
    assert s.uses[0] == 1 and s.uses[1] == 1
    play(s, "d1 move a2", "d0 move b3")
    assert s.seat == 1


def test_map3_special_take_two_not_with_fewer_than_two_dice() -> None:
    g = game(map=3)
    s = position(g, middle={0: "machete"}, filled={0: ["taketwo"]})
    assert legal_strings(s) == ["take d0"]
    with pytest.raises(IllegalActionError, match="2 dice in the middle"):
        s.apply_string("activate taketwo")


def test_map3_special_use_one_die_twice() -> None:
    g = game(map=3)
    s = position(g, middle={0: "machete"}, visited={0: ["a2"]}, filled={0: ["twice"]})
    play(s, "activate twice", "take d0", "d0 move a1")
    assert s.uses[0] == 1 and s.current_player() == 0
    play(s, "d0 move b3")
    assert labels(s, 0) == {"a2", "a1", "b3"} and s.seat == 1


def test_map3_guide_a_die_with_an_amulet_is_a_die_with_2_coins() -> None:
    g = game(map=3)
    s = position(g, phase="use", held={0: ("amulet", 1)}, visited={0: ["a3", "b3"]},
                 filled={0: ["guide"]})
    assert "d0 offer c3" in legal_strings(s)
    play(s, "d0 offer c3")
    assert s.offers[0] == [(g.sheet.by_label["c3"], 2)]
    s = position(g, phase="use", held={0: ("amulet", 1)}, visited={0: ["a3", "b3"]})
    assert "d0 offer c3" not in legal_strings(s)


# -- Map No. 4: use three times, the other guide, the ethnographer ------------------------------


def test_map4_special_use_one_die_three_times() -> None:
    g = game(map=4)
    s = position(g, middle={3: "machete"}, visited={0: ["a2"]}, filled={0: ["thrice"]})
    play(s, "activate thrice", "take d3", "d3 move b2", "d3 move c1", "d3 fill 2machetes/3")
    assert s.seat == 1


def test_map4_guide_one_additional_coin_on_a_chosen_coin_die() -> None:
    g = game(map=4)
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: ["a3", "b3", "c3"]},
                 filled={0: ["guide"]})
    play(s, "d2 offer d3")
    assert s.offers[0] == [(g.sheet.by_label["d3"], 3)]


def test_map4_ethnographer_hired_by_visiting_three_adjacent_settlements() -> None:
    g = game(map=4)
    s = position(g, phase="use", held={3: ("2c", 1)},
                 visited={0: ["a2", "b2", "c2", "d2", "e2", "f3"]})
    assert not s.has(0, g.ethnographer)
    play(s, "d3 pay f2")
    assert s.has(0, g.ethnographer)


def test_map4_ethnographer_reroll_when_a_torch_lies_in_the_middle() -> None:
    g = game(map=4)
    hired = ["a2", "b2", "c2", "d2", "e2", "f2", "f3"]
    s = position(g, middle={0: "torch", 4: "map"}, visited={0: hired})
    assert "ethnographer" in legal_strings(s)
    play(s, "ethnographer")
    assert s.to_roll == [0, 4]  # only the dice lying in the middle
    play(s, "roll d0=torch", "roll d4=3c")
    assert "ethnographer" not in legal_strings(s)  # once per turn
    s = position(g, middle={0: "paddle", 4: "map"}, visited={0: hired})
    assert "ethnographer" not in legal_strings(s)  # no torch


def test_map4_ethnographer_must_be_the_first_action() -> None:
    g = game(map=4)
    hired = ["a2", "b2", "c2", "d2", "e2", "f2", "f3"]
    s = position(g, middle={0: "torch", 4: "map"}, visited={0: hired},
                 filled={0: ["taketwo"]})
    play(s, "activate taketwo")
    with pytest.raises(IllegalActionError, match="first action"):
        s.apply_string("ethnographer")


# -- Combining Coins -------------------------------------------------------------------------


def test_combining_coins_example_minimum_3_die_2_plus_resource_1() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={2: ("2c", 1)}, visited={0: ROW2, 1: ROW2},
                 filled={1: ["1coin"]}, offers={0: [("e2", 3)]})
    assert "d2 offer e2" not in legal_strings(s)
    play(s, "activate 1coin", "d2+res offer e2")
    assert s.offers[1] == [(g.sheet.by_label["e2"], 3)]
    assert (s.used[1] >> g.sheet.res_by_id["1coin"]) & 1


# -- The Gate to El Dorado -------------------------------------------------------------------

NEXT_TO_GOLD = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "i3"]


def test_gate_offerings_in_as_many_temples_as_temple_symbols_first() -> None:
    g = game()  # easy sheet 1: 2 temples
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: NEXT_TO_GOLD},
                 offers={0: [("h3", 1)]})
    with pytest.raises(IllegalActionError, match="offerings in 2 temples first"):
        s.apply_string("d4 offer j3")


def test_gate_offering_of_at_least_3_in_the_golden_temple() -> None:
    g = game()
    s = position(g, phase="use", held={2: ("2c", 1)}, visited={0: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1)]})
    with pytest.raises(IllegalActionError, match="at least 3"):
        s.apply_string("d2 offer j3")
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1)]})
    play(s, "d4 offer j3")
    assert s.entered(0)


def test_gate_map4_needs_4_coins() -> None:
    g = game(map=4)  # easy: 4 temples
    path = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3", "k3", "l3"]
    offers = [("d3", 1), ("g4", 1), ("i2", 1), ("l3", 1)]
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: path}, offers={0: offers})
    assert "d4 offer m3" not in legal_strings(s)
    s = position(g, phase="use", held={4: ("3c", 1)}, visited={0: path}, offers={0: offers},
                 filled={0: ["guide"]})
    play(s, "d4 offer m3")
    assert s.entered(0)


# -- End of the Game ------------------------------------------------------------------------


def test_end_the_game_ends_after_the_round_in_which_someone_entered() -> None:
    g = game()
    s = position(g, phase="use", held={4: ("3c", 1)}, middle={0: "map"},
                 visited={0: NEXT_TO_GOLD}, offers={0: [("h3", 1), ("e2", 1)]})
    play(s, "d4 offer j3")
    assert s.current_player() == 1  # the round goes on
    play(s, "take d0", "d0 move a2")
    assert s.current_player() == TERMINAL and s.winners() == (0,) and s.returns() == [1.0, -1.0]


def test_end_two_entered_in_the_same_round_most_coins_offered_wins() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={5: ("3c", 1)},
                 visited={0: [*NEXT_TO_GOLD, "j3"], 1: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1), ("j3", 3)], 1: [("h3", 2), ("e2", 1)]})
    play(s, "d5 offer j3")
    assert s.is_terminal() and s.winners() == (1,) and s.scores() == [2.0, 3.0]


def test_end_a_further_tie_shares_the_victory() -> None:
    g = game(players=3)
    s = position(g, seat=2, phase="use", held={5: ("3c", 1)},
                 visited={0: [*NEXT_TO_GOLD, "j3"], 1: [*NEXT_TO_GOLD, "j3"]},
                 offers={0: [("h3", 1), ("e2", 2), ("j3", 3)],
                         1: [("h3", 1), ("e2", 2), ("j3", 5)]})
    play(s, "d5 fill 3coins/1")
    assert s.is_terminal() and s.winners() == (0, 1) and s.returns() == [1.0, 1.0, -1.0]


# -- interpretations pinned (docs/rules/eldorado.md) ------------------------------------------


def test_offering_needs_a_die_with_coins_resource_coins_alone_do_not_offer() -> None:
    g = game()
    s = position(g, phase="use", held={0: ("machete", 1)}, visited={0: ROW2},
                 filled={0: ["3coins"]})
    play(s, "activate 3coins")
    assert not any("offer" in m for m in legal_strings(s))
    with pytest.raises(IllegalActionError):
        s.apply_string("res offer e2")


def test_gate_the_golden_minimum_stays_the_printed_number() -> None:
    g = game()
    s = position(g, seat=1, phase="use", held={4: ("3c", 1)},
                 visited={0: [*NEXT_TO_GOLD, "j3"], 1: NEXT_TO_GOLD},
                 offers={0: [("h3", 1), ("e2", 1), ("j3", 6)], 1: [("h3", 1), ("e2", 1)]})
    play(s, "d4 offer j3")
    assert s.entered(1)


def test_map4_guide_adds_one_coin_once_per_turn() -> None:
    g = game(map=4)
    s = position(g, middle={3: "2c"}, visited={0: ["a4", "b4", "c4", "d4", "e4"]},
                 filled={0: ["guide", "thrice"]})
    play(s, "activate thrice", "take d3", "d3 pay f3")
    f3 = g.sheet.by_label["f3"]
    assert s.paid[0][f3] == 3 and s.bonus_used  # 2 + 1 from the guide
    play(s, "d3 fill signpost/1")
    sp = g.sheet.res_by_id["signpost"]
    assert bin(s.filled[0] & g.res_mask[sp]).count("1") == 2  # no second bonus this turn

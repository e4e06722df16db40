"""One scenario per rule sentence of the Chinagold rulebook, named after its section.

The default layout (data/layout.json) is used throughout; the regions these tests rely on:
mountain B = a8 a9 b8, mountain C = a10 a11 b10 b11 c10 c11 d10 d11,
mountain G = d3 e2 f1 f2 g1 h1 i1; river b = a8 a9 b8 b9 c8 d7, river c = a10 a11 b10 b11,
river h = d3 e2 f1 g1. Seat 0 prospects in the mountains unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from motherlode import CHANCE, TERMINAL, IllegalActionError
from motherlode.core.hex import reflect
from motherlode.games.chinagold.board import (
    CELLS,
    INDEX,
    NUM_SPOTS,
    ROW_LENGTHS,
    SPOT_NAMES,
    mask_of,
    mirror_regions,
    parse_spot,
)
from motherlode.games.chinagold.game import PASS, STAGE_DISCS, throw_distribution
from tests.chinagold.helpers import game, position, spot, strings

# -- Game Components ------------------------------------------


def test_components_91_prospecting_spots_in_a_hexagon_of_side_6() -> None:
    assert NUM_SPOTS == 91
    assert ROW_LENGTHS == (6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6)


def test_components_three_two_sided_discs_0_1_0_2_1_2() -> None:
    assert STAGE_DISCS[3] == ("0/1", "0/2", "1/2")
    assert throw_distribution(("0/1",), 0.0) == [(0, 0.5), (1, 0.5)]
    assert throw_distribution(("0/2",), 0.0) == [(0, 0.5), (2, 0.5)]
    assert throw_distribution(("1/2",), 0.0) == [(1, 0.5), (2, 0.5)]


def test_components_17_mountains_17_rivers_every_spot_in_one_of_each() -> None:
    g = game()
    assert len(g.layout.mountains) == 17 and len(g.layout.rivers) == 17
    for regions in (g.layout.mountains, g.layout.rivers):
        spots = sorted(s for reg in regions for s in reg)
        assert spots == list(range(91))
        assert all(3 <= len(reg) <= 8 for reg in regions)


def test_components_rivers_are_the_mirror_image_of_the_mountains() -> None:
    g = game()
    mirrored = sorted(
        tuple(sorted(INDEX[reflect(CELLS[s])] for s in reg)) for reg in g.layout.mountains
    )
    assert sorted(g.layout.rivers) == mirrored
    # one region checked by hand: the image of mountain B is a river
    b = g.layout.mountains[1]
    assert sorted(INDEX[reflect(CELLS[s])] for s in b) in [sorted(r) for r in g.layout.rivers]


def test_components_the_mirror_axis_keeps_d10_e8_f6_g4_h2() -> None:
    """The mirror (decision 1) is across the axis at 30° to the rows through f6, not the
    horizontal axis: exactly d10 e8 f6 g4 h2 stay in place; f1 <-> k1, a6 <-> k6, a11 <->
    f11, d9 <-> e9; applied twice it is the identity."""
    image = {s: INDEX[reflect(CELLS[s])] for s in range(NUM_SPOTS)}
    fixed = sorted(SPOT_NAMES[s] for s in range(NUM_SPOTS) if image[s] == s)
    assert fixed == ["d10", "e8", "f6", "g4", "h2"]
    for a, b in (("f1", "k1"), ("a6", "k6"), ("a11", "f11"), ("d9", "e9")):
        assert image[parse_spot(a)] == parse_spot(b) and image[parse_spot(b)] == parse_spot(a)
    assert all(image[image[s]] == s for s in range(NUM_SPOTS))
    g = game()
    assert g.layout.rivers == mirror_regions(g.layout.mountains, 0)


@pytest.mark.parametrize("rotation", range(6))
def test_components_two_part_board_river_disc_in_every_orientation(rotation: int) -> None:
    g = game(river_rotation=rotation)
    spots = sorted(s for reg in g.layout.rivers for s in reg)
    assert spots == list(range(91))
    assert g.layout.mountains == game().layout.mountains  # the leather part never moves
    if rotation:
        assert g.layout.rivers != game().layout.rivers


# -- Setup ------------------------------------------


def test_setup_a_marker_face_down_on_each_of_the_91_spots() -> None:
    state = game().new_initial_state()
    assert state.hidden == mask_of(range(91)) and state.gold == 0
    assert state.scores() == [0.0, 0.0]


def test_setup_players_decide_who_searches_mountains_and_who_rivers() -> None:
    g = game(mountains_player=1)
    assert g.role(1) == "mountains" and g.role(0) == "rivers"
    assert g.area_masks[1] == g.mountain_masks and g.area_masks[0] == g.river_masks


# -- Gameplay: Getting Started ------------------------------------------


def test_getting_started_the_first_player_throws_the_three_discs() -> None:
    state = game(first_player=1).new_initial_state()
    assert state.current_player() == CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5]
    state.apply_string("throw 2")
    assert state.current_player() == 1


def test_getting_started_the_total_of_the_faces_counts() -> None:
    # no edge landings: 0/1 + 0/2 + 1/2 gives 1..5 with weights 1,2,2,2,1 (of 8)
    assert throw_distribution(STAGE_DISCS[3], 0.0) == [
        (1, 0.125), (2, 0.25), (3, 0.25), (4, 0.25), (5, 0.125)
    ]


def test_getting_started_a_disc_on_its_edge_counts_its_higher_number() -> None:
    e = 0.2
    dist = dict(throw_distribution(STAGE_DISCS[3], e))
    high = (1 + e) / 2  # the higher face, or the edge
    assert dist[5] == pytest.approx(high**3)
    assert dist[1] == pytest.approx((1 - high) ** 3)
    state = game(edge_probability=e).new_initial_state()
    assert dict(state.chance_outcomes())[5] == pytest.approx(high**3)


# -- Gameplay: Prospecting for Gold ------------------------------------------


def test_prospecting_the_total_is_how_many_markers_are_turned() -> None:
    state = game().new_initial_state()
    state.apply_string("throw 3")
    legal = strings(state)
    assert len(legal) == 207  # every straight run of 3 on the empty board; no gold to rebury
    state.apply_string("turn f4-f6")
    assert [spot(state, n) for n in ("f4", "f5", "f6", "f7")] == ["gold"] * 3 + ["hidden"]
    with pytest.raises(IllegalActionError, match="exactly 3 markers"):
        s2 = game().new_initial_state()
        s2.apply_string("throw 3")
        s2.apply_string("turn f4-f7")


def test_prospecting_exactly_the_thrown_number_is_turned_not_fewer() -> None:
    """'The total tells the player how many prospecting-spot markers they may turn to the
    golden side.' "may" is the choice between turning and reburying ("Instead of turning
    the rolled number ..."), not "up to": a throw of 3 turns exactly 3 (decision 16)."""
    state = game().new_initial_state()
    state.apply_string("throw 3")
    lengths = {len(text.split("-")) for text in strings(state) if text.startswith("turn")}
    assert lengths == {2}  # every turning is a run "a-b", and every run is of 3 (207 of them)
    for fewer in ("turn f4", "turn f4-f5"):
        with pytest.raises(IllegalActionError, match="the throw is 3: exactly 3 markers"):
            state.apply_string(fewer)
    state.apply_string("turn f4-f6")
    assert [spot(state, n) for n in ("f3", "f4", "f5", "f6", "f7")] == (
        ["hidden"] + ["gold"] * 3 + ["hidden"]
    )


def test_prospecting_markers_lie_next_to_one_another_in_a_straight_line() -> None:
    state = game().new_initial_state()
    state.apply_string("throw 2")
    for text in ("turn f4-f5", "turn f4-g4", "turn f5-g4"):  # the three line directions
        assert text in strings(state)
    from motherlode import NotationError

    with pytest.raises(NotationError, match="straight line"):
        state.string_to_action("turn f4-g5")  # not on a line of the grid


def test_prospecting_without_a_gap_in_between() -> None:
    g = game()
    state = position(g, cleared=["f5"], throw="3", collected=(1, 0))
    assert "turn f4-f6" not in strings(state)
    with pytest.raises(IllegalActionError, match="f5 is cleared: the line would have a gap"):
        state.apply_string("turn f4-f6")


def test_prospecting_without_an_already_discovered_nugget_in_between() -> None:
    state = position(game(), gold=["f5"], throw="3")
    assert "turn f4-f6" not in strings(state)
    with pytest.raises(IllegalActionError, match="f5 is already-discovered gold"):
        state.apply_string("turn f4-f6")


def test_prospecting_rebury_exactly_one_nugget_instead() -> None:
    state = position(game(), gold=["f5", "f6"], throw="5", to_move=1, collected=(0, 0))
    assert "rebury f5" in strings(state) and "rebury f6" in strings(state)
    state.apply_string("rebury f5")
    assert spot(state, "f5") == "hidden" and spot(state, "f6") == "gold"
    assert state.scores() == [0.0, 0.0]
    assert state.current_player() == CHANCE and state.player == 0


def test_prospecting_rebury_only_discovered_gold() -> None:
    state = position(game(), gold=["f5"], throw="1")
    with pytest.raises(IllegalActionError, match="f6 holds no discovered gold"):
        state.apply_string("rebury f6")


# -- Gameplay: Transporting the Gold Away ------------------------------------------


def test_transport_completing_own_area_takes_all_its_gold() -> None:
    state = position(game(), gold=["a8", "a9"], throw="1", collected=(0, 0))
    state.apply_string("turn b8")  # the last marker of mountain B (a8 a9 b8)
    assert state.scores() == [3.0, 0.0]
    assert [spot(state, n) for n in ("a8", "a9", "b8")] == ["cleared"] * 3
    assert spot(state, "b9") == "hidden"  # river b (b9 c8 d7 still face down) is not complete


def test_transport_completing_the_opponents_area_lets_the_opponent_collect() -> None:
    # seat 0 (mountains) turns b11, the last marker of river c (a10 a11 b10 b11)
    state = position(game(), gold=["a10", "a11", "b10"], throw="1", collected=(0, 0))
    state.apply_string("turn b11")
    assert state.scores() == [0.0, 4.0]


def test_transport_both_kinds_completed_mover_collects_first_then_opponent() -> None:
    # b8 completes mountain B (a8 a9 b8) and river b (a8 a9 b8 b9 c8 d7) at once
    gold = ["a8", "a9", "b9", "c8", "d7"]
    state = position(game(), gold=gold, throw="1", to_move=0, collected=(0, 0))
    state.apply_string("turn b8")
    assert state.scores() == [3.0, 3.0]  # seat 0: a8 a9 b8; then seat 1: b9 c8 d7
    state = position(game(), gold=gold, throw="1", to_move=1, collected=(0, 0))
    state.apply_string("turn b8")
    assert state.scores() == [0.0, 6.0]  # the rivers player moved: river b first, all 6


def test_transport_note_no_collection_is_overlooked() -> None:
    # turning a8-a10 completes mountains B and C and river c at once; the mover takes B and
    # C (11 nuggets) first, which leaves nothing in river c for the opponent
    gold = ["b8", "a11", "b10", "b11", "c10", "c11", "d10", "d11"]
    state = position(game(), gold=gold, throw="3", collected=(0, 0))
    state.apply_string("turn a8-a10")
    assert state.scores() == [11.0, 0.0]
    state.check_invariants()


def test_transport_the_opponent_is_then_on_turn() -> None:
    state = game().new_initial_state()
    state.apply_string("throw 1")
    state.apply_string("turn f6")
    assert state.current_player() == CHANCE
    state.apply_string("throw 1")
    assert state.current_player() == 1


# -- Gameplay: Reducing the Throwing Discs ------------------------------------------


def test_reducing_five_free_in_a_line_give_two_ways_to_turn_four() -> None:
    state = position(game(), hidden=["f1", "f2", "f3", "f4", "f5"])
    assert state.ways() == {5: 1, 4: 2, 3: 3}


def test_reducing_four_free_in_a_line_give_two_ways_to_turn_three() -> None:
    state = position(game(), hidden=["f1", "f2", "f3", "f4"], throw="?")
    assert state.ways() == {5: 0, 4: 1, 3: 2}


def test_reducing_at_most_one_way_to_turn_5_returns_the_0_1_disc() -> None:
    state = position(game(), hidden=["f1", "f2", "f3", "f4", "f5"])
    assert state.discs() == ("0/2", "1/2")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3, 4]


def test_reducing_two_ways_to_turn_5_keep_all_three_discs() -> None:
    state = position(game(), hidden=["f1", "f2", "f3", "f4", "f5", "f6"])
    assert state.ways()[5] == 2 and state.discs() == ("0/1", "0/2", "1/2")


def test_reducing_at_most_one_way_to_turn_4_swaps_0_2_for_0_1() -> None:
    state = position(game(), hidden=["f1", "f2", "f3", "f4"])
    assert state.discs() == ("0/1", "1/2")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3]


def test_reducing_at_most_one_way_to_turn_3_no_more_throws_choose_1_or_2() -> None:
    state = position(game(), hidden=["f1", "f2", "f3"], gold=["d3"], throw="-")
    assert state.discs() == () and state.current_player() == 0
    assert strings(state) == ["turn f1", "turn f2", "turn f3", "turn f1-f2", "turn f2-f3"]


def test_reducing_note_no_reburial_once_throwing_has_stopped() -> None:
    state = position(game(), hidden=["f1", "f2", "f3"], gold=["d3"], throw="-")
    with pytest.raises(IllegalActionError, match="no reburial once the throwing discs"):
        state.apply_string("rebury d3")


def test_reducing_no_throw_stage_turn_one_marker_then_next_player_chooses() -> None:
    state = position(game(), hidden=["f1", "f2", "f3"], gold=["d3"], throw="-")
    state.apply_string("turn f1-f2")
    assert state.current_player() == 1 and strings(state) == ["turn f3"]


# -- Game End and Scoring ------------------------------------------


def test_game_end_all_spots_cleared_most_gold_wins() -> None:
    # f1 is the last marker; it completes mountain G (d3 f1 left) and river h (d3 f1 left)
    state = position(game(), hidden=["f1"], gold=["d3"], throw="-", collected=(44, 45))
    state.apply_string("turn f1")
    assert state.current_player() == TERMINAL
    assert state.scores() == [46.0, 45.0]
    assert state.winners() == (0,) and state.returns() == [1.0, -1.0]


def test_game_end_turn_limit_adjudicated_by_gold_collected() -> None:
    g = game(max_turns=11)
    state = position(g, gold=["a8", "a9"], throw="1", collected=(0, 0), turn=10)
    state.apply_string("turn b8")
    assert state.current_player() == TERMINAL
    assert state.scores() == [3.0, 0.0] and state.winners() == (0,)


def test_game_end_turn_limit_draw_when_gold_is_equal() -> None:
    g = game(max_turns=1)
    state = g.new_initial_state()
    state.apply_string("throw 2")
    state.apply_string("turn f5-f6")
    assert state.is_terminal() and state.winners() == (0, 1) and state.returns() == [0.0, 0.0]


# -- Additional Notes ------------------------------------------


def test_additional_notes_reburial_creating_new_possibilities_brings_discs_back() -> None:
    # f1-f4 face down, f5 gold: one way to turn 4, so discs 0/1 and 1/2 (totals 1..3)
    state = position(game(), hidden=["f1", "f2", "f3", "f4", "g4"], gold=["f5"], throw="3")
    assert state.discs() == ("0/1", "1/2")
    state.apply_string("rebury f5")  # f1..f5: two ways to turn 4 again
    assert state.discs() == ("0/2", "1/2")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3, 4]


def test_unclear_a_throw_always_allows_a_turning_so_pass_is_never_needed() -> None:
    # with the discs chosen by the counts, the highest total always has a legal line
    for hidden in (["f1", "f2", "f3", "f4"], ["f1", "f2", "f3", "f4", "f5"], None):
        state = position(game(), hidden=hidden)
        for total, _ in state.chance_outcomes():
            child = state.clone()
            child.apply_action(total)
            assert PASS not in child.legal_actions()

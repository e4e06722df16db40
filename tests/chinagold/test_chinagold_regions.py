"""The region subset (config ``regions``): the rules on fewer spots, named after the
rulebook sections they touch (docs/rules/chinagold.md, "Unclear rules: decisions" 17).

Mountain L of the default layout is g2 h2 i2 j2 j3; its spots lie in river j (e3 f2 g2 h2
i2: g2 h2 i2 in play), river n (j2 of its 7 spots) and river o (j3 of its 5).
Mountain E is c6 c7 d5 d6 d7: at most one way to turn 3 in a line, so nobody throws.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode import CHANCE, TERMINAL, ConfigError, NotationError
from motherlode.games.chinagold.board import mask_of, parse_spot
from tests.chinagold.helpers import game, position, strings

L_SPOTS = ["g2", "h2", "i2", "j2", "j3"]
AREAS = "ABCDEFGHIJKLMNOPQabcdefghijklmnopq"


def _mask(*names: str) -> int:
    return mask_of([parse_spot(n) for n in names])


# -- Setup ------------------------------------------


def test_setup_regions_a_marker_face_down_on_each_spot_of_the_areas_in_play() -> None:
    g = game(regions="L")
    state = g.new_initial_state()
    assert g.num_nuggets == 5 and state.hidden == _mask(*L_SPOTS) and state.gold == 0
    assert state.serialize() == "6/7/8/9/10/11/1o8/1o7/1o6/1oo4/6 P1 ? 0,0 0"
    # mountains and rivers together, spaces and commas ignored: B and river c (a10 a11 b10 b11)
    both = game(regions="B, c")
    assert both.in_play == _mask("a8", "a9", "b8", "a10", "a11", "b10", "b11")
    assert game(regions="").in_play == game().in_play == (1 << 91) - 1


@pytest.mark.parametrize(
    ("regions", "message"),
    [
        ("Z", "regions: 'Z' is no area; name mountains A..Q and rivers a..q, e.g. 'AB'"),
        ("A1", "regions: '1' is no area"),
        ("LL", "regions: 'L' is named twice"),
    ],
)
def test_setup_regions_bad_names_are_a_config_error(regions: str, message: str) -> None:
    with pytest.raises(ConfigError, match="invalid chinagold config: " + message):
        motherlode.load("chinagold", regions=regions)


# -- Reducing the Throwing Discs ------------------------------------------


def test_reducing_regions_the_discs_are_counted_on_the_spots_in_play() -> None:
    # L: g2 h2 i2 j2 is one way to turn 4, and two ways to turn 3: the 0/1 and 1/2 discs
    state = game(regions="L").new_initial_state()
    assert state.current_player() == CHANCE and state.discs() == ("0/1", "1/2")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3]
    # E: at most one way to turn 3: no throw from the start, turn 1 or 2, no reburial
    free = game(regions="E").new_initial_state()
    assert free.current_player() == 0 and free.discs() == ()
    assert sorted(strings(free))[:3] == ["turn c6", "turn c6-c7", "turn c6-d5"]
    assert all(len(s.split("-")) <= 2 for s in strings(free))


# -- Transporting the Gold Away ------------------------------------------


def test_transport_regions_an_area_partly_in_play_is_complete_when_its_spots_in_play_are() -> None:
    # river j holds g2 h2 i2 in play: P1 (mountains) turns them, P2 (rivers) collects 3
    state = game(regions="L").new_initial_state()
    state.apply_string("throw 3")
    state.apply_string("turn g2-i2")
    assert state.collected == [0, 3] and state.gold == 0
    # j2 j3 left: no way to turn 3, no throw; river o is j3 alone in play: P2 takes it
    assert state.current_player() == 1 and state.discs() == ()
    state.apply_string("turn j3")
    assert state.collected == [0, 4]


def test_transport_regions_the_mover_collects_the_completed_mountain_first() -> None:
    # i2-j2 completes mountain L (P1's), river j and river n (P2's) at once
    g = game(regions="L")
    state = position(g, hidden=["i2", "j2"], gold=["g2", "h2"], throw="-", collected=(0, 1))
    state.apply_string("turn i2-j2")
    assert state.collected == [4, 1] and state.is_terminal()


# -- Game End and Scoring ------------------------------------------


def test_game_end_regions_all_spots_in_play_cleared_most_gold_wins() -> None:
    g = game(regions="L")
    state = position(g, hidden=["i2"], gold=["g2", "h2"], throw="-", collected=(0, 2))
    state.apply_string("turn i2")
    assert state.current_player() == TERMINAL
    assert state.scores() == [3.0, 2.0] and state.winners() == (0,)
    assert state.termination() == "all prospecting spots have been cleared"


# -- Position notation ------------------------------------------


def test_notation_regions_a_marker_out_of_play_or_nuggets_of_the_whole_board_are_refused() -> None:
    g = game(regions="L")
    with pytest.raises(NotationError, match="a marker on f6, which is not in play"):
        position(g, hidden=[*L_SPOTS, "f6"], collected=(0, 0))
    with pytest.raises(NotationError, match="do not make the 5 nuggets"):
        position(g, hidden=L_SPOTS, collected=(40, 46))
    whole = game().new_initial_state().serialize()
    with pytest.raises(NotationError, match="not in play"):
        g.deserialize(whole)


@settings(max_examples=30, deadline=None)
@given(
    regions=st.lists(st.sampled_from(AREAS), min_size=1, max_size=3, unique=True),
    seed=st.integers(0, 10_000),
)
def test_regions_random_games_keep_the_nuggets_and_round_trip(
    regions: list[str], seed: int
) -> None:
    g = game(regions="".join(regions), max_turns=60)
    state = g.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.check_invariants()
        assert g.deserialize(state.serialize()).serialize() == state.serialize()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.collected) + (state.hidden | state.gold).bit_count() == g.num_nuggets
    assert state.hidden & ~g.in_play == 0

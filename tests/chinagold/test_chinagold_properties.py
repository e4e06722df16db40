"""Hypothesis property tests: invariants along arbitrary games."""

from __future__ import annotations

import itertools

from chinagold_helpers import game
from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.games.chinagold.board import ALL_SPOTS, NUM_SPOTS, count_ways
from motherlode.games.chinagold.game import PASS, REBURY_BASE, ChinagoldState, stage_of

CONFIGS = [{}, {"mountains_player": 1, "river_rotation": 4, "edge_probability": 0.3}]
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=400)


def _play(state: ChinagoldState, picks: list[int]) -> list[ChinagoldState]:
    seen = [state.clone()]
    for pick in picks:
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[pick % len(outcomes)])
        else:
            legal = state.legal_actions()
            # the throw always allows a turning: reburial is a choice, pass never needed
            assert PASS not in legal
            assert any(a < REBURY_BASE for a in legal)
            state.apply_action(legal[pick % len(legal)])
        state.check_invariants()
        seen.append(state.clone())
    return seen


@settings(max_examples=25, deadline=None)
@given(config=st.sampled_from(CONFIGS), picks=choices)
def test_nuggets_are_conserved_and_positions_round_trip(config: dict, picks: list[int]) -> None:
    g = game(**config)
    for s in _play(g.new_initial_state(), picks):
        on_board = (s.hidden | s.gold).bit_count()
        assert on_board + sum(s.collected) == NUM_SPOTS
        again = g.deserialize(s.serialize())
        assert again.serialize() == s.serialize()
        assert again.legal_actions() == s.legal_actions()
        assert again.chance_outcomes() == s.chance_outcomes()


@settings(max_examples=25, deadline=None)
@given(picks=choices)
def test_gold_only_leaves_the_board_into_a_players_hands(picks: list[int]) -> None:
    states = _play(game().new_initial_state(), picks)
    for before, after in itertools.pairwise(states):
        assert after.collected[0] >= before.collected[0]
        assert after.collected[1] >= before.collected[1]
        cleared_before = ALL_SPOTS & ~(before.hidden | before.gold)
        cleared_after = ALL_SPOTS & ~(after.hidden | after.gold)
        assert cleared_before & ~cleared_after == 0  # a cleared spot stays cleared


@settings(max_examples=40, deadline=None)
@given(hidden=st.integers(min_value=0, max_value=ALL_SPOTS))
def test_the_discs_follow_the_counts_of_ways(hidden: int) -> None:
    ways = {k: count_ways(hidden, k, stop_at=10**6) for k in (3, 4, 5)}
    stage = stage_of(hidden)
    expected = 3 if ways[5] >= 2 else 2 if ways[4] >= 2 else 1 if ways[3] >= 2 else 0
    assert stage == expected
    # the counts are nested, so the stages come in the rulebook's order
    assert ways[4] >= min(ways[5], 2) and ways[3] >= min(ways[4], 2)


@settings(max_examples=15, deadline=None)
@given(picks=choices)
def test_clones_are_independent(picks: list[int]) -> None:
    state = game().new_initial_state()
    copy = state.clone()
    _play(copy, picks)
    assert state.serialize() == game().new_initial_state().serialize()
    assert state.history() == []

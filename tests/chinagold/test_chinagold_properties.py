"""Hypothesis property tests: invariants along arbitrary games."""

from __future__ import annotations

import itertools
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.core.errors import NotationError
from motherlode.games.chinagold.board import ALL_SPOTS, NUM_SPOTS, ROW_LENGTHS, count_ways
from motherlode.games.chinagold.game import PASS, REBURY_BASE, ChinagoldState, stage_of
from tests.chinagold.helpers import game
from tests.tools.positions import play_on

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


def _mutate(text: str, rng: random.Random) -> str:
    board, who, throw, gold, turn = text.split()
    for _ in range(rng.randint(1, 3)):
        part = rng.randrange(5)
        if part == 0:  # one spot of the board changes state
            rows = [re.sub(r"\d+", lambda m: "1" * int(m.group()), r) for r in board.split("/")]
            flat = list("".join(rows))
            flat[rng.randrange(len(flat))] = rng.choice("oG1")
            out, i = [], 0
            for length in ROW_LENGTHS:
                row = "".join(flat[i : i + length])
                out.append(re.sub(r"1+", lambda m: str(len(m.group())), row))
                i += length
            board = "/".join(out)
        elif part == 1:
            who = rng.choice(["P1", "P2"])
        elif part == 2:
            throw = rng.choice(["?", "-", "1", "2", "3", "4", "5"])
        elif part == 3:
            a, b = (int(x) for x in gold.split(","))
            d = rng.choice([-1, 1])
            gold = f"{max(a + d, 0)},{b}" if rng.random() < 0.5 else f"{a},{max(b - d, 0)}"
        else:
            turn = str(max(int(turn) + rng.choice([-2, -1, 1, 2]), 0))
    return " ".join([board, who, throw, gold, turn])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    config=st.sampled_from([*CONFIGS, {"first_player": 1}]),
    picks=choices,
    mutation=st.integers(0, 10**6),
)
def test_mutated_positions_are_refused_with_a_reason_or_playable(
    config: dict, picks: list[int], mutation: int
) -> None:
    g = game(**config)
    state = _play(g.new_initial_state(), picks)[-1]
    rng = random.Random(mutation)
    text = _mutate(state.serialize(), rng)
    try:
        again = g.deserialize(text)
    except NotationError as err:
        assert str(err).startswith("chinagold: ") and err.position == text
        assert text not in str(err)
        return
    assert g.deserialize(again.serialize()).serialize() == again.serialize()
    play_on(again, rng)  # playable: random play from it raises nothing

"""Narration and summaries (issue 21): the sentences of the important events, every action
kind narrated in random playouts, and a summary for each way the game ends."""

from __future__ import annotations

import random

import pytest

from motherlode.games.chinagold.game import ChinagoldGame, ChinagoldState
from tests.chinagold.helpers import game, position


def said(state: ChinagoldState, move: str) -> str:
    """The sentence for ``move``, then the move is played."""
    text = state.narrate(state.string_to_action(move))
    state.apply_string(move)
    return text


def test_a_throw_reads_as_an_event_with_its_discs() -> None:
    assert said(position(game(), throw="?"), "throw 4") == "P1 throws the discs 0/1 0/2 1/2: 4"


def test_completing_a_mountain_says_the_gold_carried_away() -> None:
    s = position(game(), gold=["j1"], throw="3")
    assert said(s, "turn k1-k3") == "P1 turns k1–k3 and completes mountain P: +4 gold"
    assert s.collected[0] == 4


def test_completing_both_areas_and_the_end_of_the_game() -> None:
    s = position(game(), hidden=["k1", "k2"], gold=["j1", "k3"], throw="-")
    assert said(s, "turn k1-k2") == (
        "P1 turns k1–k2 and completes mountain P: +4 gold, river n for P2 (no gold left);"
        " every spot is cleared: the game is over"
    )
    assert s.summary().lines() == [
        "The game is over: all prospecting spots have been cleared.",
        "P1: 47 (gold from the mountains 47)",  # a position read from notation: no history
        "P2: 44 (gold from the rivers 44)",
        "Winner: P1",
    ]


def test_reburying_names_the_two_areas_of_the_spot() -> None:
    s = position(game(), hidden=["f1", "f2", "f3", "f4", "f5", "f6"], gold=["d3"], throw="1")
    assert said(s, "rebury d3") == (
        "P1 reburies the gold at d3 (mountain G, river h) instead of turning 1"
    )


@pytest.mark.parametrize(
    ("hidden", "move", "sentence"),
    [
        (
            ["f1", "f2", "f3", "f4", "f5", "f6"],
            "turn f6",
            "P1 turns f6 and completes mountain K: +1 gold; at most one way is left to turn 5"
            " in a line: from now on 0/2 1/2",
        ),
        (
            ["f1", "f2", "f3", "f4", "f5"],
            "turn f5",
            "P1 turns f5 and completes river l for P2: +1 gold; at most one way is left to"
            " turn 4 in a line: from now on 0/1 1/2",
        ),
        (
            ["f1", "f2", "f3", "f4"],
            "turn f4",
            "P1 turns f4 and completes mountain I: +1 gold; at most one way is left to turn 3"
            " in a line: no more throwing, turn 1 or 2",
        ),
    ],
)
def test_the_discs_are_reduced(hidden: list[str], move: str, sentence: str) -> None:
    s = position(game(), hidden=hidden, gold=["d3"], throw="1")
    assert said(s, move) == sentence


def test_the_turn_limit_is_a_reason() -> None:
    g = game(max_turns=11)
    s = position(g, gold=["f5", "f6"], throw="2", turn=10)
    assert said(s, "rebury f5").endswith("; the turn limit (11) is reached: the game is over")
    assert s.summary().reason == (
        "the turn limit of 11 turns was reached; the gold collected so far decides"
    )


def _default(state: ChinagoldState, action: int) -> str:
    text = state.action_to_string(action)
    return f"chance: {text}" if state.is_chance_node() else f"P{state.current_player() + 1}: {text}"


@pytest.mark.parametrize("config", ChinagoldGame.conformance_configs())
def test_every_action_narrates_and_the_breakdown_adds_up(config: dict[str, object]) -> None:
    g = ChinagoldGame.from_config(**config)
    kinds: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            a = s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions())
            text = s.narrate(a)
            assert text and text != _default(s, a)
            kinds.add(s.action_to_string(a).split()[0])
            s.apply_action(a)
        summary = s.summary()
        assert summary.reason == s.termination() != ""
        assert summary.winners == s.winners()
        for r in summary.seats:
            assert sum(v for _, v in r.breakdown) == r.score == s.collected[r.seat]
            if s.hidden == 0:  # played from the start: gold area by area
                assert all(what.startswith(("mountain ", "river ")) for what, _ in r.breakdown)
    assert {"throw", "turn", "rebury"} <= kinds

"""Shared checks of hand-written positions (every game's property tests use them)."""

from __future__ import annotations

import random

from motherlode.core.protocol import State


def play_on(state: State, rng: random.Random, steps: int = 200) -> None:
    """Random play from ``state`` for ``steps`` actions or to the end: chance nodes offer
    outcomes summing to 1, every decision has a legal action (no stuck position), and the
    observation and scores can be read after every step."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            assert legal, "a decision with no legal action: a stuck position"
            state.apply_action(legal[rng.randrange(len(legal))])
        state.observation()
        state.scores()

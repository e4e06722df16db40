"""The batched Yukon with the Townsfolk expansion equals the reference move for move.

Every row is replayed on ``motherlode.load("yukon", expansion=True)``: its traced deal, its
decisions, and the chance outcomes the batched engine drew (a Pan's disc, a Teacher's
card) right after them; at every step the row's mask must be the reference's legal
actions, its to_move the reference's current player, its obs the reference's tensor of the
seat to move and, where a game ended, its rewards the reference's ``returns()``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.core.protocol import TERMINAL, State
from motherlode.games.yukon import cards as C
from motherlode.research.batched import BatchStep
from motherlode.research.batched.yukon import BatchedYukon

CELLS = 64
OBS = 64 * 30 + 4 * 44 + 38


def reference_obs(state: State) -> np.ndarray:
    cp = state.current_player()
    tensor: np.ndarray = state.observation_tensor(None if cp == TERMINAL else cp)
    return tensor


class Replay:
    """The reference engine, one state per row, following the batched engine; ``events``
    counts what happened in the games (which abilities and rules the replay went through)."""

    def __init__(self, env: BatchedYukon, first: BatchStep, **config: Any) -> None:
        self.env = env
        self.game = motherlode.load(
            "yukon",
            players=env.players,
            expansion=True,
            first_player=env.first_player,
            **config,
        )
        self.states: list[State] = [self.game.new_initial_state() for _ in range(env.n)]
        self.games_done = 0
        self.events: Counter[str] = Counter()
        self.deal_all()
        self.check(first)

    def deal_all(self) -> None:
        assert self.env.last_chance is not None
        rows, outcomes = self.env.last_chance
        assert rows.tolist() == list(range(self.env.n))
        for row, out in zip(rows.tolist(), outcomes.tolist(), strict=True):
            self.states[row] = self.deal(out)

    def deal(self, outcomes: list[int]) -> State:
        assert len(outcomes) == CELLS
        state = self.game.new_initial_state()
        for k in outcomes:
            assert state.is_chance_node()
            state.apply_action(k)
        return state

    def check(self, step: BatchStep) -> None:
        env = self.env
        assert step.obs.shape == (env.n, OBS) and step.obs.dtype == np.float32
        assert step.mask.shape == (env.n, 477) and step.mask.dtype == bool
        for row, state in enumerate(self.states):
            legal = np.zeros(env.num_actions, dtype=bool)
            if not state.is_terminal():
                legal[state.legal_actions()] = True
            assert (step.mask[row] == legal).all(), (row, np.flatnonzero(step.mask[row] ^ legal))
            assert int(step.to_move[row]) == state.current_player(), row
            np.testing.assert_array_equal(step.obs[row], reference_obs(state), err_msg=str(row))

    def step(self, actions: np.ndarray, step: BatchStep) -> None:
        for row, state in enumerate(self.states):
            if not state.is_terminal():
                self.note(state, int(actions[row]))
        assert self.env.last_chance is not None
        traced = dict(
            zip(self.env.last_chance[0].tolist(), self.env.last_chance[1].tolist(), strict=True)
        )
        ended = []
        for row, state in enumerate(self.states):
            out = [k for k in traced.pop(row, []) if k >= 0]
            if state.is_terminal():
                assert not out, row  # a finished row (no auto-reset) ignores its action
                continue
            state.apply_action(int(actions[row]))
            if state.is_chance_node():  # its draw: a Pan's disc or a Teacher's card
                k = out.pop(0)
                self.events["disc" if k < 36 else "taught"] += 1
                state.apply_action(k)
            assert not state.is_chance_node(), row
            if state.is_terminal():
                ended.append(row)
                np.testing.assert_array_equal(step.rewards[row], state.returns())
                self.events["games"] += 1
                if self.env.auto_reset:
                    self.states[row] = self.deal(out)
                    out = []
            assert not out, row
        assert not traced
        assert np.flatnonzero(step.done).tolist() == ended
        assert not step.rewards[~step.done].any()
        self.games_done += len(ended)
        self.check(step)

    def note(self, state: State, action: int) -> None:
        """Count the rules this decision goes through (the tests ask for each of them)."""
        g = self.game
        cells = g.cells  # type: ignore[attr-defined]
        if action >= 7 * cells:
            self.events[state.action_to_string(action).split()[0]] += 1
            return
        how, cell = divmod(action, cells)
        if how >= 3:
            x, d = divmod(action - 3 * cells, 4)
            cell = g.neighbour[x][d]  # type: ignore[attr-defined]
        self.events[("take", "courier", "innkeeper")[min(how, 2)] if how < 3 else "telegraph"] += 1
        kind = state.grid[cell]  # type: ignore[attr-defined]
        if kind >= C.TOWNSFOLK0:
            self.events[C.TOWNSFOLK_NAMES[kind - C.TOWNSFOLK0]] += 1


def play(env: BatchedYukon, steps: int, seed: int, **config: Any) -> Replay:
    rng = np.random.default_rng(seed)
    step = env.reset()
    replay = Replay(env, step, **config)
    for _ in range(steps):
        actions = env.sample_actions(rng)
        step = env.step(actions)
        replay.step(actions, step)
    return replay


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_random_games_equal_the_reference(players: int, seed: int) -> None:
    env = BatchedYukon(32, players=players, seed=seed, trace=True, expansion=True)
    replay = play(env, 150, seed + 100)
    assert replay.games_done > 32 * 2
    print(replay.events)

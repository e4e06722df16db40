"""BatchedChinagold equals the reference engine move for move.

Every test drives N batched games with random legal moves and keeps N reference states
(``ChinagoldGame``) in step: each takes the row's decision and the throw the row drew
(``env.chance``); at every step, for every row, the mask is the reference's legal actions,
``to_move`` its current player, the observation its ``observation_tensor`` exactly, and a
finished game's rewards its ``returns()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motherlode.core.protocol import TERMINAL, State
from motherlode.games.chinagold import ChinagoldGame
from motherlode.games.chinagold.game import NUM_ACTIONS, PASS
from motherlode.research.batched.base import BatchStep
from motherlode.research.batched.chinagold import (
    NO_THROW,
    BatchedChinagold,
    build_tables,
    throw,
)

CONFIGS: list[dict[str, Any]] = ChinagoldGame.conformance_configs()


class Mirror:
    """N reference games that follow a batched env row by row."""

    def __init__(self, env: BatchedChinagold, first: BatchStep) -> None:
        self.env = env
        self.states: list[State] = [self._dealt(i) for i in range(env.n)]
        self.finished = 0
        self.check(first, np.zeros(env.n, dtype=bool))

    def _dealt(self, row: int) -> State:
        state = self.env.game.new_initial_state()
        state.apply_action(int(self.env.chance[row]))  # checked: a possible throw
        return state

    def step(self, actions: np.ndarray, out: BatchStep) -> None:
        out = as_numpy(out)
        for row, state in enumerate(self.states):
            if state.is_terminal():  # only without auto-reset: the row stays finished
                continue
            state.apply_action(int(actions[row]))
            if state.is_terminal():
                assert out.done[row], f"row {row}: the reference game ended"
                assert out.rewards[row].tolist() == state.returns(), f"row {row}"
                self.finished += 1
                if self.env.auto_reset:
                    self.states[row] = self._dealt(row)
                continue
            assert not out.done[row], f"row {row}: the reference game goes on"
            if state.is_chance_node():
                state.apply_action(int(self.env.chance[row]))
            else:  # no more throwing
                assert self.env.chance[row] == NO_THROW, f"row {row}"
        self.check(out, out.done)

    def check(self, out: BatchStep, done: np.ndarray) -> None:
        out = as_numpy(out)
        n = self.env.n
        assert out.obs.shape == (n, *self.env.obs_shape) and out.obs.dtype == np.float32
        assert out.mask.shape == (n, NUM_ACTIONS) and out.mask.dtype == bool
        assert out.rewards.shape == (n, 2) and out.rewards.dtype == np.float32
        for row, state in enumerate(self.states):
            player = state.current_player()
            assert out.to_move[row] == player, f"row {row}"
            assert np.flatnonzero(out.mask[row]).tolist() == state.legal_actions(), f"row {row}"
            seat = state.player if player == TERMINAL else player  # type: ignore[attr-defined]
            want = state.observation_tensor(seat)
            assert np.array_equal(out.obs[row], want), f"row {row}: {state.serialize()}"
            if not done[row]:
                assert not out.rewards[row].any(), f"row {row}: rewards before the end"


def as_numpy(out: BatchStep) -> BatchStep:
    """The step's arrays as numpy arrays (the JAX backend hands out JAX arrays)."""
    return BatchStep(
        *(np.asarray(x) for x in (out.obs, out.mask, out.to_move, out.rewards, out.done))
    )


def play(env: BatchedChinagold, steps: int, policy_seed: int) -> Mirror:
    rng = np.random.default_rng(policy_seed)
    mirror = Mirror(env, env.reset())
    for _ in range(steps):
        actions = env.sample_actions(rng)
        mirror.step(actions, env.step(actions))
    return mirror


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items())
)
def test_random_games_equal_the_reference_at_every_step(config: dict[str, Any]) -> None:
    env = BatchedChinagold(64, seed=11, **config)
    mirror = play(env, 320, policy_seed=5)
    assert mirror.finished >= 64  # every row went through an auto-reset at least once


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_other_seeds_short_games_many_resets(seed: int) -> None:
    env = BatchedChinagold(32, seed=seed, max_turns=25, first_player=1)
    mirror = play(env, 200, policy_seed=seed + 100)
    assert mirror.finished == 32 * 8  # 25 turns a game: 8 games a row in 200 steps


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    config=st.sampled_from(CONFIGS),
    n=st.integers(1, 9),
    max_turns=st.integers(1, 60),
)
def test_property_any_seed_equals_the_reference(
    seed: int, config: dict[str, Any], n: int, max_turns: int
) -> None:
    env = BatchedChinagold(n, seed=seed, **{**config, "max_turns": max_turns})
    play(env, 70, policy_seed=seed ^ 0x5EED)


def test_the_traced_histories_replay_on_the_reference() -> None:
    config = CONFIGS[1]
    env = BatchedChinagold(16, seed=3, trace=True, **config)
    rng = np.random.default_rng(4)
    env.reset()
    endings: list[list[list[float]]] = [[] for _ in range(16)]
    out = None
    for _ in range(400):
        out = env.step(env.sample_actions(rng))
        for row in np.flatnonzero(out.done):
            endings[row].append(out.rewards[row].tolist())
    assert out is not None
    game = ChinagoldGame.from_config(**config)
    for row in range(16):
        games = env.histories(row)
        assert len(games) == len(endings[row]) + 1
        for history, rewards in zip(games, endings[row], strict=False):
            state = game.new_initial_state()
            state.apply_actions(history)  # every throw and decision checked
            assert state.is_terminal() and state.returns() == rewards
        state = game.new_initial_state()
        state.apply_actions(games[-1])  # the game in progress
        assert np.array_equal(out.obs[row], state.observation_tensor(state.current_player()))
        assert np.flatnonzero(out.mask[row]).tolist() == state.legal_actions()


def test_without_auto_reset_finished_rows_stay_finished() -> None:
    env = BatchedChinagold(8, seed=9, auto_reset=False, trace=True, max_turns=30)
    mirror = play(env, 45, policy_seed=1)  # past every game's 30 turns
    assert mirror.finished == 8
    out = env.step(np.zeros(8, dtype=np.int64))  # ignored: every row is finished
    assert (out.to_move == TERMINAL).all() and not out.mask.any()
    assert not out.done.any() and not out.rewards.any()
    assert (env.chance == NO_THROW).all()
    game = ChinagoldGame.from_config(max_turns=30)
    for row in range(8):
        (history,) = env.histories(row)
        state = game.new_initial_state()
        state.apply_actions(history)
        assert state.is_terminal() and state.turn == 30  # type: ignore[attr-defined]


def test_an_illegal_action_is_refused_naming_its_row_and_changes_nothing() -> None:
    env = BatchedChinagold(4, seed=1, trace=True)
    with pytest.raises(ValueError, match=r"call reset\(\) before the first step"):
        env.step(np.zeros(4, dtype=np.int64))
    mirror = Mirror(env, env.reset())
    throws = env.chance.copy()
    legal = env.sample_actions(np.random.default_rng(0))
    bad = legal.copy()
    bad[2] = PASS  # never legal with a throw of 1..5 on a full board
    with pytest.raises(ValueError, match=r"row 2: action 944 is not legal there"):
        env.step(bad)
    bad[2] = NUM_ACTIONS
    with pytest.raises(ValueError, match=r"row 2: action 945 is not an action id"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"actions must be 4 integer ids"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions must be 4 integer ids"):
        env.step(np.zeros(4))
    mirror.step(legal, env.step(legal))  # the refusals left every game as it was
    for row in range(4):  # and the trace holds only what was played
        assert env.histories(row) == [[throws[row], legal[row], env.chance[row]]]


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match=r"backend 'torch' is not available; 'numpy' or 'jax'"):
        BatchedChinagold(2, backend="torch")
    with pytest.raises(ValueError, match=r"at least 1, got 0"):
        BatchedChinagold(0)
    with pytest.raises(ValueError, match=r"trace=True"):
        BatchedChinagold(1).histories(0)
    with pytest.raises(ValueError, match=r"regions='L' is not supported; the batched engine"):
        BatchedChinagold(2, regions="L")


def test_the_throw_follows_the_reference_probabilities() -> None:
    """Uniforms inside each total's interval of the cumulative probabilities throw it."""
    game = ChinagoldGame.from_config(edge_probability=0.2)
    t = build_tables(game)
    env = BatchedChinagold(1, edge_probability=0.2)
    for stage in (3, 2, 1):
        dist = game.throws[stage]
        cum = np.cumsum([p for _, p in dist])
        lows = np.concatenate([[0.0], cum[:-1]])
        u = np.concatenate([(lows + cum) / 2, [0.0, np.nextafter(1.0, 0.0)]])
        n = len(u)
        g = env.games._replace(
            stage=np.full(n, stage), over=np.zeros(n, dtype=bool), roll=np.zeros(n, int)
        )
        rolls = throw(np, t, g, u).roll.tolist()
        assert rolls == [total for total, _ in dist] + [1, dist[-1][0]]
    g = env.games._replace(stage=np.zeros(1, int), over=np.zeros(1, dtype=bool))
    assert throw(np, t, g, np.array([0.5])).roll.tolist() == [0]  # no more throwing


def test_sample_actions_draws_every_legal_id_and_only_those() -> None:
    env = BatchedChinagold(3, seed=5)
    out = env.reset()
    rng = np.random.default_rng(1)
    seen = np.zeros_like(out.mask)
    for _ in range(3000):
        acts = env.sample_actions(rng)
        assert out.mask[np.arange(3), acts].all()
        seen[np.arange(3), acts] = True
    assert np.array_equal(seen, out.mask)


def test_the_same_seed_gives_the_same_games() -> None:
    a, b = BatchedChinagold(5, seed=42), BatchedChinagold(5, seed=42)
    a.reset(), b.reset()
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    for _ in range(50):
        sa = a.step(a.sample_actions(rng_a))
        sb = b.step(b.sample_actions(rng_b))
        assert np.array_equal(sa.obs, sb.obs) and np.array_equal(a.chance, b.chance)


def test_the_jax_backend_equals_the_reference_at_every_step() -> None:
    pytest.importorskip("jax")
    env = BatchedChinagold(8, seed=7, backend="jax", **CONFIGS[1])
    play(env, 120, policy_seed=8)
    env = BatchedChinagold(8, seed=6, backend="jax", **CONFIGS[2])  # 40 turns a game at most
    assert play(env, 150, policy_seed=9).finished >= 3 * 8
    env = BatchedChinagold(8, seed=1, backend="jax", auto_reset=False, trace=True, max_turns=20)
    assert play(env, 30, policy_seed=2).finished == 8


def test_the_jax_backend_refuses_without_jax() -> None:
    try:
        import jax  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match=r"backend 'jax' needs jax"):
            BatchedChinagold(2, backend="jax")
    else:
        pytest.skip("jax is installed here")


def test_without_observations_the_masks_and_turns_are_the_same_and_obs_is_empty() -> None:
    with_obs = BatchedChinagold(6, seed=3)
    without = BatchedChinagold(6, seed=3, observations=False)
    a, b = with_obs.reset(), without.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        assert b.obs.shape == (6, 0)
        assert (a.mask == b.mask).all() and (a.to_move == b.to_move).all()
        assert (a.rewards == b.rewards).all() and (a.done == b.done).all()
        actions = with_obs.sample_actions(rng)
        a, b = with_obs.step(actions), without.step(actions)

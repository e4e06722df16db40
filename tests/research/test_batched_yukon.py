"""The batched Yukon engine equals the reference engine move for move (issue 30).

Every row is replayed on ``motherlode.load("yukon")``: its traced deal, then its decisions;
at every step the row's mask must be the reference's legal actions, its to_move the
reference's current player, its obs the reference's tensor of the seat to move (observer
first, as the engine's own) and, where a game ended, its rewards the ``returns()``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import motherlode
from motherlode.core.protocol import TERMINAL, State
from motherlode.research.batched import BatchStep
from motherlode.research.batched.yukon import OBS_SIZE, BatchedYukon


def reference_obs(state: State, players: int) -> np.ndarray:
    cp = state.current_player()
    seat = None if cp == TERMINAL else cp
    tensor: np.ndarray = state.observation_tensor(seat)
    assert tensor.shape == (OBS_SIZE,)
    return tensor


def deal(game: motherlode.Game, outcomes: np.ndarray) -> State:
    state = game.new_initial_state()
    for k in outcomes.tolist():
        assert state.is_chance_node()
        state.apply_action(k)
    return state


class Replay:
    """The reference engine, one state per row, following the batched engine."""

    def __init__(self, env: BatchedYukon, first: BatchStep) -> None:
        self.env = env
        self.game = motherlode.load(
            "yukon", players=env.players, expansion=False, first_player=env.first_player
        )
        self.states: list[State] = [self.game.new_initial_state() for _ in range(env.n)]
        self.games_done = 0
        self.redeal()
        self.check(first)

    def redeal(self) -> None:
        assert self.env.last_chance is not None
        rows, outcomes = self.env.last_chance
        for row, out in zip(rows.tolist(), outcomes, strict=True):
            self.states[row] = deal(self.game, out)

    def check(self, step: BatchStep) -> None:
        env = self.env
        step = host(step)
        assert step.obs.shape == (env.n, OBS_SIZE) and step.obs.dtype == np.float32
        assert step.mask.shape == (env.n, env.num_actions) and step.mask.dtype == bool
        for row, state in enumerate(self.states):
            legal = np.zeros(env.num_actions, dtype=bool)
            if not state.is_terminal():
                legal[state.legal_actions()] = True
            assert (step.mask[row] == legal).all(), row
            assert int(step.to_move[row]) == state.current_player(), row
            np.testing.assert_array_equal(step.obs[row], reference_obs(state, env.players))

    def step(self, actions: np.ndarray, step: BatchStep) -> None:
        step = host(step)
        ended = []
        for row, state in enumerate(self.states):
            if state.is_terminal():
                continue
            state.apply_action(int(actions[row]))
            if state.is_terminal():
                ended.append(row)
                np.testing.assert_array_equal(step.rewards[row], state.returns())
        assert step.done.tolist() == [r in ended for r in range(self.env.n)]
        if self.env.backend == "numpy":  # the points of the games that ended
            assert self.env.last_scores is not None
            rows, points = self.env.last_scores
            assert sorted(rows.tolist()) == ended
            for row, pts in zip(rows.tolist(), points.tolist(), strict=True):
                assert pts == self.states[row].scores(), row
        assert not step.rewards[~step.done].any()
        self.games_done += len(ended)
        if self.env.auto_reset:
            assert self.env.last_chance is not None
            assert sorted(self.env.last_chance[0].tolist()) == ended
            self.redeal()
        self.check(step)


def host(step: BatchStep) -> BatchStep:
    """The step's arrays as numpy arrays (the JAX backend hands out jax arrays)."""
    return BatchStep(*(np.asarray(getattr(step, f)) for f in BatchStep.__dataclass_fields__))


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (0 where none is legal)."""
    return np.argmax(rng.random(mask.shape) * np.asarray(mask), axis=1)


def has_jax() -> bool:
    try:
        import jax  # noqa: F401
    except ImportError:
        return False
    return True


BACKENDS = [
    "numpy",
    pytest.param("jax", marks=pytest.mark.skipif(not has_jax(), reason="jax is not installed")),
]


def play(env: BatchedYukon, steps: int, seed: int) -> Replay:
    rng = np.random.default_rng(seed)
    first = env.reset()
    replay = Replay(env, first)
    for _ in range(steps):
        step_ = env.step(actions := random_actions(first.mask, rng))
        replay.step(actions, step_)
        first = step_
    return replay


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 7), (3, 1), (3, 8), (4, 2), (4, 9)])
def test_random_games_equal_the_reference(players: int, seed: int, backend: Any) -> None:
    env = BatchedYukon(64, players=players, seed=seed, trace=True, backend=backend)
    replay = play(env, 200, seed + 100)
    assert replay.games_done > 64 * 4  # about 31 takes a game: every row restarted often


def test_first_player_and_copies() -> None:
    env = BatchedYukon(16, players=3, seed=3, trace=True, first_player=2, copy=True)
    replay = play(env, 80, 5)
    assert replay.games_done > 16
    first = env.reset()
    assert first.to_move.tolist() == [2] * 16
    kept = first.obs.copy()
    env.step(random_actions(first.mask, np.random.default_rng(0)))
    np.testing.assert_array_equal(first.obs, kept)  # copy=True: the old arrays stay


def test_views_are_read_only_and_updated_in_place() -> None:
    env = BatchedYukon(4, seed=0)
    first = env.reset()
    with pytest.raises(ValueError, match="read-only"):
        first.obs[0, 0] = 5.0
    before = first.obs.copy()
    env.step(random_actions(first.mask, np.random.default_rng(0)))
    assert (first.obs != before).any()  # the same buffer, now the next position


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_observations_the_same_games(backend: Any) -> None:
    with_obs = BatchedYukon(16, players=3, seed=6, trace=True, backend=backend)
    without = BatchedYukon(16, players=3, seed=6, trace=True, backend=backend, observations=False)
    rng = np.random.default_rng(2)
    a, b = host(with_obs.reset()), host(without.reset())
    assert without.obs_shape == (0,) and b.obs.shape == (16, 0)
    for _ in range(70):
        actions = random_actions(a.mask, rng)
        a, b = host(with_obs.step(actions)), host(without.step(actions))
        for field in ("mask", "to_move", "rewards", "done"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_auto_reset_finished_rows_stay_finished(backend: Any) -> None:
    env = BatchedYukon(8, players=2, seed=4, trace=True, auto_reset=False, backend=backend)
    replay = play(env, 60, 4)  # 60 > 48 takes: every game has ended
    assert replay.games_done == 8
    assert all(s.is_terminal() for s in replay.states)
    last = host(env.step(np.zeros(8, dtype=int)))  # ignored: nothing to play
    assert last.to_move.tolist() == [TERMINAL] * 8
    assert not last.mask.any() and not last.done.any() and not last.rewards.any()
    for row, state in enumerate(replay.states):  # the spectator's view of the end
        np.testing.assert_array_equal(last.obs[row], reference_obs(state, 2))


def test_four_players_score_as_pairs() -> None:
    env = BatchedYukon(32, players=4, seed=11, trace=True)
    rng = np.random.default_rng(1)
    step = env.reset()
    finals = []
    for _ in range(120):
        step = env.step(random_actions(step.mask, rng))
        finals.append(step.rewards[step.done])
    rewards = np.concatenate(finals)
    assert len(rewards) > 32
    # partners share the result: seats 1+3 and 2+4
    np.testing.assert_array_equal(rewards[:, 0], rewards[:, 2])
    np.testing.assert_array_equal(rewards[:, 1], rewards[:, 3])
    assert set(map(tuple, rewards.tolist())) <= {(1, -1, 1, -1), (-1, 1, -1, 1), (0, 0, 0, 0)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_is_refused_and_changes_nothing(backend: Any) -> None:
    env = BatchedYukon(3, seed=2, backend=backend)
    first = host(env.reset())
    actions = first.mask.argmax(axis=1)
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(~first.mask[1, :49])[0])  # not in the Prospector's lines
    with pytest.raises(ValueError, match=r"row 1: action \d+ is not a card in the Prospector"):
        env.step(bad)
    with pytest.raises(ValueError, match="row 0: action 400 is not"):
        env.step(np.array([400, 0, 0]))
    with pytest.raises(ValueError, match="one action per game"):
        env.step(actions[:2])
    after = host(env.step(actions))
    same = BatchedYukon(3, seed=2, backend=backend)  # never refused anything
    same.reset()
    expected = host(same.step(actions))
    assert after.to_move.tolist() == [1, 1, 1]
    np.testing.assert_array_equal(after.obs, expected.obs)
    np.testing.assert_array_equal(after.mask, expected.mask)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "2, 3 or 4 players"),
        ({"first_player": 2}, "first_player is a seat 0..1"),
        ({"backend": "torch"}, "backend is 'numpy' or 'jax'"),
    ],
)
def test_bad_configs_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BatchedYukon(2, **kwargs)


@pytest.mark.skipif(has_jax(), reason="jax is installed")
def test_the_jax_backend_without_jax_says_how_to_install_it() -> None:
    with pytest.raises(ImportError, match=r'needs JAX: pip install -e "\.\[jax\]"'):
        BatchedYukon(2, backend="jax")


def test_the_same_seed_deals_the_same_games() -> None:
    a, b = BatchedYukon(8, seed=5, trace=True), BatchedYukon(8, seed=5, trace=True)
    a.reset()
    b.reset()
    assert a.last_chance is not None and b.last_chance is not None
    np.testing.assert_array_equal(a.last_chance[1], b.last_chance[1])
    c = BatchedYukon(8, seed=6, trace=True)
    c.reset()
    assert c.last_chance is not None
    assert (c.last_chance[1] != a.last_chance[1]).any()


def test_the_deal_draws_every_card_once() -> None:
    env = BatchedYukon(200, seed=0, trace=True)
    env.reset()
    assert env.last_chance is not None
    rows, deals = env.last_chance
    assert rows.tolist() == list(range(200))
    counts = np.stack([np.bincount(d, minlength=17) for d in deals])
    assert (counts[:, :16] == 3).all() and (counts[:, 16] == 1).all()
    # the Sheriff (where the Prospector starts) lies anywhere: on many different cells
    where = np.bincount(np.argmax(deals == 16, axis=1), minlength=49)
    assert (where > 0).sum() >= 40


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_any_seed_equals_the_reference(seed: int, players: int, backend: Any) -> None:
    env = BatchedYukon(6, players=players, seed=seed, trace=True, backend=backend)
    replay = play(env, 45, seed)
    assert replay.games_done >= 1


def test_the_docs_example_runs() -> None:
    """docs/research.md's "Batched engines" example, as written (its asserts are the checks;
    tests/research/test_docs.py runs it too, with the other examples, where pyspiel is)."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "research.md"
    section = doc.read_text().split("## Batched engines", 1)[1]
    block = re.findall(r"<!-- tested -->\n```python\n(.*?)```", section, flags=re.S)[0]
    exec(compile(block, str(doc), "exec"), {"__name__": "research_md"})


@pytest.mark.parametrize("backend", BACKENDS)
def test_sample_actions_draws_every_legal_take_and_only_those(backend: Any) -> None:
    """The engine's random player: each legal id of every row, at every step of some games,
    equally often (within 5 sigma), and never another id."""
    env = BatchedYukon(8, players=3, seed=4, backend=backend)
    step = host(env.reset())
    rng = np.random.default_rng(3)
    for _ in range(40):
        mask = step.mask
        counts = np.zeros(mask.shape, dtype=np.int64)
        draws = 600
        for _ in range(draws):
            acts = env.sample_actions(rng)
            assert mask[np.arange(8), acts].all()
            counts[np.arange(8), acts] += 1
        legal = mask.sum(axis=1, keepdims=True)
        expected = draws / legal
        assert ((counts > 0) == mask).all()
        assert (
            np.abs(counts - expected)[mask]
            < 5 * np.sqrt(expected.repeat(mask.shape[1], axis=1)[mask])
        ).all()
        step = host(env.step(env.sample_actions(rng)))


def test_sample_actions_of_finished_rows_are_zero_without_auto_reset() -> None:
    env = BatchedYukon(4, seed=1, auto_reset=False)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(50):  # every game of the base 7x7 grid ends within 48 takes
        env.step(env.sample_actions(rng))
    assert env.sample_actions(rng).tolist() == [0, 0, 0, 0]

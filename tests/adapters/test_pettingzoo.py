"""The PettingZoo adapter, checked by PettingZoo's own test suites on every game and config."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.parallel_test import parallel_api_test

import motherlode
from motherlode.adapters import pettingzoo as mpz
from motherlode.core.errors import IllegalActionError
from tests.adapters.cases import CASES, FIRST_CASES

# PettingZoo's checks warn that dict observations are not arrays; its own classic games
# (chess, go, ...) get the same notes for the same {observation, action_mask} layout.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CYCLES = 400  # enough for api_test to play whole games (terminations, dead steps, resets)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_api_test(name: str, config: dict[str, Any]) -> None:
    api_test(mpz.env(name, **config), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_seed_test(name: str, config: dict[str, Any]) -> None:
    seed_test(lambda: mpz.env(name, **config), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "config"), CASES)
def test_parallel_api_test(name: str, config: dict[str, Any]) -> None:
    parallel_api_test(mpz.parallel_env(name, **config), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_parallel_env_is_deterministic_given_the_seed(name: str, config: dict[str, Any]) -> None:
    # PettingZoo's parallel_seed_test samples actions without the action mask, which no
    # masked game survives; this is the same check with masked sampling.
    def run() -> list[Any]:
        env = mpz.parallel_env(name, **config)
        obs, _ = env.reset(seed=42)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(42 + i)
        trace: list[Any] = [obs]
        while env.agents:
            actions = {
                a: env.action_space(a).sample(mask=obs[a]["action_mask"]) for a in env.agents
            }
            obs, rewards, terms, truncs, _ = env.step(actions)
            trace.append((obs, rewards, terms, truncs))
        return trace

    first, second = run(), run()
    assert len(first) == len(second) and data_equivalence(first, second)


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_a_whole_game_gives_the_returns_as_rewards(name: str, config: dict[str, Any]) -> None:
    env = mpz.env(name, **config)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final: list[float] | None = None
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        assert not truncated
        if terminated:
            final = info["scores"]
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert (
            mask.sum() > 0
            and obs["observation"].shape == env.observation_space(agent)["observation"].shape
        )
        env.step(int(np.flatnonzero(mask)[0]))
    inner = env.unwrapped.position
    assert inner.is_terminal() and final == inner.scores()
    assert [totals[a] for a in env.possible_agents] == inner.returns()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_chance_comes_from_the_seed(name: str, config: dict[str, Any]) -> None:
    a, b = mpz.raw_env(name, **config), mpz.raw_env(name, **config)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.position.serialize() == b.position.serialize()
    assert a.position.serialize() == motherlode.deal(a.game, seed=11).serialize()
    assert not a.position.is_chance_node()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_renders(name: str, config: dict[str, Any]) -> None:
    text = mpz.env(name, render_mode="ansi", **config)
    text.reset(seed=0)
    board = text.render()
    assert isinstance(board, str) and board == text.unwrapped.position.render_text(None)
    rgb = mpz.env(name, render_mode="rgb_array", render_scale=0.3, **config)
    rgb.reset(seed=0)
    img = rgb.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3 and img.std() > 0
    with pytest.raises(ValueError, match="render_mode"):
        mpz.env(name, render_mode="human", **config)


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_illegal_actions_raise_and_change_nothing(name: str, config: dict[str, Any]) -> None:
    env = mpz.raw_env(name, **config)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.position.serialize()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.position.serialize() == before
    with pytest.raises(IllegalActionError):
        env.step(None)


def test_state_and_spaces() -> None:
    name, config = FIRST_CASES[0].values
    env = mpz.raw_env(name, **config)
    env.reset(seed=0)
    assert env.state_space.contains(env.state())
    game = env.game
    assert env.action_space("player_0").n == game.num_distinct_actions
    space = env.observation_space("player_0")
    assert space["observation"].shape == game.observation_tensor_shape()
    assert space["action_mask"].shape == (game.num_distinct_actions,)
    with pytest.raises(motherlode.ConfigError):
        mpz.raw_env(game, players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert env.render() is None  # no render_mode


@pytest.mark.parametrize(("name", "config"), CASES)
def test_every_observation_lies_in_the_box(name: str, config: dict[str, Any]) -> None:
    """The Box is the game's declared bounds (not +-1e9): random games stay inside it."""
    env = mpz.raw_env(name, **config)
    box = env.observation_space(env.possible_agents[0])["observation"]
    assert float(box.high.max()) < mpz.OBS_BOUND and float(box.low.min()) > -mpz.OBS_BOUND
    assert env.state_space == box
    rng = np.random.default_rng(0)
    env.reset(seed=5)
    for _agent in env.agent_iter(max_iter=300):
        obs, _, terminated, truncated, _ = env.last()
        for agent in env.agents:
            assert box.contains(env.observe(agent)["observation"]), agent
        assert box.contains(env.state())
        mask = obs["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))


def test_observations_are_built_once_per_position_and_read_only() -> None:
    env = mpz.raw_env("yukon")
    env.reset(seed=1)
    agent = env.agent_selection
    first, again = env.observe(agent), env.observe(agent)
    assert first["observation"] is again["observation"]
    assert first["action_mask"] is again["action_mask"]
    assert not first["observation"].flags.writeable and not first["action_mask"].flags.writeable
    legal = env.position.legal_actions()
    assert np.flatnonzero(first["action_mask"]).tolist() == sorted(legal)
    env.step(legal[0])
    assert env.observe(agent)["observation"] is not first["observation"]

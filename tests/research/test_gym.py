"""The single-agent Gymnasium env: Gymnasium's checker, opponents, seeds, dense reward."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import motherlode  # noqa: E402
from motherlode.core.errors import ConfigError, IllegalActionError  # noqa: E402
from motherlode.research.gym import MotherlodeSingleAgentEnv  # noqa: E402
from tests.adapters.cases import FIRST_CASES  # noqa: E402


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_gymnasiums_checker_passes(name: str, config: dict[str, Any]) -> None:
    env = MotherlodeSingleAgentEnv(name, opponents=["random"], dense=True, **config)
    check_env(env, skip_render_check=True)


def _play(env: MotherlodeSingleAgentEnv, seed: int) -> tuple[list[int], list[float], Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, done = [], False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        rewards.append(reward)
    return env.position.history(), rewards, info


def test_a_seed_replays_the_whole_episode_opponents_included() -> None:
    env = MotherlodeSingleAgentEnv("yukon", opponents=["greedy"])
    first, second = _play(env, 5), _play(env, 5)
    assert first[0] == second[0] and first[1] == second[1]
    assert _play(env, 6)[0] != first[0]


def test_the_terminal_reward_is_the_return_and_the_dense_one_adds_the_points() -> None:
    sparse = MotherlodeSingleAgentEnv("yukon", opponents=["greedy"], seat=1)
    dense = MotherlodeSingleAgentEnv("yukon", opponents=["greedy"], seat=1, dense=True)
    history, rewards, _ = _play(sparse, 3)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == sparse.position.returns()[1]
    dense_history, dense_rewards, dense_info = _play(dense, 3)
    assert dense_history == history  # the same game: only the rewards differ
    start = motherlode.load("yukon").new_initial_state()
    points = dense_info["scores"][1] - (start.scores()[1])
    assert sum(dense_rewards) == pytest.approx(points + dense.position.returns()[1])


def test_every_seat_gets_played_and_opponents_fill_the_others() -> None:
    env = MotherlodeSingleAgentEnv("yukon", players=3, opponents=["greedy", "random"])
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    assert len(env.opponents) == 2 and env.seat not in env.opponents


def test_an_illegal_action_loses_or_raises_and_changes_nothing() -> None:
    env = MotherlodeSingleAgentEnv("yukon", seat=0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.position.serialize()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    assert env.position.serialize() == before
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)
    strict = MotherlodeSingleAgentEnv("yukon", seat=0, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_bad_settings_say_what_is_wrong() -> None:
    with pytest.raises(ConfigError, match="needs 2 opponent specs"):
        MotherlodeSingleAgentEnv("yukon", players=3, opponents=["random"] * 3)
    with pytest.raises(ConfigError, match=r"seat must be 0\.\.1"):
        MotherlodeSingleAgentEnv("yukon", seat=2)
    with pytest.raises(motherlode.AgentSpecError, match="unknown agent 'nobody'"):
        MotherlodeSingleAgentEnv("yukon", opponents=["nobody"])

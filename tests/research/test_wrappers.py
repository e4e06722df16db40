"""Agents across ecosystems: ours as a pyspiel.Bot, OpenSpiel's bots/policies and a
PettingZoo-style policy as ours; each plays exactly the moves its wrapped player picks."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import motherlode  # noqa: E402
from motherlode.adapters import openspiel as mos  # noqa: E402
from motherlode.arena.play import play_game  # noqa: E402
from motherlode.core.agent import Agent, RandomAgent  # noqa: E402
from motherlode.core.protocol import State  # noqa: E402
from motherlode.research.wrappers import AgentBot, OpenSpielAgent, PolicyAgent  # noqa: E402


class Lowest(Agent):
    def act(self, state: State) -> int:
        return min(state.legal_actions())


def test_our_agents_play_in_openspiels_evaluate_bots() -> None:
    game = mos.load_game("yukon")
    bots = [AgentBot(game, Lowest()), AgentBot(game, RandomAgent(seed=2))]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0]


def test_an_openspiel_bot_plays_as_our_agent_move_for_move() -> None:
    game = motherlode.load("yukon")
    seen: list[list[int]] = []

    class Recording(uniform_random.UniformRandomBot):  # type: ignore[misc]
        def step(self, state: object) -> int:
            seen.append(state.legal_actions())  # type: ignore[attr-defined]
            return min(state.legal_actions())  # type: ignore[attr-defined]

    bot = Recording(0, np.random.RandomState(0))
    wrapped = OpenSpielAgent(game, bot)
    played = play_game(game, [wrapped, Lowest()], seed=3)
    seat0: list[list[int]] = []

    def note(state: State, action: int) -> None:
        if not state.is_chance_node() and state.current_player() == 0:
            seat0.append(state.legal_actions())

    reference = play_game(game, [Lowest(), Lowest()], seed=3, on_action=note)
    assert played.state.history() == reference.state.history()
    assert seen == seat0  # the bot saw every position of its seat, with its legal actions


def test_an_openspiel_policy_plays_its_most_probable_action() -> None:
    game = motherlode.load("yukon")
    uniform = os_policy.UniformRandomPolicy(mos.load_game("yukon"))
    agent = OpenSpielAgent(game, uniform)  # ties: the lowest id
    played = play_game(game, [agent, Lowest()], seed=1)
    assert played.state.history() == play_game(game, [Lowest(), Lowest()], seed=1).state.history()


def test_a_pettingzoo_style_policy_sees_the_mask_of_the_seat_to_move() -> None:
    game = motherlode.load("yukon")
    rng = random.Random(0)
    masks: list[int] = []

    def policy(obs: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        masks.append(len(legal))
        return int(rng.choice(list(legal)))

    played = play_game(game, [PolicyAgent(policy), RandomAgent(seed=1)], seed=2, checked=True)
    assert played.state.is_terminal()
    assert len(masks) > 0 and min(masks) >= 1

"""Agents across ecosystems: ours as OpenSpiel bots, theirs as ours.

* :class:`AgentBot`: a motherlode :class:`~motherlode.core.agent.Agent` as a
  ``pyspiel.Bot``, for OpenSpiel's evaluation tools (``evaluate_bots``) on our games;
* :class:`OpenSpielAgent`: a ``pyspiel.Bot`` (``step(state)``) or an OpenSpiel
  ``policy.Policy`` (``action_probabilities(state)``) as a motherlode agent, for the arena;
* :class:`PolicyAgent`: a PettingZoo-style policy, a callable from the observation dict
  (``{"observation": tensor, "action_mask": mask}``, exactly as our PettingZoo env gives
  it) to an action id, as a motherlode agent.

>>> import motherlode
>>> from motherlode.adapters import openspiel as mos
>>> from motherlode.core.agent import RandomAgent
>>> game = mos.load_game("yukon")
>>> bot = AgentBot(game, RandomAgent(seed=1))
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # pyspiel ships no type stubs

from motherlode.adapters.openspiel import MotherlodeGame, MotherlodeState, load_game
from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State

__all__ = ["AgentBot", "OpenSpielAgent", "PolicyAgent", "observation_dict"]


class AgentBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel.Bot is untyped
    """A motherlode agent playing through OpenSpiel (``bot.step(state) -> action``)."""

    def __init__(self, game: MotherlodeGame, agent: Agent) -> None:
        super().__init__()
        self.game = game
        self.agent = agent

    def step(self, state: MotherlodeState) -> int:
        return int(self.agent.act(state.motherlode_state))

    def restart_at(self, state: MotherlodeState) -> None:
        self.agent.reset()

    def inform_action(self, state: MotherlodeState, player: int, action: int) -> None:
        return None


def _openspiel_state(game: MotherlodeGame, state: State) -> MotherlodeState:
    # the OpenSpiel history starts here: bots that only look at the position are exact
    return MotherlodeState(game, state.clone())


class OpenSpielAgent(Agent):
    """An OpenSpiel bot or policy as a motherlode agent (for ``arena``, ``simulate``).

    ``player`` is a ``pyspiel.Bot`` (its ``step``) or an OpenSpiel ``Policy`` (its
    ``action_probabilities``: the most probable action, or one sampled with ``sample``).
    The OpenSpiel game is the adapter's game of the same config (made from ``game``).
    """

    def __init__(self, game: Game, player: Any, *, seed: int = 0, sample: bool = False) -> None:
        super().__init__(seed)
        self.os_game = load_game(game.name, **game.config.model_dump())
        self.player = player
        self.sample = sample
        self.name = f"openspiel:{type(player).__name__}"

    def act(self, state: State) -> Action:
        os_state = _openspiel_state(self.os_game, state)
        if callable(getattr(self.player, "step", None)):
            return int(self.player.step(os_state))
        probs: dict[int, float] = self.player.action_probabilities(os_state)
        actions = sorted(probs)
        if self.sample:
            return int(self.rng.choices(actions, [probs[a] for a in actions])[0])
        return int(max(actions, key=lambda a: (probs[a], -a)))

    def reset(self) -> None:
        super().reset()
        if callable(getattr(self.player, "restart", None)):
            self.player.restart()


def observation_dict(state: State, seat: int | None = None) -> dict[str, np.ndarray[Any, Any]]:
    """The PettingZoo observation of ``seat`` (default: the seat to move) in ``state``.

    >>> import motherlode
    >>> obs = observation_dict(motherlode.deal(motherlode.load("yukon"), seed=1))
    >>> int(obs["action_mask"].sum()) > 0, obs["observation"].dtype
    (True, dtype('float32'))
    """
    seat = state.current_player() if seat is None else seat
    mask = np.zeros(state.game.num_distinct_actions, dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_actions()] = 1
    tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
    return {"observation": tensor, "action_mask": mask}


Policy = Callable[[dict[str, np.ndarray[Any, Any]]], Any]
"""A PettingZoo-style policy: the observation dict to an action id."""


class PolicyAgent(Agent):
    """A PettingZoo-style policy as a motherlode agent.

    >>> import motherlode
    >>> state = motherlode.deal(motherlode.load("yukon"), seed=1)
    >>> first_legal = lambda obs: int(obs["action_mask"].argmax())
    >>> PolicyAgent(first_legal).act(state) == min(state.legal_actions())
    True
    """

    def __init__(self, policy: Policy, *, seed: int = 0, name: str = "policy") -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name

    def act(self, state: State) -> Action:
        return int(self.policy(observation_dict(state)))

"""The agent interface: ``agent.act(state) -> action`` for the seat to move.

Agents are deterministic given their seed. They never sample chance: whoever drives the
game (the arena, the CLI, the server) does.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from motherlode.core.protocol import Action, State


class Agent(ABC):
    """Chooses actions for whichever seat is to move when :meth:`act` is called."""

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, state: State) -> Action:
        """A legal action for ``state.current_player()`` (a decision node)."""

    def reset(self) -> None:
        """Forget everything learnt in a game (called between games)."""
        self.rng = random.Random(self.seed)


class RandomAgent(Agent):
    """Uniformly random among the legal actions.

    >>> import motherlode
    >>> state = motherlode.deal(motherlode.load("yukon"), seed=1)
    >>> RandomAgent(seed=0).act(state) in state.legal_actions()
    True
    """

    name = "random"

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]

"""motherlode: rules-exact engines and tools for five gold-rush board games.

>>> import motherlode
>>> "yukon" in motherlode.games()
True
>>> import motherlode.games.yukon  # importing a game package keeps games() callable
>>> motherlode.games() == sorted(motherlode.games())
True
>>> game = motherlode.load("yukon", players=3)
>>> state = motherlode.deal(game, seed=7)
>>> state.current_player()
0
>>> motherlode.load("yukon", players=9)
Traceback (most recent call last):
...
motherlode.core.errors.ConfigError: invalid yukon config: players must be 2..4 (got 9)
"""

from __future__ import annotations

import random
from typing import Any

from motherlode.core.errors import (
    AgentSpecError,
    ConfigError,
    IllegalActionError,
    MotherlodeError,
    NotationError,
    RecordError,
)
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, Outcome, Player, State

# Import the ``motherlode.games`` subpackage *before* defining the ``games()`` function:
# Python sets a subpackage as an attribute of its parent when it is first imported, which
# would otherwise replace the function the first time a game is loaded.
from motherlode.games import game_class as _game_class
from motherlode.games import registry as _registry

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "AgentSpecError",
    "ConfigError",
    "Game",
    "IllegalActionError",
    "MotherlodeError",
    "NotationError",
    "Outcome",
    "Player",
    "RecordError",
    "State",
    "__version__",
    "deal",
    "games",
    "load",
]


def games() -> list[str]:
    """The names of the registered games, sorted."""
    return list(_registry())


def load(name: str, **config: Any) -> Game:
    """The game ``name`` with its validated ``config``; bad config raises :class:`ConfigError`."""
    return _game_class(name).from_config(**config)


def deal(game: Game, seed: int = 0) -> State:
    """A new state advanced past every set-up chance node, reproducibly from ``seed``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_unchecked(state.sample_chance(rng))
    return state

"""The game registry: every subpackage of ``motherlode.games`` that exports ``GAME``.

A game plugs in by existing: ``games/<name>/__init__.py`` sets ``GAME = <its Game class>``.
Nothing else is edited to register it, so games are developed side by side.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from motherlode.core.errors import ConfigError
from motherlode.core.protocol import Game


@cache
def registry() -> dict[str, type[Game]]:
    """``{name: GameClass}`` for every installed game, sorted by name."""
    found: dict[str, type[Game]] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        cls = getattr(module, "GAME", None)
        if cls is not None:
            found[cls.name] = cls
    return dict(sorted(found.items()))


def game_class(name: str) -> type[Game]:
    games = registry()
    try:
        return games[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; the games are: {', '.join(games)}") from None

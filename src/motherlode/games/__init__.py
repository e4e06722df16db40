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
from motherlode.core.records import register_loader

_IMPORT_ERRORS: dict[str, str] = {}


@cache
def registry() -> dict[str, type[Game]]:
    """``{name: GameClass}`` for every installed game, sorted by name.

    A game package that fails to import is left out (so one broken game does not take
    the others down) and its error is kept in :func:`import_errors`, which the test
    suite checks is empty.
    """
    found: dict[str, type[Game]] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception as err:
            _IMPORT_ERRORS[info.name] = f"{type(err).__name__}: {err}"
            continue
        cls = getattr(module, "GAME", None)
        if cls is not None:
            found[cls.name] = cls
    return dict(sorted(found.items()))


def import_errors() -> dict[str, str]:
    """``{package: error}`` for game packages that failed to import."""
    registry()
    return dict(_IMPORT_ERRORS)


def game_class(name: str) -> type[Game]:
    games = registry()
    try:
        return games[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; the games are: {', '.join(games)}") from None


def _load(name: str, **config: object) -> Game:
    return game_class(name).from_config(**config)


register_loader(_load)

"""Eurorails: the map of Europe, the load chart, the trains, the card decks and the rules.

The content (map, decks, load chart: ``mapdata.py``, ``content.py``) is kept apart from the
rules engine (``game.py``), which reads it through ``board.py`` only. Everything loads from
``data/*.json``, checked at load with a :class:`~motherlode.core.errors.ConfigError`
naming the file, the entry and the problem:

>>> from motherlode.games.eurorails import load_content
>>> content = load_content()
>>> len(content.map.cities), len(content.loads), len(content.demands), len(content.events)
(60, 29, 146, 22)
>>> content.map.city("Paris").size
'major'

See ``docs/rules/eurorails.md`` for the sources of every number and the map build.
"""

from __future__ import annotations

from motherlode.games.eurorails.content import (
    Content,
    DemandCard,
    EventCard,
    Load,
    Train,
    load_content,
    load_demands,
    load_events,
    load_loads,
)
from motherlode.games.eurorails.game import EurorailsGame, EurorailsState
from motherlode.games.eurorails.mapdata import City, EuroMap, Ferry, load_map

GAME = EurorailsGame

__all__ = [
    "GAME",
    "City",
    "Content",
    "DemandCard",
    "EuroMap",
    "EurorailsGame",
    "EurorailsState",
    "EventCard",
    "Ferry",
    "Load",
    "Train",
    "load_content",
    "load_demands",
    "load_events",
    "load_loads",
    "load_map",
]

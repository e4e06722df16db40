"""Eurorails: the map of Europe, the load chart, the trains, the card decks and the rules.

The content (map, decks, load chart: ``mapdata.py``, ``content.py``) is kept apart from the
rules engine (``game.py`` and its rule parts), which reads it through ``board.py`` only. The
notation (``notation.py``), the boards (``render.py``, the map drawn by ``mapdraw.py``), the
greedy bot (``bot.py``) and the CLI commands (``commands.py``) are built on the rules and
wired to them here, once. Everything loads from
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

from motherlode.core.protocol import Narrator, wire
from motherlode.games.eurorails import bot, commands, narrate, notation, orders, render
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
from motherlode.games.eurorails.game import EurorailsConfig, EurorailsGame, EurorailsState
from motherlode.games.eurorails.mapdata import City, EuroMap, Ferry, load_map

wire(
    EurorailsGame,
    EurorailsState,
    notation=notation.NOTATION,
    renderer=render.RENDERER,
    narrator=Narrator(narrate=narrate.narrate, summary=narrate.summary),
    bots={"greedy": bot.make_greedy},
    commands={"map": commands.show_map, "cards": commands.show_cards},
    orders=orders.ORDERS,
)
GAME = EurorailsGame

__all__ = [
    "GAME",
    "City",
    "Content",
    "DemandCard",
    "EuroMap",
    "EurorailsConfig",
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

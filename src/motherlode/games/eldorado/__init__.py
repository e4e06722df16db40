"""El Dorado: the dice adventure (De Zoektocht naar El Dorado: Dobbelavontuur).

A roll-and-write race through the jungle for 1 to 4 players (solo is our extension) on
one of four expedition sheets, at the easier or harder level. Rules in
``docs/rules/eldorado.md``; sheets and dice in ``data/``.

>>> import motherlode
>>> game = motherlode.load("eldorado", players=2, map=3, hard=True)
>>> game.required, game.sheet.golden_minimum
(4, 3)
"""

from motherlode.core.protocol import Narrator, wire
from motherlode.games.eldorado import bot, narrate, notation, render
from motherlode.games.eldorado.game import EldoradoConfig, EldoradoGame, EldoradoState

wire(
    EldoradoGame,
    EldoradoState,
    notation=notation.NOTATION,
    renderer=render.RENDERER,
    narrator=Narrator(narrate.narrate, narrate.summary, narrate.decision),
    bots={"greedy": bot.make_greedy},
)

GAME = EldoradoGame

Eldorado = EldoradoGame  # alias for one release

__all__ = ["GAME", "Eldorado", "EldoradoConfig", "EldoradoGame", "EldoradoState"]

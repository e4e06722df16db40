"""El Dorado: the dice adventure (De Zoektocht naar El Dorado: Dobbelavontuur).

A roll-and-write race through the jungle for 1 to 4 players (solo is our extension) on
one of four expedition sheets, at the easier or harder level. Rules in
``docs/rules/eldorado.md``; sheets and dice in ``data/``.

>>> import motherlode
>>> game = motherlode.load("eldorado", players=2, map=3, hard=True)
>>> game.required, game.sheet.golden_minimum
(4, 3)
"""

from motherlode.games.eldorado.game import Eldorado, EldoradoConfig, EldoradoState

GAME = Eldorado

__all__ = ["GAME", "Eldorado", "EldoradoConfig", "EldoradoState"]

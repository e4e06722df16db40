"""Chinagold (Günter Cornett, Bambus Spieleverlag 2004) for two players.

One player prospects in the 17 mountains, the other in the 17 rivers of a hexagon of 91
spots; whoever completes an area carries its gold away. See ``docs/rules/chinagold.md``.
The rules are in ``game.py``; this package wires their notation, boards and bot to them.

>>> import motherlode
>>> game = ChinagoldGame.from_config(river_rotation=2)  # = motherlode.load("chinagold", ...)
>>> state = motherlode.deal(game, seed=1)
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)
"""

from __future__ import annotations

from motherlode.core.protocol import Narrator, wire
from motherlode.games.chinagold import bot, narrate, notation, render
from motherlode.games.chinagold.game import ChinagoldConfig, ChinagoldGame, ChinagoldState

wire(
    ChinagoldGame,
    ChinagoldState,
    notation=notation.NOTATION,
    renderer=render.RENDERER,
    narrator=Narrator(
        narrate=narrate.narrate, summary=narrate.summary, decision=narrate.decision
    ),
    bots={"greedy": bot.make_greedy},
)

GAME = ChinagoldGame

Chinagold = ChinagoldGame  # alias for one release

__all__ = ["GAME", "Chinagold", "ChinagoldConfig", "ChinagoldGame", "ChinagoldState"]

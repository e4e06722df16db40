"""Chinagold (Günter Cornett, Bambus Spieleverlag 2004) for two players.

One player prospects in the 17 mountains, the other in the 17 rivers of a hexagon of 91
spots; whoever completes an area carries its gold away. See ``docs/rules/chinagold.md``.

>>> import motherlode
>>> game = Chinagold.from_config(river_rotation=2)  # = motherlode.load("chinagold", ...)
>>> state = motherlode.deal(game, seed=1)
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)
"""

from __future__ import annotations

from motherlode.games.chinagold.game import Chinagold, ChinagoldConfig, ChinagoldState

GAME = Chinagold

__all__ = ["GAME", "Chinagold", "ChinagoldConfig", "ChinagoldState"]

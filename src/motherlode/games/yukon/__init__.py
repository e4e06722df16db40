"""Yukon with its Townsfolk expansion (../shared/rulebooks/yukon.txt).

The rules are in ``game.py``; this package wires their notation, boards and bot to them.
"""

from motherlode.core.protocol import Narrator, wire
from motherlode.games.yukon import bot, narrate, notation, render
from motherlode.games.yukon.game import YukonConfig, YukonGame, YukonState

wire(
    YukonGame,
    YukonState,
    notation=notation.NOTATION,
    renderer=render.RENDERER,
    narrator=Narrator(
        narrate=narrate.narrate, summary=narrate.summary, decision=narrate.decision
    ),
    bots={"greedy": bot.make_greedy},
)

GAME = YukonGame

__all__ = ["GAME", "YukonConfig", "YukonGame", "YukonState"]

"""Eureka: the gold-rush race of Ravensburger's "Goldgräber" (1988), for 2-6 players.

Miners leave their houses in Golden City, turn over face-down chips in the gold fields
(gold nuggets, or robbers to fight off), duel each other for gold lying in the open, ride
rafts across the three lakes and bank their finds before the gold train reaches the city.

>>> import motherlode
>>> game = motherlode.load("eureka", players=4)
>>> state = motherlode.deal(game, seed=1)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['pass', 'roll'])
"""

from motherlode.core.protocol import Narrator, wire
from motherlode.games.eureka import bot, narrate, notation, render
from motherlode.games.eureka.game import EurekaConfig, EurekaGame, EurekaState

wire(
    EurekaGame,
    EurekaState,
    notation=notation.NOTATION,
    renderer=render.RENDERER,
    narrator=Narrator(narrate.narrate, narrate.summary, narrate.decision),
    bots={"greedy": bot.make_greedy},
)

GAME = EurekaGame

Eureka = EurekaGame  # alias for one release

__all__ = ["GAME", "Eureka", "EurekaConfig", "EurekaGame", "EurekaState"]

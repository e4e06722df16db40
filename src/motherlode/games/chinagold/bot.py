"""Chinagold's ``greedy`` bot: one ply, scored by the gold it moves and a race heuristic.

The gold of a spot goes to whichever of its two areas (its mountain, its river) is
completed first. So the bot values a position by the gold already collected, plus, for
every spot still on the board, who is ahead in the race for it: the area with fewer
face-down markers left will likely be completed first. It picks the move with the best
value; ties are broken by its seeded RNG, so it is deterministic given its seed.

>>> import motherlode
>>> from motherlode.games.chinagold import ChinagoldGame
>>> game = ChinagoldGame.from_config()  # what motherlode.load("chinagold") returns
>>> state = motherlode.deal(game, seed=3)
>>> bot = game.bots()["greedy"](game, seed=0)
>>> bot.act(state) in state.legal_actions()
True
"""

from __future__ import annotations

import math
from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games.chinagold.board import NUM_SPOTS
from motherlode.games.chinagold.game import ChinagoldGame, ChinagoldState

_RACE = {d: math.tanh(d / 2.0) for d in range(-NUM_SPOTS, NUM_SPOTS + 1)}
"""Who leads the race for a spot, by the difference of face-down markers left (-1..1)."""


class GreedyAgent(Agent):
    """Maximises ``collected gold difference + race * Σ tanh(lead(spot) / 2)`` after its move.

    ``race`` weights the heuristic race for the gold still on the board (default 0.3).
    ``depth=2`` also looks at the opponent's reply: the ``width`` best moves are scored by
    the value after the opponent's best one-ply answer, expected over the opponent's throw
    (about 30 times slower).
    """

    name = "greedy"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        race: float = 0.3,
        depth: int = 1,
        width: int = 6,
        **params: Any,
    ) -> None:
        super().__init__(seed)
        if params:
            raise TypeError(f"unknown greedy parameter(s): {', '.join(sorted(params))}")
        assert isinstance(game, ChinagoldGame)
        self.game = game
        self.race = float(race)
        if depth not in (1, 2) or width < 1:
            raise TypeError(f"greedy: depth must be 1 or 2 and width >= 1 (got {depth}, {width})")
        self.depth = int(depth)
        self.width = int(width)
        # per spot: its mountain mask and its river mask, by seat
        self.areas = game.spot_area

    def value(self, state: ChinagoldState, me: int) -> float:
        """The heuristic value of ``state`` for seat ``me``."""
        opp = me ^ 1
        score = float(state.collected[me] - state.collected[opp])
        on_board = state.hidden | state.gold
        if not on_board:
            return score * 100.0
        hidden = state.hidden
        mine, theirs = self.areas[me], self.areas[opp]
        race = 0.0
        cache: dict[int, int] = {}
        for s in range(NUM_SPOTS):
            if not on_board >> s & 1:
                continue
            a, b = mine[s], theirs[s]
            fa = cache.get(a)
            if fa is None:
                fa = cache[a] = (a & hidden).bit_count()
            fb = cache.get(b)
            if fb is None:
                fb = cache[b] = (b & hidden).bit_count()
            race += _RACE[fb - fa]
        return score + self.race * race

    def _after(self, state: ChinagoldState, action: Action) -> ChinagoldState:
        child = state.clone()
        child._apply_action(action)  # no history needed for a look-ahead
        return child

    def _reply(self, child: ChinagoldState, me: int) -> float:
        """My value after the opponent's best one-ply reply, expected over their throw."""
        if child.over:
            return self.value(child, me)
        throws = [(0, 1.0)] if child.stage == 0 else self.game.throws[child.stage]
        total = 0.0
        for roll, p in throws:
            if roll:
                child.roll = roll
            worst = min(self.value(self._after(child, a), me) for a in child._legal_actions())
            total += p * worst
        child.roll = 0
        return total

    def act(self, state: State) -> Action:
        assert isinstance(state, ChinagoldState)
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        scored = [(self.value(self._after(state, a), me), a) for a in legal]
        if self.depth >= 2:
            scored.sort(key=lambda va: -va[0])
            scored = [(self._reply(self._after(state, a), me), a) for _, a in scored[: self.width]]
        best_value = max(v for v, _ in scored)
        best = sorted(a for v, a in scored if v > best_value - 1e-9)
        return best[self.rng.randrange(len(best))]


def make_greedy(game: Game, seed: int = 0, **params: Any) -> Agent:
    """The ``greedy`` spec's factory (``params``: ``race``, ``depth``, ``width``)."""
    return GreedyAgent(game, seed=seed, **params)

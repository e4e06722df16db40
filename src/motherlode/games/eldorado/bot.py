"""The ``greedy`` El Dorado bot: plans each turn against a route-to-gold heuristic.

At the start of its turn the bot searches every sequence of its own decisions up to the
end of the turn (dice of equal faces merged, positions seen twice skipped, at most
``max_nodes`` positions) and plays towards the best leaf. A leaf is scored by
:func:`evaluate` (of :mod:`motherlode.games.eldorado.value`):

* the estimated number of fills left to reach the golden temple: a shortest path from the
  visited spaces (Dijkstra; signpost spaces dearer, settlements by their unpaid fee,
  temples cheap while offerings are still required), plus two for each required temple
  that the path does not cross;
* the resources and helpers held (unused resources by what they give, half-filled ones
  by their progress);
* the offerings: coins offered (the tie-break) and, when first in a temple, the minimum
  it sets for the rivals (a large first offering blocks them);
* entering El Dorado, which wins.

>>> import motherlode
>>> game = motherlode.load("eldorado", players=2, map=2)
>>> state = motherlode.deal(game, seed=4)
>>> bot = GreedyAgent(game, seed=0)
>>> bot.act(state) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, Game, State
from motherlode.games.eldorado.game import EldoradoGame, EldoradoState
from motherlode.games.eldorado.value import (  # re-exported: the bot's judgement
    ROUTE_CACHE,
    ROUTE_WEIGHT,
    _route_cost,
    evaluate,
    resource_value,
    route_cost,
)


class GreedyAgent(Agent):
    """Plans its whole turn against :func:`evaluate`; deterministic given its seed."""

    name = "greedy"

    def __init__(self, game: EldoradoGame, seed: int = 0, max_nodes: int = 600) -> None:
        super().__init__(seed)
        self.game = game
        self.max_nodes = max_nodes
        self._plan: dict[str, Action] = {}

    def reset(self) -> None:
        super().reset()
        self._plan = {}

    def act(self, state: State) -> Action:
        assert isinstance(state, EldoradoState)
        key = state.serialize()
        legal = state.legal_actions()
        planned = self._plan.get(key)
        if planned is not None and planned in legal:
            return planned
        if len(legal) == 1:
            return legal[0]
        self._plan = {}
        p = state.current_player()
        seen: set[str] = set()
        nodes = [0]
        best: list[tuple[float, list[tuple[str, Action]]]] = []

        def search(s: EldoradoState, path: list[tuple[str, Action]]) -> None:
            nodes[0] += 1
            still_mine = (s.current_player() == p and s.round == state.round
                          and s.seat == state.seat)
            if not still_mine or nodes[0] > self.max_nodes:
                value = evaluate(s, p)
                if s.is_chance_node() and not s.is_terminal():
                    value += 0.3  # a re-roll: a better die is likely
                if not best or value > best[0][0] + 1e-9:
                    best[:] = [(value, list(path))]
                elif abs(value - best[0][0]) <= 1e-9:
                    best.append((value, list(path)))
                return
            k = s.serialize()
            if k in seen:
                return
            seen.add(k)
            acts = s.legal_actions()
            if s.phase == 1:  # dice with equal faces are interchangeable
                faces: set[int] = set()
                kept = []
                for a in acts:
                    d = a - s.game.choose_base
                    if 0 <= d < 7:
                        if s.middle[d] in faces:
                            continue
                        faces.add(s.middle[d])
                    kept.append(a)
                acts = kept
            for a in acts:
                child = s.clone()
                child.apply_unchecked(a)
                path.append((k, a))
                search(child, path)
                path.pop()

        search(state, [])
        choice = best[self.rng.randrange(len(best))][1] if best else []
        if not choice:
            return legal[self.rng.randrange(len(legal))]
        self._plan = dict(choice)
        return choice[0][1]


def make_greedy(game: Game, seed: int = 0, **params: Any) -> GreedyAgent:
    """The ``greedy`` factory of :meth:`EldoradoGame.bots`."""
    assert isinstance(game, EldoradoGame)
    return GreedyAgent(game, seed=seed, **params)


__all__ = [
    "ROUTE_CACHE",
    "ROUTE_WEIGHT",
    "GreedyAgent",
    "_route_cost",
    "evaluate",
    "make_greedy",
    "resource_value",
    "route_cost",
]

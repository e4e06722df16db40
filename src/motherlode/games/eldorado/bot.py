"""The ``greedy`` El Dorado bot: plans each turn against a route-to-gold heuristic.

At the start of its turn the bot searches every sequence of its own decisions up to the
end of the turn (dice of equal faces merged, positions seen twice skipped, at most
``max_nodes`` positions) and plays towards the best leaf. A leaf is scored by
:func:`evaluate`:

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

import heapq
import weakref

from motherlode.core.agent import Agent
from motherlode.core.protocol import Action, State
from motherlode.games.eldorado.game import Eldorado, EldoradoState
from motherlode.games.eldorado.sheets import GOLDEN, SETTLEMENT, SIGNPOST, TEMPLE

ROUTE_WEIGHT = 1.0


ROUTE_CACHE = 50_000
"""Route costs remembered per game (search asks for the same route again and again)."""

_ROUTE_CACHES: weakref.WeakKeyDictionary[Eldorado, dict[tuple[object, ...], float]] = (
    weakref.WeakKeyDictionary()
)


def route_cost(state: EldoradoState, p: int) -> float:
    """Estimated fills still needed by ``p`` to enter El Dorado."""
    g = state.game
    if state.entered(p):
        return 0.0
    need = max(0, g.required - state.temples_offered(p))
    visited = state.visited[p]
    minima = state.minima
    carto = state.has(p, g.cartographer)
    # Everything the estimate reads: the search of a turn changes mostly resources, so the
    # same route comes back many times.
    key = (visited, need, carto, tuple(state.paid[p]), tuple(minima))
    cache = _ROUTE_CACHES.get(g)
    if cache is None:
        cache = _ROUTE_CACHES[g] = {}
    found = cache.get(key)
    if found is None:
        if len(cache) >= ROUTE_CACHE:
            cache.clear()
        found = cache[key] = _route_cost(state, visited, need, carto, minima, p)
    return found


def _route_cost(
    state: EldoradoState, visited: int, need: int, carto: bool, minima: list[int], p: int
) -> float:
    sh = state.game.sheet
    costs: list[float] = []
    for sp in sh.spaces:
        s = sp.index
        if (visited >> s) & 1:
            costs.append(0.0)
        elif sp.kind == TEMPLE:
            c = 0.35 if need else 1.1
            if minima[s] >= 3:
                c += 0.5
            costs.append(c)
        elif sp.kind == SETTLEMENT:
            costs.append(0.3 + 0.55 * (sp.fee - state.paid[p][s]))
        elif sp.kind == GOLDEN:
            costs.append(1.2)
        else:
            costs.append(1.0 if sp.symbol != SIGNPOST else (1.2 if carto else 1.5))
    dist = [1e9] * len(costs)
    temples = [0] * len(costs)
    heap: list[tuple[float, int, int]] = []
    if visited == 0:
        for sp in sh.spaces:
            if sp.start:
                dist[sp.index] = costs[sp.index]
                heap.append((costs[sp.index], 0, sp.index))
    else:
        for s in range(len(costs)):
            if (visited >> s) & 1:
                dist[s] = 0.0
                heap.append((0.0, 0, s))
    heapq.heapify(heap)
    kinds = [sp.kind for sp in sh.spaces]
    while heap:
        d, negt, s = heapq.heappop(heap)
        if d > dist[s] or (d == dist[s] and -negt < temples[s]):
            continue
        if kinds[s] == GOLDEN:
            continue
        for t in sh.spaces[s].adjacent:
            nd = d + costs[t]
            nt = -negt + (1 if kinds[t] == TEMPLE and not (visited >> t) & 1 else 0)
            if nd < dist[t] - 1e-9 or (abs(nd - dist[t]) < 1e-9 and nt > temples[t]):
                dist[t] = nd
                temples[t] = nt
                heapq.heappush(heap, (nd, -nt, t))
    gold = sh.golden
    return dist[gold] + 2.0 * max(0, need - temples[gold])


def resource_value(state: EldoradoState, p: int) -> float:
    """What ``p``'s resources and helpers are worth, in route fills."""
    g = state.game
    total = 0.0
    for res in g.sheet.resources:
        r = res.index
        if res.helper:
            full = 0.6 if res.visit else 2.0
        elif res.items:
            full = 0.85 * len(res.items)
        elif res.coins:
            full = 0.3 + 0.3 * res.coins
        elif res.zero:
            full = 0.9
        else:
            full = 0.9
        if state.obtained(p, r):
            if res.helper or not (state.used[p] >> r) & 1:
                total += full
        elif res.slots:
            mask = g.res_mask[r]
            done = bin(state.filled[p] & mask).count("1")
            total += 0.75 * full * done / len(res.slots)
    return total


def evaluate(state: EldoradoState, p: int) -> float:
    """Heuristic value of ``state`` for seat ``p`` (higher is better)."""
    g = state.game
    if state.entered(p):
        return 100.0 + 0.1 * state.coins_offered(p)
    value = -ROUTE_WEIGHT * route_cost(state, p) + resource_value(state, p)
    value += 0.05 * state.coins_offered(p)
    for s, c in state.offers[p]:
        if state.minima[s] == c and s != g.sheet.golden:
            rivals_open = sum(
                1 for q in range(g.num_players)
                if q != p and not any(t == s for t, _ in state.offers[q])
            )
            value += 0.08 * c * rivals_open
    return value


class GreedyAgent(Agent):
    """Plans its whole turn against :func:`evaluate`; deterministic given its seed."""

    name = "greedy"

    def __init__(self, game: Eldorado, seed: int = 0, max_nodes: int = 600) -> None:
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

"""How good a position is for a seat: the route still to fill, resources, offerings.

The judgement the greedy bot plans against (:func:`evaluate`) and that search agents get
from ``state.heuristic_values()`` (:func:`values`). Rules-side, so that the rules
(``game.py``) use it without importing the bot:

* the estimated number of fills left to reach the golden temple (:func:`route_cost`): a
  shortest path from the visited spaces (Dijkstra; signpost spaces dearer, settlements by
  their unpaid fee, temples cheap while offerings are still required), plus two for each
  required temple that the path does not cross;
* the resources and helpers held (:func:`resource_value`: unused resources by what they
  give, half-filled ones by their progress);
* the offerings: coins offered (the tie-break) and, when first in a temple, the minimum
  it sets for the rivals (a large first offering blocks them);
* entering El Dorado, which wins.

>>> import motherlode
>>> state = motherlode.deal(motherlode.load("eldorado", players=2), seed=1)
>>> evaluate(state, 0) == evaluate(state, 1), values(state)
(True, [0.0, 0.0])
"""

from __future__ import annotations

import heapq
import math
import weakref
from typing import TYPE_CHECKING

from motherlode.games.eldorado.sheets import GOLDEN, SETTLEMENT, SIGNPOST, TEMPLE

if TYPE_CHECKING:
    from motherlode.games.eldorado.game import EldoradoGame, EldoradoState

ROUTE_WEIGHT = 1.0


ROUTE_CACHE = 50_000
"""Route costs remembered per game (search asks for the same route again and again)."""

_ROUTE_CACHES: weakref.WeakKeyDictionary[EldoradoGame, dict[tuple[object, ...], float]] = (
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


def race_chances(values: list[float], scale: float) -> list[float]:
    """Win chances from heuristic values: each seat's chance of beating each rival is
    ``sigmoid(2 * (v - v_rival) / scale)``, a seat's weight the product over its rivals,
    normalised to sum to 1 (for two seats, ``w = (1 + tanh(lead / scale)) / 2``).

    >>> [round(w, 3) for w in race_chances([0.0, 0.0, 0.0], 5.0)]
    [0.333, 0.333, 0.333]
    >>> a, b, c = race_chances([2.0, 0.0, 0.0], 5.0)
    >>> a > 1 / 3 > b == c
    True
    """
    weights = []
    for p, v in enumerate(values):
        w = 1.0
        for q, x in enumerate(values):
            if q != p:
                z = 2.0 * (v - x) / scale
                w *= 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        weights.append(w)
    total = sum(weights)
    return [w / total for w in weights]


def values(state: EldoradoState) -> list[float]:
    """``state.heuristic_values()``: each seat's :func:`evaluate` as a value in (-1, 1) (see
    :meth:`EldoradoState.heuristic_values`)."""
    scores = [evaluate(state, p) for p in range(state.game.num_players)]
    if len(scores) == 1:
        return [0.9 * math.tanh((30.0 + scores[0]) / 10.0)]
    if len(scores) == 2:
        a, b = scores
        return [0.9 * math.tanh((a - b) / 5.0), 0.9 * math.tanh((b - a) / 5.0)]
    return [0.9 * (2.0 * w - 1.0) for w in race_chances(scores, 5.0)]

"""Ratings and win rates of a tournament's agents, with confidence intervals.

* **Ratings**: openskill's Plackett-Luce model, updated game by game in index order (so
  a resumed tournament gets the same ratings as an uninterrupted one). In each game every
  distinct agent is one team; its rank is the best rank any of its seats reached (winners
  first, then by score).
* **Win rate**: wins per seat played (a shared victory split between its winners), with
  a 95% Wilson interval; compare it with ``1/n``, the share of an agent no better than
  the field.
* **Head to head**: for each pair of agents met in a game, the share of those games where
  the first finished ahead of the second (ties count half), with its Wilson interval.

>>> from motherlode.arena.tournament import GameResult
>>> rows = [GameResult("t", i, "yukon", {"players": 2}, ["a", "b"] if i % 2 else ["b", "a"],
...                    i, [5.0, 1.0], [0], 10, 30, 0.1) for i in range(10)]
>>> summary = summarise(rows)
>>> [(a["agent"], a["wins"], a["seats"]) for a in summary["agents"]]
[('a', 5.0, 10), ('b', 5.0, 10)]
>>> summary["head_to_head"]["a"]["b"]["games"]
10
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from motherlode.arena.tournament import GameResult

Z95 = 1.959963984540054


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes allowed).

    >>> [round(x, 3) for x in wilson(9, 10)]
    [0.596, 0.982]
    >>> wilson(0, 12)[0], wilson(12, 12)[1]  # exact at the ends, never past the rate
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # Rounding leaves a bound a hair off at 0 or n wins in n (2.8e-17 for 0 in 12): the
    # interval must still contain the rate, or a plot's error bar turns negative.
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def summarise(rows: Sequence[GameResult], agents: Sequence[str] | None = None) -> dict[str, Any]:
    """A JSON-able summary: per agent ratings and win rates, and the head-to-head table."""
    from openskill.models import PlackettLuce

    names: list[str] = list(dict.fromkeys(agents or []))
    for row in rows:
        for spec in row.seats:
            if spec not in names:
                names.append(spec)
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    seats_played = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    score_sum = dict.fromkeys(names, 0.0)
    duel_wins: dict[str, dict[str, float]] = {a: dict.fromkeys(names, 0.0) for a in names}
    duel_games: dict[str, dict[str, int]] = {a: dict.fromkeys(names, 0) for a in names}
    players = set()
    for row in sorted(rows, key=lambda r: (r.tournament, r.index)):
        players.add(row.players)
        ranks = row.ranks()
        share = 1.0 / len(row.winners) if row.winners else 0.0
        best: dict[str, int] = {}
        for seat, spec in enumerate(row.seats):
            seats_played[spec] += 1
            score_sum[spec] += row.scores[seat]
            if seat in row.winners:
                wins[spec] += share
            best[spec] = min(best.get(spec, ranks[seat]), ranks[seat])
        teams = list(best)
        if len(teams) > 1:
            new = model.rate([[ratings[t]] for t in teams], ranks=[float(best[t]) for t in teams])
            for t, team in zip(teams, new, strict=True):
                ratings[t] = team[0]
        for a in teams:
            for b in teams:
                if a == b:
                    continue
                duel_games[a][b] += 1
                if best[a] < best[b]:
                    duel_wins[a][b] += 1.0
                elif best[a] == best[b]:
                    duel_wins[a][b] += 0.5
    table: list[dict[str, Any]] = []
    for name in names:
        r = ratings[name]
        n = seats_played[name]
        low, high = wilson(wins[name], n)
        table.append(
            {
                "agent": name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal(),
                "seats": n,
                "wins": wins[name],
                "win_rate": wins[name] / n if n else 0.0,
                "win_low": low,
                "win_high": high,
                "mean_score": score_sum[name] / n if n else 0.0,
            }
        )
    table.sort(key=lambda row: -float(row["ordinal"]))
    head: dict[str, dict[str, dict[str, float]]] = {}
    for a in names:
        head[a] = {}
        for b in names:
            g = duel_games[a][b]
            if a == b or not g:
                continue
            low, high = wilson(duel_wins[a][b], g)
            head[a][b] = {
                "games": g,
                "wins": duel_wins[a][b],
                "rate": duel_wins[a][b] / g,
                "low": low,
                "high": high,
            }
    return {
        "games": len(rows),
        "players": sorted(players),
        "agents": table,
        "head_to_head": head,
        "mean_length": sum(r.length for r in rows) / len(rows) if rows else 0.0,
        "seconds_per_game": sum(r.duration for r in rows) / len(rows) if rows else 0.0,
    }

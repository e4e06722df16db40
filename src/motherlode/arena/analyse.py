"""The questions a designer asks of stored games, grouped by config.

For each group of games (by player count and by the config options that vary among the
stored games, or by the options named in ``by``): the win share of each seat with its
95% Wilson interval (seat 1's share minus ``1/n`` is the first-player advantage), the
game length distribution (decisions per game), the score distribution per seat and of
the winners, and how often victories were shared.

Seat effects are only meaningful when every agent sat in every seat equally often (the
arena rotates seats) or when all seats are played by the same agent (``--agents random``).

>>> from motherlode.arena.tournament import GameResult
>>> rows = [GameResult("t", i, "yukon", {"players": 2, "expansion": False}, ["r", "r"], i,
...                    [4.0, 2.0] if i % 3 else [1.0, 2.0], [0] if i % 3 else [1], 30 + i,
...                    90, 0.1) for i in range(9)]
>>> result = analyse(rows)
>>> group = result["groups"][0]
>>> group["label"], round(group["first_player_advantage"], 3)
('players=2', 0.167)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from motherlode.arena.ratings import wilson
from motherlode.arena.tournament import GameResult


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def distribution(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation and quantiles of ``values``.

    >>> distribution([1, 2, 3, 4])["median"]
    2.5
    """
    data = sorted(float(v) for v in values)
    if not data:
        return {
            "mean": 0.0,
            "sd": 0.0,
            "min": 0.0,
            "p10": 0.0,
            "median": 0.0,
            "p90": 0.0,
            "max": 0.0,
        }
    return {
        "mean": statistics.fmean(data),
        "sd": statistics.stdev(data) if len(data) > 1 else 0.0,
        "min": data[0],
        "p10": _quantile(data, 0.1),
        "median": _quantile(data, 0.5),
        "p90": _quantile(data, 0.9),
        "max": data[-1],
    }


def _group_keys(rows: Sequence[GameResult], by: Sequence[str] | None) -> list[str]:
    if by:
        return ["players", *[k for k in by if k != "players"]]
    keys: list[str] = []
    for row in rows:
        for k in row.config:
            if k not in keys:
                keys.append(k)
    varying = [k for k in keys if len({repr(r.config.get(k)) for r in rows}) > 1]
    return ["players", *[k for k in varying if k != "players"]]


def analyse(rows: Sequence[GameResult], by: Sequence[str] | None = None) -> dict[str, Any]:
    """Seat win shares, lengths and scores of ``rows``, per config group (JSON-able)."""
    keys = _group_keys(rows, by)
    groups: dict[tuple[str, ...], list[GameResult]] = {}
    for row in rows:
        values = tuple(
            repr(row.players) if k == "players" else repr(row.config.get(k)) for k in keys
        )
        groups.setdefault(values, []).append(row)
    out = []
    for values, members in sorted(groups.items()):
        n = members[0].players
        wins = [0.0] * n
        scores: list[list[float]] = [[] for _ in range(n)]
        winner_scores: list[float] = []
        shared = 0
        agents: set[str] = set()
        for row in members:
            agents.update(row.seats)
            share = 1.0 / len(row.winners) if row.winners else 0.0
            if len(row.winners) > 1:
                shared += 1
            for seat in row.winners:
                wins[seat] += share
                winner_scores.append(row.scores[seat])
            for seat in range(n):
                scores[seat].append(row.scores[seat])
        games = len(members)
        seats: list[dict[str, Any]] = []
        for seat in range(n):
            low, high = wilson(wins[seat], games)
            seats.append(
                {
                    "seat": seat + 1,
                    "wins": wins[seat],
                    "win_share": wins[seat] / games,
                    "win_low": low,
                    "win_high": high,
                    "score": distribution(scores[seat]),
                    "scores": scores[seat],
                }
            )
        lengths = [row.length for row in members]
        out.append(
            {
                "label": ", ".join(f"{k}={v}" for k, v in zip(keys, values, strict=True)),
                "key": dict(zip(keys, values, strict=True)),
                "players": n,
                "games": games,
                "agents": sorted(agents),
                "seats": seats,
                "first_player_advantage": seats[0]["win_share"] - 1.0 / n,
                "shared": shared,
                "length": distribution(lengths),
                "lengths": lengths,
                "winner_score": distribution(winner_scores),
                "seconds_per_game": statistics.fmean(r.duration for r in members),
            }
        )
    return {
        "game": rows[0].game if rows else "",
        "games": len(rows),
        "by": keys,
        "groups": out,
    }

"""Many games between agents: the summary behind ``motherlode simulate``."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from rich.progress import Progress

from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.protocol import Game


def simulate(
    game: Game,
    specs: list[str],
    games: int,
    seed: int = 0,
    *,
    rotate: bool = True,
    progress: bool = True,
    records: Path | None = None,
) -> dict[str, Any]:
    """Play ``games`` games; agent ``i`` sits in seat ``(i + g) % n`` in game ``g`` if rotating.

    Returns a JSON-able summary: per agent wins (shared victories split), win share,
    mean score; game lengths; games/s and decisions/s. With ``records``, each game's
    record is written there as ``<game>-<g>.json`` (replayable with ``motherlode replay``).
    """
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    n = game.num_players
    agents = [
        create(spec, game, seed=seed + 7919 * i, allowed=True) for i, spec in enumerate(specs)
    ]
    labels = [f"{spec}#{i + 1}" if specs.count(spec) > 1 else spec for i, spec in enumerate(specs)]
    wins = [0.0] * n
    score_sums = [0.0] * n
    lengths: list[int] = []
    shared = 0
    decisions = 0
    start = time.perf_counter()
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"{game.name}", total=games)
        for g in range(games):
            shift = g % n if rotate else 0
            seating = [(i - shift) % n for i in range(n)]  # seat -> agent index
            played = play_game(game, [agents[a] for a in seating], seed + g)
            state = played.state
            if records is not None:
                played.record.save(records / f"{game.name}-{g:05d}.json")
            scores = state.scores()
            winners = state.winners()
            if len(winners) > 1:
                shared += 1
            for seat, a in enumerate(seating):
                score_sums[a] += scores[seat]
                if seat in winners:
                    wins[a] += 1.0 / len(winners)
            lengths.append(played.decisions)
            decisions += played.decisions
            bar.advance(task)
    elapsed = time.perf_counter() - start
    return {
        "game": game.name,
        "config": game.config.model_dump(),
        "games": games,
        "seed": seed,
        "rotate": rotate,
        "agents": [
            {
                "agent": labels[a],
                "wins": wins[a],
                "win_share": wins[a] / games,
                "mean_score": score_sums[a] / games,
            }
            for a in range(n)
        ],
        "shared": shared,
        "length": {
            "mean": statistics.fmean(lengths),
            "min": min(lengths),
            "max": max(lengths),
        },
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed else float("inf"),
        "decisions_per_second": decisions / elapsed if elapsed else float("inf"),
    }

"""What drawing each layer once per position saves the server (issue 23, DESIGN.md §3b).

``python benchmarks/bench_draw_once.py [--games yukon,eurorails] [--positions 12]
[--seed 1]`` plays one seeded random game per game and, at positions spread along it,
draws the board for every seat and a spectator as the server does for one revision
(``runtime.board_layers``): once with nothing shared (each viewer's renderer draws the
public layer again) and once sharing the renderer's ``svg.once`` parts between the
viewers (what the server does now). It prints the median milliseconds per position of
each, side by side in the same sitting, and their ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import motherlode
from motherlode.server.runtime import board_layers


def positions(name: str, count: int, seed: int) -> list[motherlode.State]:
    """``count`` positions spread along one seeded random game of ``name``."""
    rng = random.Random(seed)
    state = motherlode.deal(motherlode.load(name), seed=seed)
    out = [state.clone()]
    step = 0
    while not state.is_terminal() and len(out) < count and step < 4000:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        step += 1
        if step % 15 == 0:
            out.append(state.clone())
    return out


def draw_all(state: motherlode.State, shared: bool) -> float:
    """Milliseconds to draw every viewer of ``state`` once (a fresh memo when shared)."""
    viewers: list[int | None] = [*range(state.game.num_players), None]
    memo: dict[Any, Any] | None = {} if shared else None
    started = time.perf_counter()
    for seat in viewers:
        board_layers(state, seat, memo)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="yukon,chinagold,eureka,eldorado,eurorails")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':10} {'viewers':>7} {'each alone ms':>14} {'shared ms':>10} {'ratio':>6}")
    for name in args.games.split(","):
        states = positions(name, args.positions, args.seed)
        for state in states[:2]:  # warm the caches (static layers, maps) first
            draw_all(state, False)
        alone = statistics.median(draw_all(s, False) for s in states)
        shared = statistics.median(draw_all(s, True) for s in states)
        n = states[0].game.num_players + 1
        print(f"{name:10} {n:>7} {alone:>14.2f} {shared:>10.2f} {alone / shared:>6.2f}")


if __name__ == "__main__":
    main()

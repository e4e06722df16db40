"""Random-playout throughput of every registered game and config, through the protocol.

    python benchmarks/bench_random.py [--seconds 2] [--game yukon]

For each config it plays random games (set-up chance included) for about ``--seconds``
and prints games/s and decisions/s (decisions = non-chance actions), using the fast
unchecked path that search agents use, then the checked path for comparison.
"""

from __future__ import annotations

import argparse
import random
import time

import motherlode
from motherlode.games import registry


def playout(game: motherlode.Game, rng: random.Random, checked: bool) -> int:
    state = game.new_initial_state()
    decisions = 0
    apply = state.apply_action if checked else state.apply_unchecked
    while not state.is_terminal():
        if state.is_chance_node():
            apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def measure(game: motherlode.Game, seconds: float, checked: bool) -> tuple[float, float]:
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += playout(game, rng, checked)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print(f"{'game':<10} {'config':<40} {'games/s':>10} {'decisions/s':>12} {'checked g/s':>12}")
    for name, cls in registry().items():
        if args.game and name not in args.game:
            continue
        for cfg in cls.conformance_configs():
            game = motherlode.load(name, **cfg)
            gps, dps = measure(game, args.seconds, checked=False)
            cgps, _ = measure(game, args.seconds / 2, checked=True)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            print(f"{name:<10} {label:<40} {gps:>10.1f} {dps:>12.0f} {cgps:>12.1f}", flush=True)


if __name__ == "__main__":
    main()

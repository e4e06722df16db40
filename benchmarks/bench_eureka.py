"""Eureka throughput: random-playout games/s and decisions/s per config (one core).

    python benchmarks/bench_eureka.py            # speed, every player count
    python benchmarks/bench_eureka.py --strength 200   # also greedy vs random, seats rotated

Playouts use the fast path (``apply_unchecked``, ``sample_chance``) as search agents do.
"""

from __future__ import annotations

import argparse
import random
import time

from motherlode.core.agent import RandomAgent
from motherlode.games.eureka import Eureka
from motherlode.games.eureka.bot import GreedyAgent


def speed(players: int, seconds: float, **config: object) -> tuple[float, float, float, int]:
    """(games/s, decisions/s, actions/s, games) of uniform random playouts."""
    game = Eureka.from_config(players=players, **config)
    rng = random.Random(players)
    games = decisions = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply_unchecked(action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, actions / elapsed, games


def strength(players: int, games: int) -> tuple[float, float, float]:
    """Greedy in one seat (rotated) against random others: (win share, its points, theirs)."""
    game = Eureka.from_config(players=players)
    wins = mine = theirs = 0.0
    for g in range(games):
        seat = g % players
        agents = [
            GreedyAgent(game, seed=g) if i == seat else RandomAgent(seed=1000 * g + i)
            for i in range(players)
        ]
        rng = random.Random(g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            else:
                state.apply_unchecked(agents[state.current_player()].act(state))
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
        scores = state.scores()
        mine += scores[seat]
        theirs += (sum(scores) - scores[seat]) / (players - 1)
    return wins / games, mine / games, theirs / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per config")
    parser.add_argument("--strength", type=int, default=0, help="greedy-vs-random games")
    args = parser.parse_args()
    print("eureka random playouts (one core, apply_unchecked)")
    print(f"{'config':<28} {'games/s':>9} {'decisions/s':>12} {'actions/s':>10} {'games':>6}")
    configs: list[tuple[str, int, dict[str, object]]] = [
        (f"players={n}", n, {}) for n in range(2, 7)
    ]
    configs.append(("players=4 nuggets_end=banked", 4, {"nuggets_end": "banked"}))
    for label, n, cfg in configs:
        gs, ds, acts, count = speed(n, args.seconds, **cfg)
        print(f"{label:<28} {gs:>9.1f} {ds:>12.0f} {acts:>10.0f} {count:>6}")
    if args.strength:
        print(f"\ngreedy vs random, {args.strength} games per player count, seats rotated")
        for n in (3, 4, 6):
            share, mine, theirs = strength(n, args.strength)
            print(
                f"players={n}: greedy win share {share:.3f} (even: {1 / n:.3f}),"
                f" greedy {mine:.1f} points, a random seat {theirs:.1f}"
            )


if __name__ == "__main__":
    main()

"""El Dorado throughput: random playouts per sheet and level, and the greedy bot's speed.

Plain script: ``python benchmarks/bench_eldorado.py [--games N] [--greedy-games N]``.
Random playouts use the fast path (``apply_unchecked``), one core, chance sampled with a
seeded ``random.Random``. Figures: games/s, decisions/s (decision nodes only), actions/s
(chance included), mean decisions and rounds per game, share of games in which someone
entered El Dorado before the round limit.
"""

from __future__ import annotations

import argparse
import random
import time

import motherlode
from motherlode.core.agent import RandomAgent
from motherlode.games.eldorado.bot import GreedyAgent
from motherlode.games.eldorado.game import Eldorado, EldoradoState

CONFIGS = [
    *({"players": 2, "map": m, "hard": h} for m in (1, 2, 3, 4) for h in (False, True)),
    {"players": 1, "map": 1, "hard": False},
    {"players": 3, "map": 2, "hard": False},
    {"players": 4, "map": 4, "hard": True},
]


def random_playouts(config: dict[str, object], games: int, seed: int = 0) -> str:
    game = motherlode.load("eldorado", **config)
    rng = random.Random(seed)
    decisions = actions = rounds = entered = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, EldoradoState)
        while not state.is_terminal():
            if state.is_chance_node():
                a = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                a = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply_unchecked(a)
            actions += 1
        rounds += state.round
        entered += any(state.entered(p) for p in range(game.num_players))
    dt = time.perf_counter() - start
    name = " ".join(f"{k}={v}" for k, v in config.items())
    return (f"{name:<28} {games / dt:8.1f} games/s {decisions / dt:10.0f} decisions/s"
            f" {actions / dt:10.0f} actions/s  {decisions / games:6.1f} dec/game"
            f" {rounds / games:5.1f} rounds  entered {entered / games:4.0%}")


def greedy_speed(games: int) -> str:
    game = motherlode.load("eldorado", players=2, map=3, hard=True)
    assert isinstance(game, Eldorado)
    rng = random.Random(1)
    total = 0.0
    moves = 0
    for i in range(games):
        agents = [GreedyAgent(game, seed=i), RandomAgent(seed=i)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            p = state.current_player()
            t = time.perf_counter()
            a = agents[p].act(state)
            if p == 0:
                total += time.perf_counter() - t
                moves += 1
            state.apply_unchecked(a)
    return f"greedy (map 3 hard, vs random): {1000 * total / moves:.2f} ms/decision over {moves}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random playouts per config")
    parser.add_argument("--greedy-games", type=int, default=5, help="games timing greedy")
    args = parser.parse_args()
    print(f"El Dorado random playouts, {args.games} games per config (one core):")
    for config in CONFIGS:
        print(random_playouts(config, args.games), flush=True)
    if args.greedy_games:
        print(greedy_speed(args.greedy_games))


if __name__ == "__main__":
    main()

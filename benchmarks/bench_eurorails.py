"""Eurorails benchmark: the content layer, then the rules engine and the greedy bot.

``python benchmarks/bench_eurorails.py [--games N] [--skip-content]`` prints: content load
and route times; decisions/s and games/s under uniform random play (3 players, the default
200-round tournament limit); seconds per whole 4-player game of greedy bots; and greedy
against random (3 players, greedy in seat 1).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from motherlode.games.eurorails import content as content_mod
from motherlode.games.eurorails import mapdata
from motherlode.games.eurorails.content import ContentConfig, load_content
from motherlode.games.eurorails.render import map_svg


def timed(label: str, fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    print(f"{label:<46} {per * 1000:9.2f} ms")
    return per


def engine(games: int) -> None:
    """Random-play throughput, a greedy 4-player game, greedy vs random."""
    from motherlode.core.agent import RandomAgent
    from motherlode.games.eurorails.bot import GreedyAgent
    from motherlode.games.eurorails.game import EurorailsGame

    g = EurorailsGame.from_config(players=3)
    decisions = actions = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                a = s.sample_chance(rng)
            else:
                legal = s.legal_actions()
                a = legal[rng.randrange(len(legal))]
                decisions += 1
            s.apply_unchecked(a)
            actions += 1
    took = time.perf_counter() - start
    print(f"{'random play, 3 players: decisions/s':<46} {decisions / took:9.0f}")
    print(f"{'random play, 3 players: actions/s':<46} {actions / took:9.0f}")
    print(f"{'random play, 3 players: games/s':<46} {games / took:9.2f}")

    g4 = EurorailsGame.from_config(players=4)
    wins = [0] * 4
    per_game = []
    for seed in range(max(1, games // 10)):
        agents = [GreedyAgent(g4, seed=seed * 10 + i) for i in range(4)]
        rng = random.Random(seed)
        s = g4.new_initial_state()
        start = time.perf_counter()
        while not s.is_terminal():
            a = s.sample_chance(rng) if s.is_chance_node() else agents[s.current_player()].act(s)
            s.apply_unchecked(a)
        per_game.append(time.perf_counter() - start)
        for w in s.winners():
            wins[w] += 1
        print(
            f"  greedy x4 game {seed}: {per_game[-1]:.1f} s, rounds {s.normal_round()},"
            f" cash {s.cash}, winners {[w + 1 for w in s.winners()]},"
            f" 250+7 reached: {s.normal_round() < g4.cfg.turn_limit}"
        )
    print(f"{'greedy x4: seconds per game':<46} {sum(per_game) / len(per_game):9.1f}")

    won = 0
    n = max(1, games // 10)
    for seed in range(n):
        agents = [GreedyAgent(g, seed=seed), RandomAgent(seed=seed), RandomAgent(seed=seed + 1)]
        rng = random.Random(100 + seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            a = s.sample_chance(rng) if s.is_chance_node() else agents[s.current_player()].act(s)
            s.apply_unchecked(a)
        won += s.winners() == (0,)
    print(f"{'greedy vs 2 random: greedy wins':<46} {won:>6}/{n}")


def main() -> None:
    import sys

    games = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 20
    if "--skip-content" not in sys.argv:
        content()
    engine(games)


def content() -> None:
    path = mapdata.DATA / "map.json"
    timed("load + check map.json (uncached)", lambda: mapdata._load_map(path), 10)
    timed(
        "load + check loads and decks (map cached)",
        lambda: content_mod._load_content(ContentConfig()),
        5,
    )
    m = load_content().map

    def table() -> None:
        mapdata._load_map(path).distance_table()  # a fresh map: its chart is not cached yet

    timed("load map + 60 x 60 city distance chart", table, 3)
    rng = random.Random(0)
    sources = [rng.randrange(len(m)) for _ in range(200)]
    per = timed(
        "one-source shortest routes (bucket queue)", lambda: m.distances_from(sources.pop()), 200
    )
    print(f"{'  = routes/s':<46} {1 / per:9.0f}")
    timed("render the map as SVG", lambda: map_svg(m), 3)


if __name__ == "__main__":
    main()

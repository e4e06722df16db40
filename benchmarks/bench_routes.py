"""Eurorails route planning speed: the build planner, the move planner, the reach and a
preview, on a fresh board and in a mid-game position (greedy bots, 3 players). Prints
milliseconds per call (median of the repeats); figures, not limits.

    PYTHONPATH=src python benchmarks/bench_routes.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import motherlode
from motherlode.agents import create
from motherlode.games.eurorails.game import BUILD, OPS, EurorailsState
from motherlode.games.eurorails.routes import place_posts, plan_build, plan_move, reach

PAIRS = [("Paris", "Lyon"), ("Berlin", "Praha"), ("Madrid", "Lisboa"), ("London", "Glasgow")]


def ms(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def mid_game(turns: int, phase: int) -> EurorailsState:
    game = motherlode.load("eurorails", players=3)
    s = motherlode.deal(game, seed=7)
    assert isinstance(s, EurorailsState)
    bots = [create("greedy", game, seed=q) for q in range(3)]
    rng = random.Random(7)
    while not s.is_terminal() and (
        s.turns_done[0] < turns or s.phase != phase or s.current_player() != 0
    ):
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        else:
            s.apply_action(bots[s.current_player()].act(s.clone()))
    return s


def main() -> None:
    fresh = motherlode.deal(motherlode.load("eurorails", players=3), seed=7)
    assert isinstance(fresh, EurorailsState)
    p = fresh.current_player()
    for a, b in PAIRS:
        t = ms(lambda a=a, b=b: plan_build(fresh, p, place_posts(fresh, b), place_posts(fresh, a)))
        print(f"plan_build {a}-{b}, fresh board: {t:.1f} ms")
    mid = mid_game(12, BUILD)
    q = mid.current_player()
    owned = sum(o >= 0 for o in mid.edge_owner)
    for name in ("Lyon", "Wien", "Oslo"):
        t = ms(lambda name=name: plan_build(mid, q, place_posts(mid, name)))
        print(f"plan_build to {name}, mid-game ({owned} segments built): {t:.1f} ms")
    t = ms(lambda: mid.preview("build to Lyon"))
    print(f"preview 'build to Lyon', mid-game: {t:.1f} ms")
    ops = mid_game(13, OPS)
    t = ms(lambda: reach(ops))
    print(f"reach, mid-game operations phase ({len(reach(ops))} mileposts): {t:.1f} ms")
    target = max(place_posts(ops, n)[0] for n in ("Lyon", "Wien", "Oslo", "Berlin"))
    t = ms(lambda: plan_move(ops, [target]))
    print(f"plan_move, mid-game: {t:.1f} ms")


if __name__ == "__main__":
    main()

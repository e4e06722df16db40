"""Batched Chinagold throughput beside the single-game engine, in one process (CPU time).

Run: ``python benchmarks/bench_batched_chinagold.py [--steps S] [--games G]``. Prints, for
the batched numpy engine at batch 1, 64 and 1,024, steps/s (one step = one decision in
each of the N games; the CPU time of ``env.step``, and with the random policy
``env.sample_actions`` added), decisions/s (N x steps/s) and games/s (decisions/s over the
mean game length, games auto-reset), with uniformly random legal moves; beside it the
single-game reference
engine's games/s and decisions/s with random moves (the unchecked apply path, as
``bench_chinagold.py``), and each batch's games/s as a ratio of it. CPU time
(``time.process_time``) of this process; pin it to one core (``taskset -c 0``) and keep
BLAS to one thread (``OMP_NUM_THREADS=1``) for one-core figures. ``--jax`` adds the JAX
backend (``jax.jit`` on JAX's default device; the random policy and the legality check run
on the host, each step copies the mask there).
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

import numpy as np

from motherlode.games.chinagold import ChinagoldGame
from motherlode.research.batched.chinagold import BatchedChinagold


def batched(n: int, steps: int, backend: str = "numpy") -> tuple[float, float, float, float]:
    """(steps/s, decisions/s, games/s, steps/s with the random policy) at batch ``n``.

    steps/s counts the CPU time of ``env.step`` alone; the last figure adds the policy
    (``env.sample_actions``). games/s is decisions/s over the mean length of the games that
    finished (a batch of long games finishes few within the run: this is the steady rate).
    """
    env = BatchedChinagold(n, seed=0, backend=backend)
    rng = np.random.default_rng(0)
    env.reset()
    for _ in range(3):  # warm up (JAX compiles its step here)
        env.step(env.sample_actions(rng))
    finished = lengths = 0
    stepping = policy = 0.0
    length = np.zeros(n, dtype=np.int64)
    for _ in range(steps):
        t0 = time.process_time()
        actions = env.sample_actions(rng)
        t1 = time.process_time()
        out = env.step(actions)
        done = np.asarray(out.done)  # with JAX: waits for the step
        t2 = time.process_time()
        policy += t1 - t0
        stepping += t2 - t1
        length += 1
        finished += int(done.sum())
        lengths += int(length[done].sum())
        length[done] = 0
    per_game = lengths / max(finished, 1)
    decisions = n * steps / stepping
    return steps / stepping, decisions, decisions / per_game, steps / (stepping + policy)


def single(games: int) -> tuple[float, float]:
    """(games/s, decisions/s) of the reference engine with random moves."""
    game = ChinagoldGame.from_config()
    rng = random.Random(0)
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[rng.randrange(len(legal))])
                decisions += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1500, help="steps at batch 1 and 64")
    parser.add_argument("--games", type=int, default=60, help="single-engine games")
    parser.add_argument("--jax", action="store_true", help="also the JAX backend (CPU here)")
    args = parser.parse_args()
    ref_games, ref_decisions = single(args.games)
    print(
        f"single-game engine           {ref_games:10.1f} games/s {ref_decisions:12.0f} decisions/s"
        "  (random moves)"
    )
    backends = ["numpy", "jax"] if args.jax else ["numpy"]
    for backend, n in itertools.product(backends, (1, 64, 1024)):
        steps = max(args.steps // (1 + n // 256), 200)
        sps, dps, gps, with_policy = batched(n, steps, backend)
        print(
            f"batched {backend:<5} N={n:<5} {gps:10.1f} games/s {dps:12.0f} decisions/s"
            f" {sps:9.1f} steps/s ({with_policy:.1f} with the random policy)"
            f"  games/s x{gps / ref_games:.2f} the single engine"
        )


if __name__ == "__main__":
    main()

"""Decisions per second: the raw engine against PettingZoo's ``raw_env`` on the same games.

Both play uniformly random legal moves with chance drawn from the same seeds; the raw
path calls ``legal_actions``/``apply_unchecked``, the env path runs PettingZoo's AEC loop
(``last()`` builds the observation tensor and mask for the agent to move, ``step`` checks
the action). The two alternate game by game, so machine load hits both alike::

    python benchmarks/bench_pettingzoo.py --game yukon --seconds 5
"""

from __future__ import annotations

import argparse
import random
import time

import motherlode
from motherlode.adapters import pettingzoo as mpz


def raw_game(game: motherlode.Game, seed: int) -> int:
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def env_game(env: mpz.MotherlodeEnv, seed: int) -> int:
    rng = random.Random(seed)
    env.reset(seed=seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        decisions += 1
    return decisions


def measure(name: str, seconds: float, **config: object) -> dict[str, float]:
    game = motherlode.load(name, **config)
    env = mpz.raw_env(game)
    raw_t = env_t = 0.0
    raw_n = env_n = 0
    seed = 0
    while raw_t + env_t < seconds or seed < 2:
        start = time.process_time()
        raw_n += raw_game(game, seed)
        raw_t += time.process_time() - start
        start = time.process_time()
        env_n += env_game(env, seed)
        env_t += time.process_time() - start
        seed += 1
    return {"games": seed, "raw": raw_n / raw_t, "env": env_n / env_t}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game (repeatable; default: all)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game, both paths")
    args = parser.parse_args()
    names = args.game or list(motherlode.games())
    print(f"{'game':10} {'games':>6} {'raw decisions/s':>16} {'raw_env decisions/s':>20} ratio")
    for name in names:
        row = measure(name, args.seconds)
        print(
            f"{name:10} {row['games']:6.0f} {row['raw']:16.0f} {row['env']:20.0f}"
            f" 1/{row['raw'] / row['env']:.1f}"
        )


if __name__ == "__main__":
    main()

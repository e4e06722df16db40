"""Seconds a move of each bot level, in CPU time (docs/agents.md, Levels for people).

    python benchmarks/bench_levels.py eureka --players 2 --levels "hard;strongest" --positions 8

Plays one game between greedy bots (deal ``--seed``), takes ``--positions`` decision
points spread over it, and times each level's (or spec's) ``act`` there, a fresh agent
for every position. It prints, per level, the mean and the largest CPU seconds a move
(``time.process_time``, which the load of a shared machine barely changes, unlike the wall
clock; a timed spec such as ``mcts:seconds=1`` is the exception: its budget is the wall
clock). A ``plans`` agent searches only when a choice arises and then plays its plan's moves
at once: a fresh one always searches, so its figure here is the wait at a decision point,
not its mean over a game (most of its moves take no time).
"""

from __future__ import annotations

import argparse
import random
import time

import motherlode
from motherlode.agents import create
from motherlode.core.protocol import State


def positions(game_name: str, players: int, count: int, seed: int) -> list[State]:
    """``count`` decision points spread over one game between greedy bots.

    >>> [s.is_chance_node() for s in positions("yukon", 2, 2, 1)]
    [False, False]
    """
    game = motherlode.load(game_name, players=players)
    bot = create("greedy", game, seed=seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[State] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            if len(state.legal_actions()) > 1:
                seen.append(state.clone())
            action = bot.act(state)
        state.apply_unchecked(action)
    step = max(1, len(seen) // count)
    return seen[step // 2 :: step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", default="hard;strongest", help="levels or specs, ';' between")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = motherlode.load(args.game, players=args.players)
    points = positions(args.game, args.players, args.positions, args.seed)
    for spec in [s for s in args.levels.split(";") if s]:
        cpu: list[float] = []
        wall: list[float] = []
        for i, state in enumerate(points):
            agent = create(spec, game, seed=args.seed + i)
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            agent.act(state)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start_wall)
        print(
            f"{args.game} {args.players}p {spec}: {len(cpu)} positions, CPU mean"
            f" {sum(cpu) / len(cpu):.2f} s, max {max(cpu):.2f} s a move"
            f" (wall mean {sum(wall) / len(wall):.2f} s)"
        )


if __name__ == "__main__":
    main()

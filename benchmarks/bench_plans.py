"""Simulations per second of the ``plans`` agent (MCTS over a bot's plans).

    python benchmarks/bench_plans.py [--game eurorails] [--seconds 2] [--points 4]
                                     [--depth 8 --depth 0] [--json]

For each game whose bot can be steered plan by plan (Eurorails), it plays a game between
its greedy bots and, at ``--points`` decision points where the bot offers two plans or
more (the first, then one at least 400 decisions after the last), searches for about
``--seconds`` with each ``--depth``
(decision points played after the tree; 0: to the end of the game), printing the
simulations per second and the decision points played per simulation.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import motherlode
from motherlode.agents.plans import Planner, PlanSearchAgent
from motherlode.games import registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--points", type=int, default=4)
    parser.add_argument("--depth", type=int, action="append")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    depths = args.depth or [8, 0]
    rows: list[dict[str, Any]] = []
    for name in registry():
        if args.game and name not in args.game:
            continue
        game = motherlode.load(name, players=2)  # the full game (not a conformance config)
        bots = game.bots()
        if "greedy" not in bots or not isinstance(bots["greedy"](game, seed=0), Planner):
            continue
        state = motherlode.deal(game, seed=1)
        players = [bots["greedy"](game, seed=q) for q in range(game.num_players)]
        probe = bots["greedy"](game, seed=9)
        assert isinstance(probe, Planner)
        rng = random.Random(1)
        found = 0
        decisions = 0
        next_at = 0
        while not state.is_terminal() and found < args.points:
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            options = probe.plans(state, 4) if decisions >= next_at else []
            if len(options) >= 2 and decisions >= next_at:
                found += 1
                next_at = decisions + 400
                for depth in depths:
                    agent = PlanSearchAgent(game, seed=0, seconds=args.seconds, depth=depth)
                    start = time.perf_counter()
                    agent._search(state, options)
                    spent = time.perf_counter() - start
                    row = {
                        "game": name,
                        "decisions": decisions,
                        "plans": len(options),
                        "depth": depth,
                        "simulations_per_second": agent.last_search["iterations"] / spent,
                    }
                    rows.append(row)
                    if not args.json:
                        print(
                            f"{name:10} after {decisions:5} decisions  {len(options)} plans"
                            f"  depth {depth:3}  {row['simulations_per_second']:7.1f} sims/s",
                            flush=True,
                        )
            state.apply_unchecked(players[state.current_player()].act(state))
            decisions += 1
    if args.json:
        print(json.dumps({"seconds": args.seconds, "when": time.time(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()

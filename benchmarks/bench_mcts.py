"""MCTS simulations per second for every registered game, from the opening and mid-game.

    python benchmarks/bench_mcts.py [--seconds 1] [--game yukon] [--spec "rollout=none"]
                                    [--json]

For each game (its first conformance config, the 2-player one where there is one: for
Eurorails a game cut short at 5 rounds, so its rollouts to the end are short) it searches
two positions for about ``--seconds`` each: the dealt opening, and a mid-game position
reached by random moves (half the decisions of a random game, then on to the first
position with a choice). It prints the
simulations per second of MCTS with random rollouts to the end, with rollouts cut at 20
decisions, and with no rollout (the heuristic judges each new leaf), plus the positions
per second of the alpha-beta searcher for 2-player games. A spec given with ``--spec``
(``key=value`` pairs of the mcts agent) replaces the MCTS variants.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import motherlode
from motherlode.agents import create
from motherlode.agents.mcts import MCTSAgent
from motherlode.agents.search import AlphaBetaAgent
from motherlode.core.protocol import Game, State
from motherlode.games import registry

VARIANTS = {
    "random": "mcts:rollout=random",
    "depth20": "mcts:rollout=random,depth=20",
    "leaf": "mcts:rollout=none",
}


def positions(game: Game, seed: int = 1) -> dict[str, State]:
    """The opening and a mid-game position of ``game``."""
    rng = random.Random(seed)
    opening = motherlode.deal(game, seed=seed)
    probe = opening.clone()
    decisions = 0
    while not probe.is_terminal():
        if probe.is_chance_node():
            probe.apply_unchecked(probe.sample_chance(rng))
        else:
            legal = probe.legal_actions()
            probe.apply_unchecked(legal[rng.randrange(len(legal))])
            decisions += 1
    rng = random.Random(seed)
    mid = opening.clone()
    made = 0
    # on past the half-way decision to the first real choice (a chance node or a forced
    # move has nothing to search)
    while not mid.is_terminal() and (
        made < decisions // 2 or mid.is_chance_node() or len(mid.legal_actions()) < 2
    ):
        if mid.is_chance_node():
            mid.apply_unchecked(mid.sample_chance(rng))
        else:
            legal = mid.legal_actions()
            mid.apply_unchecked(legal[rng.randrange(len(legal))])
            made += 1
    return {"opening": opening, "midgame": mid}


def sims_per_second(game: Game, state: State, spec: str, seconds: float) -> float:
    """Simulations per second, after an untimed warm-up search of a quarter of the time."""
    create(f"{spec},seconds={seconds / 4},reuse=false", game, seed=0).act(state)
    agent = create(f"{spec},seconds={seconds},reuse=false", game, seed=0)
    assert isinstance(agent, MCTSAgent)
    agent.act(state)
    return float(agent.last_search["iterations"]) / max(float(agent.last_search["seconds"]), 1e-9)


def nodes_per_second(game: Game, state: State, seconds: float) -> float:
    AlphaBetaAgent(game, seed=0, seconds=seconds / 4).act(state)  # warm-up, untimed
    agent = AlphaBetaAgent(game, seed=0, seconds=seconds)
    agent.act(state)
    return float(agent.last_search["nodes"]) / max(float(agent.last_search["seconds"]), 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--spec", help="mcts parameters, e.g. rollout=greedy,depth=10")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--compare", metavar="REF", help="also run on git revision REF")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    variants = {args.spec: f"mcts:{args.spec}"} if args.spec else VARIANTS
    rows: list[dict[str, Any]] = []
    for name, cls in registry().items():
        if args.game and name not in args.game:
            continue
        configs = cls.conformance_configs()
        config = next((c for c in configs if c.get("players") == 2), configs[0])
        game = motherlode.load(name, **config)
        for where, state in positions(game).items():
            if state.is_terminal() or len(state.legal_actions()) < 2:
                continue
            row: dict[str, Any] = {
                "game": name,
                "config": config,
                "position": where,
                "legal": len(state.legal_actions()),
            }
            for label, spec in variants.items():
                row[label] = sims_per_second(game, state, spec, args.seconds)
            if game.num_players == 2:
                row["alphabeta_nodes"] = nodes_per_second(game, state, args.seconds)
            rows.append(row)
            if not args.json:
                figures = "  ".join(
                    f"{k} {row[k]:8.0f}/s" for k in (*variants, "alphabeta_nodes") if k in row
                )
                print(f"{name:10} {where:8} legal {row['legal']:4}  {figures}", flush=True)
    if args.json:
        print(json.dumps({"seconds": args.seconds, "when": time.time(), "rows": rows}, indent=1))


def compare(args: argparse.Namespace) -> None:
    """This checkout's figures beside REF's, the same load, alternating game by game."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from compare import ROOT, checkout, ratio, run_json

    old_src = checkout(args.compare)
    script = Path(__file__).resolve()
    print(f"this checkout against {args.compare} (simulations or nodes per second)")
    for name in args.game or list(registry()):
        extra = ["--game", name, "--seconds", str(args.seconds)]
        if args.spec:
            extra += ["--spec", args.spec]
        new = run_json(ROOT / "src", script, extra)
        old = {r["position"]: r for r in run_json(old_src, script, extra)}
        for r in new:
            o = old.get(r["position"], {})
            keys = [k for k in r if isinstance(r[k], float)]
            figures = "  ".join(
                f"{k} {r[k]:7.0f} vs {o.get(k, 0):7.0f} {ratio(r[k], o.get(k, 0)):>6}"
                for k in keys
            )
            print(f"{name:10} {r['position']:8} {figures}", flush=True)


if __name__ == "__main__":
    main()

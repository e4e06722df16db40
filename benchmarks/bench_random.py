"""Random-playout throughput of every registered game and config, through the protocol.

    python benchmarks/bench_random.py [--seconds 2] [--game yukon] [--json] [--compare REF]

For each config it plays random games (set-up chance included) for about ``--seconds``
and prints games/s and decisions/s (decisions = non-chance actions) on the fast unchecked
path that search agents use, and games/s on the checked path (``apply_action``). Both are
timed warm and alike: a warm-up of a quarter of the budget plays both paths untimed
(per-game memos, caches and the interpreter's specialisation filled), then the two paths
play alternately, game by game, each from its own seeds, so that neither is timed against
a colder memo and neither replays the games the other just played. Time is CPU time of
this process (``time.process_time``), so that other jobs on a shared machine slow neither
side. ``--compare REF`` runs the same load on the git
revision REF in the same sitting, game by game alternately, and prints this checkout's
figures beside REF's and their ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

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


def measure(game: motherlode.Game, seconds: float) -> tuple[float, float, float]:
    """``(games/s, decisions/s)`` on the unchecked path and games/s on the checked one, per
    CPU second: the two paths play alternately, game by game, each from its own stream of
    seeds, after a warm-up of a quarter of ``seconds`` that plays both the same way
    (untimed). So per-game memos (Eureka's reachable hexes fill for minutes) warm up for
    both alike, and neither path replays games the other has just played."""
    clock = time.process_time
    warm_rngs = (random.Random(0), random.Random(100))
    warm = clock() + seconds / 4
    while clock() < warm:
        playout(game, warm_rngs[0], False)
        playout(game, warm_rngs[1], True)
    rngs = (random.Random(1), random.Random(2))
    elapsed = [0.0, 0.0]
    games = [0, 0]
    decisions = 0
    while elapsed[0] < seconds or elapsed[1] < seconds:
        for checked in (False, True):
            if elapsed[checked] >= seconds:
                continue
            start = clock()
            made = playout(game, rngs[checked], checked)
            elapsed[checked] += clock() - start
            games[checked] += 1
            if not checked:
                decisions += made
    return games[0] / elapsed[0], decisions / elapsed[0], games[1] / elapsed[1]


def rows(games: list[str] | None, seconds: float) -> list[dict[str, Any]]:
    out = []
    for name, cls in registry().items():
        if games and name not in games:
            continue
        for cfg in cls.conformance_configs():
            game = motherlode.load(name, **cfg)
            gps, dps, cgps = measure(game, seconds)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            out.append(
                {
                    "game": name,
                    "config": label,
                    "games_s": gps,
                    "decisions_s": dps,
                    "checked_games_s": cgps,
                }
            )
    return out


def compare(ref: str, games: list[str] | None, seconds: float) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from compare import ROOT, checkout, ratio, run_json

    old_src = checkout(ref)
    script = Path(__file__).resolve()
    names = games or list(registry())
    print(f"this checkout against {ref}, the same load, alternating game by game")
    print(
        f"{'game':<10} {'config':<34} {'games/s':>9} {ref[:9]:>9} {'ratio':>6}"
        f" {'checked':>9} {ref[:9]:>9} {'ratio':>6}"
    )
    for name in names:
        args = ["--game", name, "--seconds", str(seconds)]
        new = run_json(ROOT / "src", script, args)
        old = {(r["game"], r["config"]): r for r in run_json(old_src, script, args)}
        for r in new:
            o = old.get((r["game"], r["config"]))
            head = f"{r['game']:<10} {r['config']:<34} {r['games_s']:>9.1f}"
            if o is None:
                print(f"{head}  (no such config in {ref})")
                continue
            checked = ratio(r["checked_games_s"], o["checked_games_s"])
            print(
                f"{head} {o['games_s']:>9.1f} {ratio(r['games_s'], o['games_s']):>6}"
                f" {r['checked_games_s']:>9.1f} {o['checked_games_s']:>9.1f} {checked:>6}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--compare", metavar="REF", help="also run on git revision REF")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare, args.game, args.seconds)
        return
    if args.json:
        print(json.dumps(rows(args.game, args.seconds)))
        return
    print(f"{'game':<10} {'config':<40} {'games/s':>10} {'decisions/s':>12} {'checked g/s':>12}")
    for name in args.game or list(registry()):
        for r in rows([name], args.seconds):
            print(
                f"{r['game']:<10} {r['config']:<40} {r['games_s']:>10.1f}"
                f" {r['decisions_s']:>12.0f} {r['checked_games_s']:>12.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()

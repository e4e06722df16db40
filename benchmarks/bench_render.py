"""How fast each game draws its board as layers, how big each layer is, how much one move
changes (DESIGN.md §3b).

    python benchmarks/bench_render.py [--positions 200] [--game yukon] [--json] [--compare REF]

For each game (its first conformance config), ``--positions`` positions are taken from
seeded random games; each is drawn with ``state.render_layers(seat)`` for every seat and a
spectator. Printed: milliseconds per ``render_layers`` call, the mean bytes of the static,
public and seat layers, and, between consecutive versions of a game (one action apart),
the median number and bytes of public+seat elements that changed, appeared or went (what a
server sends after a move; a game without layers sends its whole board as one element).
``--compare REF`` runs the same load on git revision REF in the same sitting, game by game,
and prints the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import motherlode
from motherlode.games import registry

GAMES = ("yukon", "chinagold", "eureka", "eldorado")


def positions(name: str, count: int, seed: int = 1) -> list[list[motherlode.State]]:
    """Random games of ``name`` (each a list of consecutive decision positions), ``count``
    positions in all."""
    cls = registry()[name]
    cfg = cls.conformance_configs()[0]
    rng = random.Random(seed)
    games: list[list[motherlode.State]] = []
    total = 0
    g = 0
    while total < count:
        state = motherlode.deal(motherlode.load(name, **cfg), seed=seed + g)
        g += 1
        line: list[motherlode.State] = []
        while not state.is_terminal() and total < count:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            line.append(state.clone())
            total += 1
            state.apply_action(rng.choice(state.legal_actions()))
        games.append(line)
    return games


def _diff(old: dict[str, str], new: dict[str, str]) -> tuple[int, int]:
    """How many elements changed, appeared or went, and the bytes a client is sent."""
    changed = [k for k, v in new.items() if old.get(k) != v]
    gone = [k for k in old if k not in new]
    size = sum(len(k) + len(new[k]) for k in changed) + sum(len(k) for k in gone)
    return len(changed) + len(gone), size


def measure(name: str, count: int) -> dict[str, Any]:
    games = positions(name, count)
    flat = [s for line in games for s in line]
    seats: list[int | None] = [None, *range(flat[0].game.num_players)]
    # warm once (per-config caches), then time every seat of every position
    for seat in seats:
        flat[0].render_layers(seat)
    calls = 0
    sizes = {"static": 0, "public": 0, "seat": 0}
    start = time.perf_counter()
    for state in flat:
        for seat in seats:
            state.render_layers(seat)
            calls += 1
    elapsed = time.perf_counter() - start
    for state in flat:
        for seat in seats:
            layers = state.render_layers(seat)
            sizes["static"] += len(layers.static)
            sizes["public"] += sum(len(m) for _, m in layers.public)
            sizes["seat"] += sum(len(m) for _, m in layers.seat)
    counts: list[int] = []
    nbytes: list[int] = []
    for line in games:
        for viewer in seats:
            prev: dict[str, str] | None = None
            for state in line:
                now = state.render_layers(viewer).elements()
                if prev is not None:
                    n, b = _diff(prev, now)
                    counts.append(n)
                    nbytes.append(b)
                prev = now
    return {
        "game": name,
        "ms_per_render": 1000 * elapsed / calls,
        "static_bytes": sizes["static"] / calls,
        "public_bytes": sizes["public"] / calls,
        "seat_bytes": sizes["seat"] / calls,
        "diff_elements": statistics.median(counts) if counts else 0,
        "diff_bytes": statistics.median(nbytes) if nbytes else 0,
    }


def rows(games: list[str] | None, count: int) -> list[dict[str, Any]]:
    return [measure(name, count) for name in (games or GAMES)]


HEAD = (
    f"{'game':<10} {'ms/render':>9} {'static B':>9} {'public B':>9} {'seat B':>8}"
    f" {'diff els':>8} {'diff B':>8}"
)


def line(r: dict[str, Any]) -> str:
    return (
        f"{r['game']:<10} {r['ms_per_render']:>9.3f} {r['static_bytes']:>9.0f}"
        f" {r['public_bytes']:>9.0f} {r['seat_bytes']:>8.0f} {r['diff_elements']:>8.0f}"
        f" {r['diff_bytes']:>8.0f}"
    )


def compare(ref: str, games: list[str] | None, count: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from compare import ROOT, checkout, ratio, run_json

    old_src = checkout(ref)
    script = Path(__file__).resolve()
    print(f"this checkout against {ref}, the same positions, alternating game by game")
    print(f"{'':<10} {'':>9} {'speed-up':>9} {'':>9} {'diff B':>9} {'diff B':>9} {'smaller':>8}")
    print(
        f"{'game':<10} {'ms/render':>9} {ref[:9]:>9} {'ratio':>9} {'':>9} {ref[:9]:>9} {'ratio':>8}"
    )
    for name in games or GAMES:
        args = ["--game", name, "--positions", str(count)]
        new = run_json(ROOT / "src", script, args)[0]
        old = run_json(old_src, script, args)[0]
        print(
            f"{name:<10} {new['ms_per_render']:>9.3f} {old['ms_per_render']:>9.3f}"
            f" {ratio(old['ms_per_render'], new['ms_per_render']):>9}"
            f" {new['diff_bytes']:>9.0f} {old['diff_bytes']:>9.0f}"
            f" {ratio(old['diff_bytes'], new['diff_bytes']):>8}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--game", action="append", choices=GAMES, help="only these games")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--compare", metavar="REF", help="also run on git revision REF")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare, args.game, args.positions)
        return
    if args.json:
        print(json.dumps(rows(args.game, args.positions)))
        return
    print(HEAD)
    for name in args.game or GAMES:
        print(line(measure(name, args.positions)), flush=True)


if __name__ == "__main__":
    main()

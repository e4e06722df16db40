"""How big the Eurorails board is on the wire, layer by layer, and how fast it is drawn.

``python benchmarks/bench_eurorails_board.py [--agents greedy] [--players 3] [--steps 600]
[--seed 1] [--profile]`` plays one seeded game (greedy bots by default; ``random`` for
uniform random moves) and, at every decision, draws the board for the seat to move
(``render_layers``) and prints:

- the static layer (sent once and cached), raw and gzip-compressed;
- the public + seat layers (what a full snapshot carries besides the static layer);
- the change from the previous version to this one for that seat (a diff: every element
  whose markup changed or appeared, as ``{"id": markup}`` JSON, plus the ids that went),
  raw and gzip-compressed, which is what a push carries once the server sends diffs;
- the time to draw the layers (median and 95th percentile, ms), and the time to draw the
  whole old single-document board for the same positions.

Sizes are bytes of UTF-8; "gzip" is ``gzip.compress(level 6)`` of that text, a stand-in
for the WebSocket's per-message deflate.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import pstats
import random
import statistics
import time

import motherlode
from motherlode import agents as agent_specs
from motherlode.core.svg import Layers


def _gz(text: str) -> int:
    return len(gzip.compress(text.encode(), compresslevel=6))


def _diff(old: dict[str, str] | None, new: dict[str, str]) -> str:
    """The elements that changed from ``old`` to ``new``, as the JSON a push would carry."""
    if old is None:
        return json.dumps({"set": new, "gone": []})
    changed = {k: v for k, v in new.items() if old.get(k) != v}
    gone = [k for k in old if k not in new]
    return json.dumps({"set": changed, "gone": gone})


def _figures(label: str, xs: list[float], unit: str = "B") -> None:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    print(
        f"{label:<44} median {statistics.median(xs):>9.1f} {unit}  p95 {p95:>9.1f} {unit}"
        f"  max {xs[-1]:>9.1f} {unit}"
    )


def run(agents: str, players: int, steps: int, seed: int) -> None:
    game = motherlode.load("eurorails", players=players)
    state = motherlode.deal(game, seed=seed)
    bots = [agent_specs.create(agents, game, seed=seed + k) for k in range(players)]
    rng = random.Random(seed)
    last: dict[int, dict[str, str]] = {}
    layers_raw: list[float] = []
    layers_gz: list[float] = []
    diff_raw: list[float] = []
    diff_gz: list[float] = []
    t_layers: list[float] = []
    t_board: list[float] = []
    static = ""
    decisions = 0
    while not state.is_terminal() and decisions < steps:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        start = time.perf_counter()
        layers: Layers = state.render_layers(seat)
        t_layers.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        layers.compose()
        t_board.append((time.perf_counter() - start) * 1000 + t_layers[-1])
        static = layers.static
        elements = layers.elements()
        snapshot = json.dumps(elements)
        layers_raw.append(len(snapshot.encode()))
        layers_gz.append(_gz(snapshot))
        diff = _diff(last.get(seat), elements)
        diff_raw.append(len(diff.encode()))
        diff_gz.append(_gz(diff))
        last[seat] = elements
        state.apply_action(bots[seat].act(state))
        decisions += 1
    print(
        f"Eurorails board, {players} players, {agents} bots, seed {seed}: {decisions} decisions"
        f" (round {state.observation(None)['round'] + 1} reached)"
    )
    sizes = f"{len(static.encode()):>9} B raw  {_gz(static):>9} B gzip"
    print(f"{'static layer (once, cached)':<44} {sizes}")
    _figures("public + seat layers, raw", layers_raw)
    _figures("public + seat layers, gzip", layers_gz)
    _figures("change since that seat's last version, raw", diff_raw)
    _figures("change since that seat's last version, gzip", diff_gz)
    _figures("draw the layers", t_layers, "ms")
    _figures("draw and compose the whole board", t_board, "ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the run, top 15")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(run, args.agents, args.players, args.steps, args.seed)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(15)
    else:
        run(args.agents, args.players, args.steps, args.seed)


if __name__ == "__main__":
    main()

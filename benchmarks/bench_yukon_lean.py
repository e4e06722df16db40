"""Yukon base 2p random playouts through the protocol beside the lean loop (the yardstick).

    python benchmarks/bench_yukon_lean.py [--rounds 8] [--lean ../shared/bench/yukon_lean.py]

Both run in this one process, alternating in rounds of 0.4 s of CPU time each (process
time, not wall clock, so that a loaded machine slows both alike), and the medians are
printed: the lean loop's games/s, ours on the unchecked path (``apply_unchecked``, what
search agents use) as a fraction of it, and our checked path (``apply_action``) as a
fraction of our unchecked one. The issue's targets: 1/2 and 2/3.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import motherlode

sys.path.insert(0, str(Path(__file__).parent))
from bench_random import playout

LEAN = Path(__file__).resolve().parents[2] / "shared" / "bench" / "yukon_lean.py"


def rate(play: Callable[[random.Random], object], seconds: float) -> float:
    """Games per CPU second of ``play`` for about ``seconds`` of CPU time (seeded)."""
    rng = random.Random(1)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play(rng)
        games += 1
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--lean", type=Path, default=LEAN)
    args = parser.parse_args()
    if not args.lean.is_file():
        sys.exit(f"no lean loop at {args.lean} (pass --lean PATH)")
    spec = importlib.util.spec_from_file_location("yukon_lean", args.lean)
    assert spec is not None and spec.loader is not None
    lean = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lean)
    game = motherlode.load("yukon", players=2, expansion=False)
    runs: dict[str, Callable[[random.Random], object]] = {
        "lean": lean.play,
        "unchecked": lambda rng: playout(game, rng, False),
        "checked": lambda rng: playout(game, rng, True),
    }
    for play in runs.values():  # warm: memos and the interpreter's specialisation
        rate(play, 0.2)
    figures: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, play in runs.items():
            figures[name].append(rate(play, 0.4))
    lean_gps, ours, checked = (statistics.median(figures[n]) for n in runs)
    print(f"lean loop            {lean_gps:9.0f} games per CPU second")
    print(f"ours, unchecked      {ours:9.0f}  {ours / lean_gps:.3f} of the lean loop (target 0.5)")
    print(f"ours, checked        {checked:9.0f}  {checked / ours:.3f} of unchecked (target 0.667)")


if __name__ == "__main__":
    main()

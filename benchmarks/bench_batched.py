"""The batched engines' throughput beside the single-game engine and the C reference.

    python benchmarks/bench_batched.py --game yukon [--batches 1,64,1024] [--seconds 1]
        [--rounds 3] [--backend numpy] [--players 2] [--expansion]
        [--ref ../shared/bench/yukon_ref.c]

On one core (the process pins itself to core 0 where the OS allows) and in CPU time
(``time.process_time``: all of the process's threads, so a loaded machine slows every
figure alike), for each batch size N it steps N random games (a uniformly random legal
action per row, chosen by the engine's ``sample_actions``, is part of the figure) and
prints:

* steps/s: decisions per CPU second over all rows (N per ``step`` call);
* games/s: games finished per CPU second (auto-reset deals the next one in the row);
* engine games/s: the same with the time of choosing the random actions left out;
* each with observations (the ``(N, ...)`` tensors every step) and without
  (``observations=False``: masks, turns and rewards only, what a playout needs).

Beside them, in the same process and rounds: the single-game engine (``motherlode.load``,
random moves through the protocol's unchecked path, the set-up's chance included), and,
where ``cc`` compiles the C reference, its games per CPU second (the child's CPU time).
"x single" divides by the single engine's plain figure (the issue's target: 10x at 1,024).
``--expansion`` plays Yukon's Townsfolk expansion (both engines; the C reference plays the
base game only). The rounds alternate the runs and the medians are printed. A game is one entry of
``GAMES``: the batched engine's class, the reference's config and the random policy.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# one core: BLAS must not start threads of its own (they would share the pinned core and
# their CPU time would count; Chinagold's area counts are a matrix product)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import motherlode  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_random import playout  # noqa: E402

REF = Path(__file__).resolve().parents[2] / "shared" / "bench" / "yukon_ref.c"


def random_legal(mask: Any, rng: np.random.Generator) -> Any:
    """A uniformly random legal action per row of any mask (the default policy)."""
    m = np.asarray(mask)
    return np.argmax(rng.random(m.shape, dtype=np.float32) * m, axis=1)


def own_policy(env: Any) -> Callable[..., Any]:
    """The engine's own random player (``env.sample_actions(rng)``), else :func:`random_legal`."""
    sample = getattr(env, "sample_actions", None)
    if sample is None:
        return random_legal
    return lambda _mask, rng: sample(rng)


@dataclass(frozen=True)
class Entry:
    """One game of the benchmark: ``module.cls(n, seed=..., backend=..., **config)``."""

    module: str
    cls: str
    config: dict[str, Any] = field(default_factory=dict)  # for both engines
    policy: str | None = None  # a ``random_actions(mask, rng)`` of the module (else own_policy)
    ref: Path | None = None  # a C reference: prints "... games/s"


GAMES: dict[str, Entry] = {
    "yukon": Entry(
        "motherlode.research.batched.yukon",
        "BatchedYukon",
        {"players": 2},
        None,
        REF,
    ),
    "chinagold": Entry("motherlode.research.batched.chinagold", "BatchedChinagold"),
}


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {0})
            return "pinned to core 0"
        except OSError:
            pass
    return "not pinned"


def batched_rate(env: Any, policy: Callable[..., Any], seconds: float) -> tuple[float, ...]:
    """``(steps/s, games/s, engine-only games/s, step calls/s)`` for ``seconds`` of CPU, and
    on until as many games have ended as there are rows (a window shorter than a game
    would count too few ends)."""
    rng = np.random.default_rng(1)
    step = env.reset()
    for _ in range(5):  # warm: the JAX backend compiles here
        step = env.step(policy(step.mask, rng))
    calls = games = 0
    in_step = 0.0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds or games < env.n:
        actions = policy(step.mask, rng)
        t = clock()
        step = env.step(actions)
        games += int(np.asarray(step.done).sum())  # also waits for an asynchronous backend
        in_step += clock() - t
        calls += 1
    elapsed = clock() - start
    n = env.n
    return calls * n / elapsed, games / elapsed, games / in_step, calls / elapsed


def tensor_playout(game: motherlode.Game, rng: random.Random) -> None:
    """A random game that also builds the mover's tensor at every decision."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])


def single_rate(game: motherlode.Game, seconds: float, tensors: bool) -> float:
    """Games per CPU second of the single-game engine, random moves, unchecked path (and
    the mover's tensor at each decision with ``tensors``)."""
    rng = random.Random(1)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        if tensors:
            tensor_playout(game, rng)
        else:
            playout(game, rng, False)
        games += 1
    return games / (time.process_time() - start)


def c_rate(source: Path, games: int) -> float | None:
    """The C reference's games per CPU second, or ``None`` where it cannot be built."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not source.is_file():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "ref"
        subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([str(exe), str(games)], check=True, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not re.search(r"games/s", out.stdout) or cpu <= 0:
        return None
    return games / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="yukon")
    parser.add_argument("--batches", default="1,64,1024")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backend", default="numpy", choices=["numpy", "jax"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--expansion", action="store_true", help="Yukon: the Townsfolk expansion")
    parser.add_argument("--ref", type=Path, default=None, help="the C reference's source")
    parser.add_argument("--ref-games", type=int, default=300_000)
    args = parser.parse_args()
    entry = GAMES[args.game]
    try:
        module = importlib.import_module(entry.module)
    except ImportError:
        sys.exit(f"{args.game}: no batched engine here ({entry.module} is missing)")
    config = dict(entry.config)
    if args.players is not None:
        config["players"] = args.players
    if args.expansion:
        if args.game != "yukon":
            sys.exit("--expansion is Yukon's Townsfolk expansion")
        config["expansion"] = True
    policy = getattr(module, entry.policy) if entry.policy else None
    batches = [int(b) for b in args.batches.split(",")]
    pinned = pin_one_core()
    cls = getattr(module, entry.cls)
    envs = {
        (n, obs): cls(n, seed=0, backend=args.backend, observations=obs, **config)
        for obs in (True, False)
        for n in batches
    }
    game = motherlode.load(args.game, **config)
    figures: dict[tuple[int, bool], list[tuple[float, ...]]] = {k: [] for k in envs}
    single: list[float] = []
    single_tensors: list[float] = []
    for _ in range(args.rounds):
        single.append(single_rate(game, args.seconds, False))
        single_tensors.append(single_rate(game, args.seconds, True))
        for key, env in envs.items():
            figures[key].append(batched_rate(env, policy or own_policy(env), args.seconds))
    ref = args.ref or entry.ref
    if ref is not None and config != entry.config:
        print(f"(the C reference plays {entry.config} only: not run)")
        ref = None
    c = c_rate(ref, args.ref_games) if ref is not None else None
    one = statistics.median(single)
    print(
        f"{args.game} {config}, {args.backend} backend, CPU time, {pinned},"
        f" medians of {args.rounds} rounds of {args.seconds:g} s"
    )
    head = f"{'batch':>6} {'obs':>4} {'steps/s':>11} {'games/s':>10} {'engine games/s':>15}"
    print(f"{head} {'x single':>9} {'engine x single':>16}")
    for (n, obs), runs in figures.items():
        steps, games, engine, _calls = (statistics.median(f[i] for f in runs) for i in range(4))
        print(
            f"{n:>6} {'yes' if obs else 'no':>4} {steps:>11,.0f} {games:>10,.0f} {engine:>15,.0f}"
            f" {games / one:>8.1f}x {engine / one:>15.1f}x"
        )
    print(f"single-game engine (random moves, unchecked): {one:,.0f} games/s")
    print(
        "single-game engine, building the mover's tensor at each decision:"
        f" {statistics.median(single_tensors):,.0f} games/s"
    )
    if c is not None:
        print(f"C reference {ref.name if ref else ''}: {c:,.0f} games/s")
    elif ref is not None:
        print(f"C reference {ref}: not built (no cc or no source)")


if __name__ == "__main__":
    main()

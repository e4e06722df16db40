"""CPU per decision of the observation tensor (what PettingZoo's env asks on every one).

Plays seeded random games, keeps every decision's position (in play order, as an env
meets them: caches start cold), then times ``observation_tensor`` of the seat to move
over them. CPU time (``time.process_time``), three passes, the first printed apart (the
one play sees; the later ones meet warm caches)::

    python benchmarks/bench_tensors.py --game eldorado --game eurorails

To compare with another revision, run this same script against that revision's engine:
``git archive REV src | tar -x -C /tmp/rev`` and ``PYTHONPATH=/tmp/rev/src python
benchmarks/bench_tensors.py ...`` in the same sitting.
"""

from __future__ import annotations

import argparse
import random
import time

import motherlode
from motherlode.core.protocol import State


def positions(game: motherlode.Game, count: int) -> list[State]:
    """``count`` decision positions of seeded random games, in play order."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            out.append(state.clone())
            state.apply_unchecked(rng.choice(state.legal_actions()))
    return out


def per_decision(states: list[State]) -> float:
    """Microseconds of CPU per position for the tensor of the seat to move."""
    start = time.process_time()
    for state in states:
        state.observation_tensor(state.current_player())
    return (time.process_time() - start) / len(states) * 1e6


def measure(name: str, count: int) -> dict[str, float]:
    states = positions(motherlode.load(name), count)
    first = per_decision(states)
    warm = min(per_decision(states) for _ in range(2))
    return {"positions": len(states), "first": first, "warm": warm}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game (repeatable; default: all)")
    parser.add_argument("--positions", type=int, default=4000, help="decisions per game")
    args = parser.parse_args()
    names = args.game or list(motherlode.games())
    print(f"{'game':10} {'positions':>9} {'tensor us':>10} {'warm us':>8}")
    for name in names:
        row = measure(name, args.positions)
        print(f"{name:10} {row['positions']:9.0f} {row['first']:10.1f} {row['warm']:8.1f}")


if __name__ == "__main__":
    main()

"""Seeded random games of every game and config, recorded before a speed change and
replayed after it (``tests/perf/test_replay.py``): the same seed must give the same game.

    PYTHONPATH=src python -m tests.perf.record      # rewrites tests/perf/games.json

Each game is a random playout (``random.Random(seed)``: chance by ``sample_chance``, each
decision uniform over ``legal_actions()``). What is kept per game: its length, its final
scores, and a SHA-256 digest of every decision's legal-action list, every chance node's
outcome list (with probabilities) and every action taken, so a change in any legal list
or chance distribution along the way shows, not only a change of outcome.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import motherlode
from motherlode.games import registry

HERE = Path(__file__).parent
GAMES = HERE / "games.json"
PER_CONFIG = 20


def play(game: motherlode.Game, seed: int, checked: bool) -> dict[str, Any]:
    """One seeded random game: its length, scores and digest (see the module docstring)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    digest = hashlib.sha256()
    apply = state.apply_action if checked else state.apply_unchecked
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            digest.update(repr(outcomes).encode())
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            digest.update(repr(legal).encode())
            action = legal[rng.randrange(len(legal))]
        digest.update(b"%d;" % action)
        apply(action)
    return {
        "seed": seed,
        "length": state.move_number(),
        "scores": state.scores(),
        "digest": digest.hexdigest(),
    }


def configs() -> list[tuple[str, dict[str, Any]]]:
    return [(name, cfg) for name, cls in registry().items() for cfg in cls.conformance_configs()]


def main() -> None:
    out = []
    for name, cfg in configs():
        game = motherlode.load(name, **cfg)
        games = [play(game, seed, checked=False) for seed in range(PER_CONFIG)]
        out.append({"game": name, "config": cfg, "games": games})
        print(name, cfg, flush=True)
    GAMES.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()

"""Record playthroughs: ``python -m tests.tools.playthroughs`` (re)writes ``tests/playthroughs/``.

A playthrough (as OpenSpiel keeps them) is a whole game between built-in agents, agent
``i`` seeded ``seed + 1000 * i`` (the convention of ``motherlode play``), kept with, for the
initial state and after every step: the step's action text, who was to move, and for every
seat and the spectator the digest of its observation (sha256 of the canonical JSON) and of
its observation tensor (sha256 of dtype, shape and bytes); and the final scores and returns.
``tests/playthroughs/test_playthroughs.py`` re-plays the actions and requires every digest,
the scores and the returns to match, so any change to what a seat is shown (a leak, a lost
field, a reordered tensor plane) fails a test, and, when intended, shows as a reviewed diff
of these files after regenerating them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.protocol import State

TESTS = Path(__file__).resolve().parents[1]
PLAYTHROUGHS = TESTS / "playthroughs"

GAMES: list[tuple[str, dict[str, Any], list[str], int]] = [
    # (game, config, agents, seed): two small games of each (at least), random play and the bots
    ("chinagold", {"max_turns": 40}, ["random", "random"], 61),
    ("chinagold", {"first_player": 1, "max_turns": 40}, ["greedy", "random"], 62),
    ("eldorado", {"players": 1, "map": 1}, ["greedy"], 71),
    ("eldorado", {"players": 2, "map": 2, "hard": True}, ["random", "greedy"], 72),
    ("eureka", {"players": 2, "max_turns": 40}, ["random", "greedy"], 81),
    ("eureka", {"players": 3, "max_turns": 30}, ["greedy", "random", "random"], 82),
    ("eurorails", {"players": 2, "turn_limit": 4}, ["random", "greedy"], 91),
    ("eurorails", {"players": 3, "turn_limit": 4, "open_hands": False}, ["random"] * 3, 92),
    # a third: the Additional Trains challenge shows a second train in every view
    ("eurorails", {"players": 2, "turn_limit": 4, "challenge_additional_trains": True},
     ["greedy", "random"], 93),
    # and two more variants with their own tensor cells: the track-trading offer, the Fast
    # Game's and Four Demand Cards' fourth card (mutmut's survivors in view.tensor)
    ("eurorails", {"players": 3, "turn_limit": 6, "challenge_track_trading": True},
     ["random"] * 3, 94),
    ("eurorails", {"players": 2, "turn_limit": 4, "four_demand_cards": True, "fast_game": True},
     ["random", "greedy"], 95),
    ("yukon", {"players": 2, "expansion": False}, ["random", "greedy"], 101),
    ("yukon", {"players": 3, "expansion": True}, ["greedy", "random", "random"], 102),
]


def path_for(game: str, config: dict[str, Any], agents: list[str], seed: int) -> Path:
    options = "-".join(f"{k}{v}" for k, v in sorted(config.items())) or "default"
    return PLAYTHROUGHS / f"{game}-{options}-{'-'.join(agents[:2])}-{seed}.json"


def digest_json(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digest_tensor(tensor: np.ndarray) -> str:
    array = np.ascontiguousarray(tensor)
    h = hashlib.sha256(f"{array.dtype.str}{array.shape}".encode())
    h.update(array.tobytes())
    return h.hexdigest()[:16]


def observe(state: State, players: int) -> dict[str, list[str]]:
    """Every seat's and then the spectator's observation and tensor digests."""
    seats: list[int | None] = [*range(players), None]
    return {
        "observation": [digest_json(state.observation(p)) for p in seats],
        "tensor": [digest_tensor(state.observation_tensor(p)) for p in seats],
    }


def trace(game_name: str, config: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    """The observations along ``actions`` (action texts), from the initial state on."""
    game = motherlode.load(game_name, **config)
    state = game.new_initial_state()
    players = game.num_players
    steps: list[dict[str, Any]] = [{"action": None, "by": None, **observe(state, players)}]
    for text in actions:
        by = state.current_player()
        state.apply_string(text)
        steps.append({"action": text, "by": int(by), **observe(state, players)})
    assert state.is_terminal(), f"{game_name} {config}: not over after its actions"
    return {
        "scores": [float(s) for s in state.scores()],
        "returns": [float(r) for r in state.returns()],
        "steps": steps,
    }


def record(game_name: str, config: dict[str, Any], agents: list[str], seed: int) -> dict[str, Any]:
    game = motherlode.load(game_name, **config)
    players = [create(spec, game, seed=seed + 1000 * i) for i, spec in enumerate(agents)]
    actions = play_game(game, players, seed).record.actions
    return {
        "game": game_name,
        "config": config,
        "agents": agents,
        "seed": seed,
        **trace(game_name, config, list(actions)),
    }


def dump(data: dict[str, Any]) -> str:
    """One step a line, so that a changed step is a one-line diff."""
    head = {k: v for k, v in data.items() if k != "steps"}
    lines = [json.dumps(step, separators=(",", ":")) for step in data["steps"]]
    text = json.dumps(head, indent=1)[:-2]
    return text + ',\n "steps": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main() -> None:
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for game, config, agents, seed in GAMES:
        path = path_for(game, config, agents, seed)
        data = record(game, config, agents, seed)
        path.write_text(dump(data))
        steps = len(data["steps"]) - 1
        print(f"{path.relative_to(TESTS.parent)}: {steps} steps, {data['returns']}")


if __name__ == "__main__":
    sys.exit(main())

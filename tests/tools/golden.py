"""Record golden games: ``python -m tests.tools.golden`` (re)writes ``tests/<game>/golden/``.

A golden game is a whole game between built-in agents, agent ``i`` seeded
``seed + 1000 * i`` (the convention of ``motherlode play``), kept as its record. The
shared ``tests/test_golden.py`` requires every record to replay to its scores and the same
agents and seed to play it again move for move, so a change that alters any game (a rule,
a bot, the chance stream, a refactor that should change nothing) shows as a failing test
and, when intended, as a reviewed diff of these files after regenerating them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game

TESTS = Path(__file__).resolve().parents[1]

GAMES: list[tuple[str, dict[str, Any], list[str], int]] = [
    # (game, config, agents, seed): every game, its player counts and variants, random
    # play (every corner of the rules) and the greedy bots (their decisions too)
    ("chinagold", {}, ["random", "random"], 11),
    ("chinagold", {"first_player": 1}, ["greedy", "random"], 12),
    ("eldorado", {"players": 1, "map": 1}, ["greedy"], 21),
    ("eldorado", {"players": 2, "map": 2}, ["random", "greedy"], 22),
    ("eldorado", {"players": 4, "map": 4}, ["random", "random", "random", "random"], 23),
    ("eureka", {"players": 2}, ["random", "greedy"], 31),
    ("eureka", {"players": 5, "max_turns": 60}, ["greedy"] * 5, 32),
    ("eurorails", {"players": 2}, ["greedy", "greedy"], 41),
    ("eurorails", {"players": 3, "open_hands": False, "turn_limit": 12}, ["random"] * 3, 42),
    ("yukon", {"players": 3, "expansion": True}, ["random", "greedy", "random"], 51),
]


def record_path(game: str, config: dict[str, Any], agents: list[str], seed: int) -> Path:
    options = "-".join(f"{k}{v}" for k, v in sorted(config.items())) or "default"
    return TESTS / game / "golden" / f"{game}-{options}-{'-'.join(agents[:2])}-{seed}.json"


def play(game_name: str, config: dict[str, Any], agents: list[str], seed: int) -> Any:
    game = motherlode.load(game_name, **config)
    players = [create(spec, game, seed=seed + 1000 * i) for i, spec in enumerate(agents)]
    return play_game(game, players, seed).record


def main() -> None:
    for game, config, agents, seed in GAMES:
        path = record_path(game, config, agents, seed)
        record = play(game, config, agents, seed)
        record.date = "2026-12-01T00:00:00+00:00"  # a fixed date: regenerating changes nothing else
        record.save(path)
        print(f"{path.relative_to(TESTS.parent)}: {len(record.actions)} steps, {record.scores}")


if __name__ == "__main__":
    sys.exit(main())

"""Recorded playthroughs (``tests/playthroughs/*.json``, written by
``python -m tests.tools.playthroughs``): the same agents and seed play the same actions, and
re-playing them gives, at every step, the same observation and tensor digests for every
seat and the spectator, and the same scores and returns. A change to what any seat is shown
therefore fails here; when intended, regenerate and review the diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.games import registry
from tests.tools.playthroughs import GAMES, path_for, trace

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_playthrough_replays_with_the_same_observations(path: Path) -> None:
    data = json.loads(path.read_text())
    game = motherlode.load(data["game"], **data["config"])
    agents = [
        create(spec, game, seed=data["seed"] + 1000 * i) for i, spec in enumerate(data["agents"])
    ]
    actions = [step["action"] for step in data["steps"][1:]]
    assert play_game(game, agents, data["seed"]).record.actions == actions
    again = trace(data["game"], data["config"], actions)
    assert again["scores"] == data["scores"]
    assert again["returns"] == data["returns"]
    for i, (want, got) in enumerate(zip(data["steps"], again["steps"], strict=True)):
        assert got == want, f"step {i} ({want['action']}): observations differ"


def test_every_game_has_two_playthroughs_on_file() -> None:
    assert sorted(FILES) == sorted(path_for(*entry) for entry in GAMES)
    games = [entry[0] for entry in GAMES]
    assert set(games) == set(registry())
    assert all(games.count(g) >= 2 for g in games)

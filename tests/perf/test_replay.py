"""The seeded random games recorded before the engine's speed work (``tests/perf/record.py``)
play again move for move: every legal list, chance distribution, action and final score the
same, on the unchecked path (even seeds) and the checked one (odd seeds)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import motherlode
from tests.perf.record import GAMES, play

RECORDED: list[dict[str, Any]] = json.loads(GAMES.read_text())


@pytest.mark.parametrize(
    "entry", RECORDED, ids=[f"{e['game']}-{i}" for i, e in enumerate(RECORDED)]
)
def test_the_recorded_random_games_play_again_identically(entry: dict[str, Any]) -> None:
    game = motherlode.load(entry["game"], **entry["config"])
    for want in entry["games"]:
        assert play(game, want["seed"], checked=want["seed"] % 2 == 1) == want

"""Golden records of every game (``tests/<game>/golden/*.json``): each must replay to its
scores, and where it was played by built-in agents (agent ``i`` seeded ``seed + 1000 * i``,
as ``motherlode play`` seeds them) the same agents and seed must play it again move for
move. So the same seeds give the same games, whatever is refactored; an intended change of
a game shows as regenerated files (``python -m tests.tools.golden``), reviewed as a diff."""

from __future__ import annotations

from pathlib import Path

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.records import GameRecord, replay
from motherlode.games import registry

TESTS = Path(__file__).parent
GOLDEN = sorted(TESTS.glob("*/golden/*.json"))
IDS = [f"{p.parent.parent.name}/{p.stem}" for p in GOLDEN]


@pytest.mark.parametrize("path", GOLDEN, ids=IDS)
def test_a_golden_record_replays_to_its_scores(path: Path) -> None:
    record = GameRecord.load(path)
    assert record.game == path.parent.parent.name
    state = replay(record)
    assert state.is_terminal()
    assert state.scores() == record.scores


@pytest.mark.parametrize("path", GOLDEN, ids=IDS)
def test_the_same_agents_and_seed_play_the_same_game(path: Path) -> None:
    record = GameRecord.load(path)
    game = motherlode.load(record.game, **record.config)
    assert record.seed is not None and "human" not in record.players
    agents = [
        create(spec, game, seed=record.seed + 1000 * i) for i, spec in enumerate(record.players)
    ]
    again = play_game(game, agents, record.seed).record
    assert again.actions == record.actions
    assert again.scores == record.scores


def test_every_game_has_golden_records() -> None:
    assert {p.parent.parent.name for p in GOLDEN} == set(registry())


def test_yukon_golden_records_cover_both_games_and_every_player_count() -> None:
    configs = {
        (r.config["players"], r.config["expansion"])
        for r in (GameRecord.load(p) for p in GOLDEN if p.parent.parent.name == "yukon")
    }
    assert {(2, False), (4, False), (3, True), (4, True)} <= configs

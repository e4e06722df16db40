"""Golden records: whole games that must replay identically, and bots that must replay them."""

from __future__ import annotations

from pathlib import Path

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.records import GameRecord, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_scores(path: Path) -> None:
    record = GameRecord.load(path)
    state = replay(record)
    assert state.is_terminal()
    assert state.scores() == record.scores


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_the_same_agents_and_seed_play_the_same_game(path: Path) -> None:
    record = GameRecord.load(path)
    game = motherlode.load(record.game, **record.config)
    seed = record.seed
    assert seed is not None
    agents = [create(spec, game, seed=seed + 1000 * i) for i, spec in enumerate(record.players)]
    again = play_game(game, agents, seed).record
    assert again.actions == record.actions
    assert again.scores == record.scores


def test_golden_records_cover_both_games_and_every_player_count() -> None:
    configs = {
        (GameRecord.load(p).config["players"], GameRecord.load(p).config["expansion"])
        for p in GOLDEN
    }
    assert {(2, False), (4, False), (3, True), (4, True)} <= configs

"""Records and strings in notation version 1 (milepost numbers) still read and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import motherlode
from motherlode.core.records import GameRecord, replay
from motherlode.games.eurorails.game import EurorailsState
from motherlode.games.eurorails.places import milepost_name

LEGACY = Path(__file__).parent / "legacy"


@pytest.mark.parametrize("path", sorted(LEGACY.glob("notation1-*.json")), ids=lambda p: p.stem)
def test_a_notation_1_record_replays_and_rewrites_in_names(path: Path) -> None:
    """A record written before places had names (``build 502>464``) replays to its scores;
    written again, the same game reads ``build Berlin-NW>AS25``, and that replays too."""
    record = GameRecord.load(path)
    assert record.versions["notation"] == 1
    assert any(a.startswith("build ") and a[6].isdigit() for a in record.actions)
    state = replay(record)
    assert isinstance(state, EurorailsState)
    again = GameRecord.from_state(state, record.players, record.seed)
    assert again.versions["notation"] == 2
    assert len(again.actions) == len(record.actions)
    assert not any(a.startswith("build ") and a[6].isdigit() for a in again.actions)
    b = state.game.board
    for old, new in zip(record.actions, again.actions, strict=True):
        if old.startswith("build "):
            a, to = old[6:].split(" (")[0].split(">")
            assert new == f"build {milepost_name(b, int(a))}>{milepost_name(b, int(to))}"
    assert replay(again).serialize() == state.serialize()
    assert json.loads(path.read_text())["scores"] == again.scores


def test_notation_1_strings_read_as_before() -> None:
    s = motherlode.deal(motherlode.load("eurorails", players=2), seed=3)
    assert isinstance(s, EurorailsState)
    p = s.turn_player()
    assert s.string_to_action("build 878>924 (Paris)") == s.string_to_action("build Paris-NW>Paris")
    s.pos[p] = 924
    assert s.string_to_action("move 879") == s.string_to_action("move Paris-NE")
    assert s.string_to_action("move 879 (Paris)") == s.string_to_action("move paris-ne")

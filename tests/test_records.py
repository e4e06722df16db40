"""Records name the versions they were written under (DESIGN.md §3); an old record replays
if every step is still legal, and is otherwise refused naming the step and the rule change."""

from __future__ import annotations

import json
import random

import pytest

import motherlode
from motherlode.core.records import (
    CHANCE_STREAM,
    LEGACY_VERSIONS,
    GameRecord,
    replay,
    versions_of,
)
from motherlode.games import registry
from motherlode.server.fairness import verify_record


def _played(seed: int = 3) -> tuple[motherlode.State, GameRecord]:
    game = motherlode.load("yukon", players=2)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, GameRecord.from_state(state, ["random", "random"], seed=seed)


def test_a_record_names_the_versions_it_was_written_under() -> None:
    _state, record = _played()
    data = json.loads(record.to_json())
    cls = registry()["yukon"]
    assert data["versions"] == {
        "rules": cls.rules_version,
        "notation": cls.notation_version,
        "chance": CHANCE_STREAM,
    }
    assert versions_of(motherlode.load("yukon")) == data["versions"]
    assert GameRecord.from_json(record.to_json()).versions == data["versions"]


def test_a_record_from_before_versions_reads_as_the_first_rules() -> None:
    state, record = _played()
    data = json.loads(record.to_json())
    del data["versions"]
    old = GameRecord.from_json(json.dumps(data))
    assert old.versions == LEGACY_VERSIONS
    assert replay(old).scores() == state.scores()


def test_an_old_record_that_no_longer_replays_is_refused_naming_the_step_and_the_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cls = registry()["yukon"]
    monkeypatch.setattr(cls, "rules_version", cls.rules_version + 1)
    monkeypatch.setattr(
        cls, "rules_changes", {**cls.rules_changes, cls.rules_version: "Yukon, The play: X"}
    )
    _state, record = _played()
    record.versions = {**record.versions, "rules": cls.rules_version - 1}
    step = next(i for i, a in enumerate(record.actions) if not a.startswith("deal"))
    record.actions[step] = "c9"  # no longer legal (as a changed rule would make it)
    record.scores = None
    with pytest.raises(motherlode.RecordError) as err:
        replay(record)
    text = str(err.value)
    assert text.startswith(f"step {step + 1} ('c9') does not replay: ")
    assert text.endswith(
        f"The record was written under yukon rules version {cls.rules_version - 1}; this"
        f" motherlode plays version {cls.rules_version}, which changed: rules"
        f" {cls.rules_version}: Yukon, The play: X"
    )
    record.seed = 3
    result = verify_record(record)
    assert not result.ok and "Yukon, The play: X" in result.problems[0]


def test_a_record_of_the_current_rules_is_refused_without_a_change_list() -> None:
    _state, record = _played()
    record.actions[60] = "zz"
    with pytest.raises(motherlode.RecordError) as err:
        replay(record)
    assert "step 61 ('zz') does not replay" in str(err.value)
    assert "written under" not in str(err.value)


@pytest.mark.parametrize(
    ("versions", "problem"),
    [
        ({"rules": 99}, "yukon rules version 99, newer than this motherlode's"),
        ({"notation": 7}, "yukon notation version 7, newer"),
        ({"chance": "xorshift"}, "draws chance with 'xorshift'"),
    ],
)
def test_a_record_from_a_newer_motherlode_is_refused(versions: dict, problem: str) -> None:
    _state, record = _played()
    data = json.loads(record.to_json())
    data["versions"] = {**data["versions"], **versions}
    with pytest.raises(motherlode.RecordError, match=problem):
        replay(GameRecord.from_json(json.dumps(data)))
    assert problem in verify_record(GameRecord.from_json(json.dumps(data))).problems[0]


@pytest.mark.parametrize(
    ("versions", "problem"),
    [
        ([1], "'versions' must be an object"),
        ({"rules": "2"}, "versions.rules must be a whole number >= 1, got '2'"),
        ({"rules": 0}, "versions.rules must be a whole number >= 1, got 0"),
        ({"notation": True}, "versions.notation must be a whole number"),
        ({"chance": 3}, "versions.chance must be a string"),
        ({"engine": 1}, "unknown version(s) engine"),
    ],
)
def test_a_bad_versions_field_is_named(versions: object, problem: str) -> None:
    _state, record = _played()
    data = json.loads(record.to_json())
    data["versions"] = versions
    with pytest.raises(motherlode.RecordError) as err:
        GameRecord.from_json(json.dumps(data), source="r.json")
    assert str(err.value) == f"r.json: {problem}" or problem in str(err.value)

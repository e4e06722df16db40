"""What ``core/records.py`` answers, exactly: versions, the JSON form, and each refusal.

``tests/test_records.py`` and the forgery tests prove records replay and forgeries fail;
these pin the rest of the answer: every ``RecordError`` message with its source, the
defaults a record file may leave out, the versions a record is written under, the file's
form (UTF-8, one-space indent, parents made) and why a step does not replay, with the
rule changes since the record's rules. Written for the mutants mutmut left alive in
``core/records.py`` (docs/testing.md).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.errors import IllegalActionError, RecordError
from motherlode.core.records import (
    CHANCE_STREAM,
    LEGACY_VERSIONS,
    GameRecord,
    replay,
    step_failure,
    versions_of,
)


def _record(players: int = 2) -> GameRecord:
    game = motherlode.load("yukon", players=players)
    agents = [create("random", game, seed=i) for i in range(players)]
    return play_game(game, agents, 99).record


def test_versions_of_a_game_name_its_rules_and_notation() -> None:
    # Eureka plays rules version 2 (docs/rules/eureka.md "Rules versions"), notation 1
    eureka = motherlode.load("eureka")
    assert versions_of(eureka) == {"rules": 2, "notation": 1, "chance": CHANCE_STREAM}
    # a record made without saying its versions is read as the first versions
    rec = GameRecord(game="eureka", config={}, players=[], seed=1, actions=[])
    assert rec.versions == LEGACY_VERSIONS and rec.versions is not LEGACY_VERSIONS


BASE = {"game": "yukon", "config": {}, "actions": []}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "src: a record is a JSON object, got list"),
        ('{"game": "yukon"}', "src: missing field(s) config, actions"),
        (json.dumps({**BASE, "actions": "a1"}), "src: 'actions' must be a list of action strings"),
        (json.dumps({**BASE, "actions": [1]}), "src: 'actions' must be a list of action strings"),
        (json.dumps({**BASE, "config": []}), "src: 'config' must be an object"),
        (json.dumps({**BASE, "zz": 1, "aa": 2}), "src: unknown field(s) aa, zz"),
        (json.dumps({**BASE, "versions": {"zz": 1, "aa": 1}}), "src: unknown version(s) aa, zz"),
    ],
)
def test_from_json_refusals_name_the_source_and_the_problem(text: str, message: str) -> None:
    with pytest.raises(RecordError) as err:
        GameRecord.from_json(text, source="src")
    assert str(err.value) == message


def test_from_json_defaults() -> None:
    with pytest.raises(RecordError) as err:
        GameRecord.from_json("{")
    assert str(err.value).startswith("record: not JSON (") and "at line 1)" in str(err.value)
    rec = GameRecord.from_json(json.dumps(BASE))
    assert rec.players == [] and rec.seed is None and rec.versions == LEGACY_VERSIONS


def test_save_and_load_utf8_with_parents_and_the_source_in_errors(tmp_path: Path) -> None:
    rec = dataclasses.replace(_record(), players=["Zoë", "Ödön"])
    path = rec.save(tmp_path / "a" / "b" / "game.json")
    raw = path.read_bytes().decode("utf-8")
    assert raw == rec.to_json() + "\n"
    assert "Zoë" in raw and "\\u" not in raw  # written as UTF-8, not escaped
    assert raw.splitlines()[1] == ' "game": "yukon",'  # one-space indent
    assert GameRecord.load(path) == rec
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError) as err:
        GameRecord.load(bad)
    assert str(err.value).startswith(f"{bad}: not JSON (")


def test_from_state_keeps_the_players_and_no_scores_before_the_end() -> None:
    game = motherlode.load("yukon")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])  # the first card dealt
    players = ["x", "y"]
    rec = GameRecord.from_state(state, players, 5)
    assert rec.players == ["x", "y"] and rec.players is not players
    assert rec.scores is None and rec.seed == 5


def test_replay_refusals() -> None:
    rec = _record()
    with pytest.raises(RecordError) as err:
        replay(dataclasses.replace(rec, game="no-such-game"))
    assert str(err.value).startswith("record's game or config is invalid: ")
    # the record's config is the one replayed (three players)
    assert replay(_record(players=3)).is_terminal()
    # no scores claimed: an unfinished record replays
    assert not replay(dataclasses.replace(rec, actions=rec.actions[:-1], scores=None)).is_terminal()
    n = len(rec.actions) - 1
    with pytest.raises(RecordError) as err:
        replay(dataclasses.replace(rec, actions=rec.actions[:-1]))
    assert str(err.value) == (
        f"record claims final scores {rec.scores} but the game is not over after its {n} actions"
    )
    with pytest.raises(RecordError) as err:
        replay(dataclasses.replace(rec, scores=[99.0, 0.0]))
    assert str(err.value) == f"record claims scores [99.0, 0.0], replay gives {rec.scores}"
    actions = list(rec.actions)
    actions[-1] = "zz9"
    with pytest.raises(RecordError) as err:
        replay(dataclasses.replace(rec, actions=actions))
    prefix = f"step {len(actions)} ('zz9') does not replay: "
    assert str(err.value).startswith(prefix)
    assert str(err.value).removeprefix(prefix) not in ("", "None")


def test_a_step_that_parses_but_is_illegal_does_not_replay() -> None:
    # replay goes through the checked path: a move the notation reads but the rules do
    # not allow there is refused, naming the step and the rule's reason
    rec = _record()
    game = motherlode.load("yukon")
    state = game.new_initial_state()
    i = 0  # the first decision
    while state.is_chance_node():
        state.apply_string(rec.actions[i])
        i += 1
    legal = set(state.legal_actions())
    wrong = next(
        a
        for a in range(game.num_distinct_actions)
        if a not in legal and state.string_to_action(state.action_to_string(a)) == a
    )
    bad = state.action_to_string(wrong)
    with pytest.raises(IllegalActionError) as illegal:
        state.clone().apply_string(bad)
    actions = [*rec.actions[:i], bad, *rec.actions[i + 1 :]]
    with pytest.raises(RecordError) as err:
        replay(dataclasses.replace(rec, actions=actions))
    assert str(err.value) == f"step {i + 1} ({bad!r}) does not replay: {illegal.value}"


def test_step_failure_names_the_rule_changes_since_the_records_rules() -> None:
    game = motherlode.load("eureka")
    change = game.rules_changes[2]
    err = IllegalActionError("the rule")
    suffix = (
        f". The record was written under eureka rules version 1; this motherlode plays"
        f" version 2, which changed: rules 2: {change}"
    )
    # a record naming no rules version was written under version 1
    old = GameRecord(
        game="eureka",
        config={},
        players=[],
        seed=1,
        actions=[],
        versions={"notation": 1, "chance": CHANCE_STREAM},
    )
    assert step_failure(old, game, 3, "roll", err) == (
        "step 3 ('roll') does not replay: the rule" + suffix
    )
    one = dataclasses.replace(old, versions={**LEGACY_VERSIONS, "rules": 1})
    assert step_failure(one, game, 3, "roll", err).endswith(suffix)
    # written under today's rules: no changes to name
    now = dataclasses.replace(old, versions=versions_of(motherlode.load("eureka")))
    assert step_failure(now, game, 3, "roll", err) == "step 3 ('roll') does not replay: the rule"

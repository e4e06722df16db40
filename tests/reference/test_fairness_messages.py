"""What ``verify_record`` / ``verify_file`` answer, exactly, for each way a record can fail.

The forgery tests (tests/server/test_fairness_forgery.py) prove every forged step is
refused; these pin the rest of the answer a user reads: ``ok`` is ``False`` (not merely
falsy), the problem names the step, the action text and the engine's reason, the summary
joins the problems, and the file and config paths are the ones the record gives. Written
for the mutants mutmut left alive in ``server/fairness.py`` (docs/testing.md).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import motherlode
from motherlode.agents import create
from motherlode.arena.play import play_game
from motherlode.core.records import GameRecord
from motherlode.server.fairness import commitment, verify_file, verify_record

SEED = 4242


def _record(players: int = 2) -> GameRecord:
    game = motherlode.load("yukon", players=players)
    agents = [create("random", game, seed=i) for i in range(players)]
    return play_game(game, agents, SEED).record


def _first_decision(record: GameRecord) -> int:
    state = motherlode.load(record.game, **record.config).new_initial_state()
    for i, text in enumerate(record.actions, start=1):
        if not state.is_chance_node():
            return i
        state.apply_string(text)
    raise AssertionError("no decision")


def test_a_verified_record_summary_names_what_was_checked() -> None:
    rec = _record()
    result = verify_record(rec, "  " + commitment(SEED).upper() + " ")
    assert result.ok is True and result.commitment_ok is True
    assert result.summary() == (
        f"verified: {len(rec.actions)} actions re-played, {result.chance_events} chance"
        f" outcomes re-derived from the seed; SHA-256 of the seed matches {commitment(SEED)}"
    )


def test_the_config_of_the_record_is_the_one_replayed() -> None:
    # three players: replayed under the default two the record would not verify
    assert verify_record(_record(players=3)).ok is True


def test_no_seed() -> None:
    result = verify_record(dataclasses.replace(_record(), seed=None))
    assert result.ok is False
    assert result.problems == ["the record has no seed"]
    assert result.summary() == "NOT verified: the record has no seed"


def test_two_problems_are_both_reported_and_joined() -> None:
    wrong = commitment(1)
    rec = dataclasses.replace(_record(), game="no-such-game")
    result = verify_record(rec, wrong.upper())
    assert result.ok is False and result.commitment_ok is False
    first = f"SHA-256 of the seed is {commitment(SEED)}, not the published {wrong}"
    assert result.problems[0] == first
    assert result.problems[1].startswith("the record's game or config is invalid: ")
    assert "no-such-game" in result.problems[1]
    assert result.summary() == "NOT verified: " + "; ".join(result.problems)


def test_a_newer_rules_version_is_refused_with_the_reason() -> None:
    rec = _record()
    rec.versions = {**rec.versions, "rules": 99}
    mine = motherlode.load("yukon").rules_version
    result = verify_record(rec)
    assert result.ok is False
    assert result.problems == [
        f"the record was written under yukon rules version 99, newer than this motherlode's"
        f" ({mine}): upgrade motherlode to read it"
    ]


def test_an_unreadable_step_names_the_step_the_text_and_the_reason() -> None:
    rec = _record()
    i = _first_decision(rec)
    actions = list(rec.actions)
    actions[i - 1] = "zz9"
    result = verify_record(dataclasses.replace(rec, actions=actions))
    assert result.ok is False and len(result.problems) == 1
    prefix = f"step {i} ('zz9') does not replay: "
    assert result.problems[0].startswith(prefix)
    reason = result.problems[0].removeprefix(prefix)
    assert reason and reason != "None"


def test_an_illegal_step_names_the_step_the_text_and_the_reason() -> None:
    rec = _record()
    i = _first_decision(rec)
    state = motherlode.load("yukon").new_initial_state()
    for text in rec.actions[: i - 1]:
        state.apply_string(text)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    illegal = next(c + r for c in "abcdefg" for r in "1234567" if c + r not in legal)
    actions = list(rec.actions)
    actions[i - 1] = illegal
    result = verify_record(dataclasses.replace(rec, actions=actions))
    assert result.ok is False and len(result.problems) == 1
    prefix = f"step {i} ({illegal!r}) does not replay: "
    assert result.problems[0].startswith(prefix)
    reason = result.problems[0].removeprefix(prefix)
    assert reason and reason != "None"


def test_scores_claimed_for_an_unfinished_game() -> None:
    rec = _record()
    result = verify_record(dataclasses.replace(rec, actions=rec.actions[:-1]))
    assert result.ok is False
    assert result.problems == ["the record claims final scores but the game is not over"]


def test_verify_file_passes_the_commitment_and_reports_an_unreadable_file(
    tmp_path: Path,
) -> None:
    path = _record().save(tmp_path / "game.json")
    assert verify_file(str(path), commitment(SEED)).ok is True
    wrong = verify_file(str(path), commitment(1))
    assert wrong.ok is False and wrong.commitment_ok is False
    missing = tmp_path / "missing.json"
    result = verify_file(str(missing))
    assert result.ok is False
    assert result.problems == [f"cannot read record {str(missing)!r}: No such file or directory"]

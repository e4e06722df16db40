"""Provably fair randomness: a seed from the OS, committed by its SHA-256, verified by re-play.

A match draws its seed with :func:`new_seed` (128 bits from :mod:`secrets`) and publishes
:func:`commitment` of it from the start; the seed stays on the server until the match
ends. Chance is sampled from one stream made from the seed, ``state.sample_chance(rng)``
at each chance node, in order: a match's stream is ``hmac-sha256`` (HMAC-SHA256 in counter
mode, so that no run of observed outcomes predicts the next; matches created before it
used ``mt19937``, ``random.Random(seed)``), and its record names it. So, once the seed is
revealed, :func:`verify_record` re-derives every roll, draw and reveal of the game record
with the record's stream and checks that each one is what the record says.

>>> seed = 12345
>>> commitment(seed)[:16]
'5994471abb01112a'
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from motherlode.core.chance import MT19937, make_stream
from motherlode.core.errors import MotherlodeError, RecordError
from motherlode.core.records import (
    GameRecord,
    check_event,
    check_forfeit,
    check_record_versions,
    forfeited,
    step_failure,
)

SEED_BITS = 128


def new_seed() -> int:
    """A fresh match seed from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


def commitment(seed: int) -> str:
    """The published SHA-256 (hex) of a seed: of its decimal digits, UTF-8."""
    return hashlib.sha256(str(int(seed)).encode()).hexdigest()


@dataclass
class Verification:
    """The result of :func:`verify_record`: ``ok`` and what was checked or went wrong."""

    ok: bool
    actions: int = 0
    chance_events: int = 0
    commitment: str | None = None
    commitment_ok: bool | None = None
    problems: list[str] = field(default_factory=list)
    events: list[tuple[int, str]] = field(default_factory=list)
    """``(step, outcome)`` of every chance outcome re-derived from the seed."""
    clock_events: int = 0
    """Clock events checked (a timeout, a skipped turn, a bot, a forfeit): not actions."""
    forfeit: int | None = None
    """The seat that forfeited on time (the record ends there), if one did."""

    def summary(self) -> str:
        if not self.ok:
            return "NOT verified: " + "; ".join(self.problems)
        text = (
            f"verified: {self.actions} actions re-played, {self.chance_events} chance outcomes"
            " re-derived from the seed"
        )
        if self.clock_events:
            text += f"; {self.clock_events} clock event(s) checked"
        if self.forfeit is not None:
            text += f", ending with P{self.forfeit + 1}'s forfeit on time"
        if self.commitment_ok:
            text += f"; SHA-256 of the seed matches {self.commitment}"
        return text


def verify_record(record: GameRecord, expected_commitment: str | None = None) -> Verification:
    """Re-play ``record`` from its seed; every chance outcome must be the seeded draw.

    ``expected_commitment`` (the SHA-256 published during the match), when given, must be
    the commitment of the record's seed.
    """
    import motherlode

    result = Verification(ok=False)
    if record.seed is None:
        result.problems.append("the record has no seed")
        return result
    try:
        seed = int(record.seed)
    except (TypeError, ValueError):
        result.problems.append(f"the record's seed {record.seed!r} is not an integer")
        return result
    result.commitment = commitment(seed)
    if expected_commitment is not None:
        result.commitment_ok = secrets.compare_digest(
            result.commitment, expected_commitment.strip().lower()
        )
        if not result.commitment_ok:
            result.problems.append(
                f"SHA-256 of the seed is {result.commitment}, not the published"
                f" {expected_commitment.strip().lower()}"
            )
    try:
        game = motherlode.load(record.game, **record.config)
    except MotherlodeError as err:
        result.problems.append(f"the record's game or config is invalid: {err}")
        return result
    try:
        check_record_versions(record, game)
    except RecordError as err:
        result.problems.append(str(err))
        return result
    rng = make_stream(str(record.versions.get("chance", MT19937)), seed)
    state = game.new_initial_state()
    events = list(record.events)
    for i, text in enumerate(record.actions, start=1):
        problem = _events_before(state, events, i - 1, len(record.actions))
        if problem:
            result.problems.append(problem)
            return result
        try:
            action = state.string_to_action(text)
        except MotherlodeError as err:
            result.problems.append(step_failure(record, game, i, text, err))
            return result
        if state.is_chance_node():
            drawn = state.sample_chance(rng)
            if drawn != action:
                result.problems.append(
                    f"step {i}: the record says {text!r} but the seed draws"
                    f" {state.action_to_string(drawn)!r}"
                )
                return result
            result.chance_events += 1
            result.events.append((i, text))
        try:
            state.apply_action(action)
        except MotherlodeError as err:
            result.problems.append(step_failure(record, game, i, text, err))
            return result
        result.actions += 1
    problem = _events_before(state, events, len(record.actions), len(record.actions))
    if problem:
        result.problems.append(problem)
        return result
    seat = forfeited(record)
    if seat is not None:
        problem = check_forfeit(record, state, seat)
        if problem:
            result.problems.append(problem)
            return result
        result.forfeit = seat
    elif record.scores is not None:
        if not state.is_terminal():
            result.problems.append("the record claims final scores but the game is not over")
            return result
        if [float(s) for s in state.scores()] != [float(s) for s in record.scores]:
            result.problems.append(
                f"the record claims scores {record.scores}, the re-play gives {state.scores()}"
            )
            return result
    result.clock_events = len(record.events)
    result.ok = not result.problems
    return result


def _events_before(
    state: Any, events: list[dict[str, Any]], after: int, actions: int
) -> str | None:
    """Check (and take off ``events``) the clock events that come after ``after`` actions."""
    while events and events[0]["after"] == after:
        problem = check_event(state, events.pop(0), actions)
        if problem:
            return problem
    return None


def verify_file(path: str, expected_commitment: str | None = None) -> Verification:
    """:func:`verify_record` of a record file (``motherlode verify RECORD``)."""
    try:
        record = GameRecord.load(path)
    except RecordError as err:
        return Verification(ok=False, problems=[str(err)])
    return verify_record(record, expected_commitment)

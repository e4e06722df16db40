"""server/clocks.py on a fake clock: Fischer increments, timeouts, days per move, the
terms' validation; and clock events in game records (replay and verify).

Every time here is a stamp passed in: no test waits.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import motherlode
from motherlode.core.errors import RecordError
from motherlode.core.records import GameRecord, replay
from motherlode.server import clocks
from motherlode.server.clocks import ClockSpec, ClockTerms
from motherlode.server.fairness import verify_record

T0 = dt.datetime(2026, 12, 1)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


FISCHER = ClockSpec("fischer", 300.0, 3.0, 0.0)
DAYS = ClockSpec("days", 0.0, 0.0, 2 * clocks.DAY)


def test_fischer_charges_the_seat_to_move_and_adds_the_increment_when_its_turn_passes() -> None:
    c = clocks.after_move(clocks.start(FISCHER, 3), 0, at(0))
    assert (c.remaining, c.running, c.since) == ([300.0] * 3, 0, at(0))
    assert clocks.left(c, at(100)) == [200.0, 300.0, 300.0]
    c = clocks.after_move(c, 0, at(40))  # the same seat acts again (a turn of many actions)
    assert (c.remaining, c.running, c.since) == ([260.0, 300.0, 300.0], 0, at(40))
    c = clocks.after_move(c, 1, at(50))  # the turn passes: +3 once
    assert (c.remaining, c.running) == ([253.0, 300.0, 300.0], 1)
    assert clocks.deadline(c) == at(350)
    c = clocks.after_move(c, 2, at(60), increment=False)  # an undo / a skip: no increment
    assert c.remaining == [253.0, 290.0, 300.0]


def test_a_timeout_is_the_running_seat_past_its_deadline_once() -> None:
    c = clocks.after_move(clocks.start(FISCHER, 2), 1, at(0))
    assert clocks.timed_out(c, at(299.999)) is None
    assert clocks.timed_out(c, at(300)) == 1
    flagged = clocks.Clock(**{**c.__dict__, "flagged": True})
    assert clocks.timed_out(flagged, at(400)) is None and clocks.late(flagged) == 1
    # a late seat that moves starts again from 0 plus its increment; the flag goes
    after = clocks.after_move(flagged, 0, at(310))
    assert after.remaining == [300.0, 3.0] and not after.flagged
    # staying to move keeps the flag
    assert clocks.after_move(flagged, 1, at(310)).flagged


def test_days_per_move_are_afresh_each_time_the_turn_comes() -> None:
    c = clocks.after_move(clocks.start(DAYS, 2), 0, at(0))
    assert clocks.left(c, at(86400)) == [86400.0, 172800.0]
    c = clocks.after_move(c, 1, at(86400 * 1.5))
    assert c.remaining == [172800.0, 172800.0] and c.running == 1
    assert clocks.deadline(c) == at(86400 * 3.5)
    assert clocks.timed_out(c, at(86400 * 3.5)) == 1


def test_bots_and_the_end_run_no_clock() -> None:
    c = clocks.after_move(clocks.start(FISCHER, 2), None, at(0))
    assert c.running is None and clocks.deadline(c) is None
    assert clocks.timed_out(c, at(10**6)) is None
    taken = clocks.Clock(**{**c.__dict__, "bots": (1,)})
    assert clocks.after_move(taken, 1, at(5)).running is None


@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.floats(0, 500, allow_nan=False)), min_size=1, max_size=40
    )
)
def test_fischer_time_is_conserved(moves: list[tuple[int, float]]) -> None:
    """Without a bank going below 0, the banks sum to the bases plus one increment per
    turn passed minus the time elapsed."""
    spec = ClockSpec("fischer", 10**6, 2.0, 0.0)
    c = clocks.after_move(clocks.start(spec, 3), 0, at(0))
    t, passes = 0.0, 0
    for seat, wait in moves:
        t += wait
        passes += c.running != seat
        c = clocks.after_move(c, seat, at(t))
    assert sum(c.remaining) == pytest.approx(3 * 10**6 + 2.0 * passes - t)


def test_terms_validate_each_field() -> None:
    assert ClockTerms().spec() is None
    assert ClockTerms(kind="fischer", base_minutes=0.05, increment_seconds=0).spec() == ClockSpec(
        "fischer", 3.0, 0.0, 0.0
    )
    with pytest.raises(ValueError, match="clock is an object"):
        clocks.parse_terms([1])
    with pytest.raises(ValueError) as err:
        clocks.parse_terms({"kind": "days", "days_per_move": 0, "bot_takeover": "maybe"})
    assert str(err.value) == (
        "bad clock: days_per_move: Input should be greater than or equal to 0.01;"
        " bot_takeover: Input should be a valid boolean, unable to interpret input"
    )
    with pytest.raises(ValueError, match="base_minutes: Input should be a finite number"):
        clocks.parse_terms({"kind": "fischer", "base_minutes": float("nan")})


def test_skip_words_are_each_games_own_pass() -> None:
    eureka = motherlode.deal(motherlode.load("eureka", players=2), seed=1)
    assert eureka.action_to_string(clocks.skip_action(eureka)) == "pass"  # type: ignore[arg-type]
    yukon = motherlode.deal(motherlode.load("yukon", players=2), seed=1)
    assert clocks.skip_action(yukon) is None
    assert clocks.rule_text("chinagold", FISCHER).endswith("(the late seat loses)")
    assert "hand the seat to the greedy bot" in clocks.rule_text(
        "yukon", ClockSpec("fischer", 60, 0, 0, True)
    )


# -- records ----------------------------------------------------------------------------


def _record(events: list[dict[str, object]], scores: list[float] | None = None) -> GameRecord:
    """A seeded 2-player Eureka record: P1 passes, P2's turn skipped (its pass), P1 passes."""
    game = motherlode.load("eureka", players=2)
    state = motherlode.deal(game, seed=0)
    assert not state.history()  # no set-up draws: every action is a pass
    return GameRecord(
        game="eureka",
        config=game.config.model_dump(mode="json"),
        players=["ann", "bob"],
        seed=7,
        actions=["pass", "pass", "pass"],
        scores=scores,
        versions={**motherlode.core.records.versions_of(game), "chance": "hmac-sha256"},
        events=events,
    )


SKIP = [
    {"after": 1, "kind": "timeout", "seat": 1, "text": "P2 ran out of time"},
    {"after": 1, "kind": "skip", "seat": 1, "text": "P1 skips P2's turn (out of time)"},
]


def test_a_record_with_clock_events_replays_and_verifies() -> None:
    forfeit = {"after": 3, "kind": "forfeit", "seat": 1, "text": "P2 forfeits on time"}
    rec = _record(
        [*SKIP, {"after": 3, "kind": "timeout", "seat": 1, "text": "."}, forfeit], scores=[1.0, 0.0]
    )
    text = rec.to_json()
    back = GameRecord.from_json(text)
    assert back.events == rec.events
    replay(back)
    result = verify_record(back)
    assert result.ok, result.problems
    assert (result.actions, result.clock_events, result.forfeit) == (3, 4, 1)


def test_a_record_without_events_is_written_as_before() -> None:
    rec = _record([])
    assert "events" not in json.loads(rec.to_json())
    assert verify_record(GameRecord.from_json(rec.to_json())).ok


@pytest.mark.parametrize(
    ("events", "scores", "problem"),
    [
        (
            [{"after": 1, "kind": "skip", "seat": 0, "text": ""}],
            None,
            "the clock event after action 1 (skip of P1) is not about the seat to move (P2)",
        ),
        (
            [{"after": 1, "kind": "forfeit", "seat": 1, "text": ""}],
            None,
            "the clock event after action 1 (forfeit of P2): actions follow a forfeit",
        ),
        (
            [{"after": 3, "kind": "forfeit", "seat": 1, "text": ""}],
            [0.0, 1.0],
            "the record claims scores [0.0, 1.0], a forfeit of P2 gives [1.0, 0.0]",
        ),
    ],
)
def test_a_clock_event_out_of_place_is_refused(
    events: list[dict[str, object]], scores: list[float] | None, problem: str
) -> None:
    rec = _record(events, scores)
    result = verify_record(rec)
    assert not result.ok and result.problems == [problem]
    with pytest.raises(
        RecordError, match=problem.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")
    ):
        replay(rec)


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ("x", "'events' must be a list"),
        ([{"after": 0, "kind": "nap", "seat": 0}], "event 1 must be an object whose kind is"),
        ([{"after": -1, "kind": "skip", "seat": 0}], "event 1's after must be a whole number"),
        ([{"after": 9, "kind": "skip", "seat": 0}], "past the 3 actions"),
        (
            [{"after": 2, "kind": "skip", "seat": 0}, {"after": 1, "kind": "skip", "seat": 0}],
            "event 2 comes after action 1, out of order",
        ),
    ],
)
def test_bad_events_are_refused_when_read(events: object, message: str) -> None:
    data = json.loads(_record([]).to_json())
    data["events"] = events
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(json.dumps(data), source="r.json")

"""``server/runtime.py``'s pushes as a viewer gets them: where each is drawn (on the
caller's thread for a game whose pushes are cheap, in the drawing pool otherwise, by the
CPU time of the pushes timed so far), what it holds, and what is built once per revision
and shared (the log, the fields every viewer is told alike, the HTTP answer's text).

The games are ``test_runtime_reference.py``'s Relay: ``Burner`` draws its board in
``Burner.burn`` CPU seconds (a busy loop) and records the thread that drew it, so a test
sees where each push was drawn and makes a push as slow as it needs. Each test starts
with no draw cost known, the drawing pool one thread of its own (``test-draw``) and the
push counter at 1 (one push in :data:`runtime.DRAW_SAMPLE` is timed, the 8th, 16th, ...).
The survivors these were written for: docs/testing.md (mutation testing).
"""

from __future__ import annotations

import gc
import itertools
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import numpy as np
import pytest

from motherlode.core.protocol import GameConfig, Player, SeatResult, Summary
from motherlode.server import clocks, runtime
from motherlode.server.push import diff
from motherlode.server.runtime import HIDDEN_CHANCE, LogEntry, MatchRuntime
from tests.reference.test_runtime_reference import (
    SEED,
    LayeredRelay,
    LayeredState,
    OpenRelay,
    RelayGame,
    RelayState,
    clocked,
    finished,
    new,
    seats,
)

POOL, HERE = "pool", "here"


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No draw cost known yet, a drawing pool of this test's own (mutmut forks: the
    module's pool would count the parent's threads and never run), the counter at 1.
    One push drawn first, its cost then forgotten: the first push in a process pays the
    code's first run (lazy imports, first encodes), which took a cheap game over the 2 ms
    line when this file ran first in its worker. The garbage collector is off meanwhile: a
    full collection of a worker's heap after the browser tests, falling in a timed push,
    costs more than 2 ms too."""
    gc.collect()
    gc.disable()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-draw")
    monkeypatch.setattr(runtime, "DRAWING", pool)
    monkeypatch.setattr(runtime, "_draw_cost", {})
    Burner.burn, Burner.fail, Burner.threads = 0.0, False, []
    warm = new(Burner).message(0, None)
    assert warm is not None
    monkeypatch.setattr(runtime, "_draw_cost", {})
    monkeypatch.setattr(runtime, "_draws", itertools.count(1))
    Burner.threads = []
    yield
    pool.shutdown(wait=True)
    gc.enable()


class BurnState(LayeredState):
    def render_layers(self, seat: Player | None = None) -> Any:
        name = threading.current_thread().name
        Burner.threads.append(POOL if name.startswith("test-draw") else HERE)
        end = time.thread_time() + Burner.burn
        while time.thread_time() < end:
            pass
        return super().render_layers(seat)

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        if Burner.fail:
            raise RuntimeError("observation bug")
        return super().observation(player)


class Burner(LayeredRelay):
    name: ClassVar[str] = "burner"
    burn: ClassVar[float] = 0.0
    """CPU seconds its board takes to draw."""
    fail: ClassVar[bool] = False
    """Its observation fails (so does every push of it)."""
    threads: ClassVar[list[str]] = []
    """Where each board was drawn: ``POOL`` or ``HERE`` (the caller's thread)."""

    def new_initial_state(self) -> RelayState:
        return BurnState(self)


def pushed(count: int = 1, burn: float = 0.0) -> list[str]:
    """Where each of ``count`` first pushes (each a new match, so each is drawn) was drawn."""
    Burner.burn, Burner.threads = burn, []
    for _ in range(count):
        rt = new(Burner)
        got = rt.message(0, None)
        assert got is not None and json.loads(got[1])["seat"] == 0
    return Burner.threads


def test_a_game_not_timed_yet_is_drawn_in_the_pool_and_its_pushes_hold_the_seats_frame() -> None:
    rt = new(Burner)
    snapshot = rt.message(0, None)
    assert Burner.threads == [POOL]
    assert snapshot is not None and snapshot[0] == rt.rev
    assert json.loads(snapshot[1]) == json.loads(json.dumps(rt.frame(0).snapshot()))
    assert json.loads(snapshot[1])["legal"] == [
        {"id": 10, "text": "pick a"},
        {"id": 11, "text": "pick b"},
    ]
    runtime._draw_cost.clear()  # not known again: the next push is drawn in the pool too
    old, frame = rt.rev, rt.frame(0)
    rt.commit(rt.plan_move(0, "pick a"))
    update = rt.message(0, old)
    assert Burner.threads == [POOL, POOL]
    assert update is not None and update[0] == rt.rev
    assert json.loads(update[1]) == json.loads(json.dumps(diff(frame, rt.frame(0))))
    assert json.loads(update[1])["type"] == "diff"
    spectator = new(Burner).message(None, None)
    assert spectator is not None and json.loads(spectator[1])["seat"] is None


def test_once_timed_cheap_a_games_pushes_are_drawn_here() -> None:
    assert pushed(3) == [POOL, HERE, HERE]


def test_one_push_in_eight_is_timed_and_a_slow_one_sends_the_next_to_the_pool() -> None:
    # pushes 1-9 cheap: the 1st (not known yet) and the 8th are timed; the 8th, timed
    # here, keeps the game here; then slow: the 10th-15th are not timed, the 16th is,
    # so the 17th goes to the pool
    assert pushed(9) == [POOL, *[HERE] * 8]
    assert pushed(7, burn=0.005) == [HERE] * 7
    assert pushed(1) == [POOL]


def test_a_heavy_games_cheap_pushes_bring_it_back_only_as_its_slow_one_fades(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime, "DRAW_SAMPLE", 1)  # every push timed
    assert pushed(1, burn=0.010) == [POOL]
    # each cheap push keeps 3/4 of the memory of the slow one (10 ms): 7.5, 5.6, 4.2,
    # 3.2, 2.4 ms are all over the 2 ms; about 1.8 ms after the 6th
    where = pushed(20)
    assert where[:5] == [POOL] * 5 and where[-1] == HERE
    first_here = where.index(HERE)
    assert where[first_here:] == [HERE] * (20 - first_here)


def test_a_game_at_exactly_the_inline_cost_is_drawn_in_the_pool() -> None:
    runtime._draw_cost["burner"] = runtime.INLINE_DRAW_SECONDS
    assert pushed(1) == [POOL]
    rt = new(Burner)
    Burner.threads = []
    assert rt.payload_soon(0).result() == rt.payload_json(0)
    assert Burner.threads == [POOL]
    runtime._draw_cost["burner"] = runtime.INLINE_DRAW_SECONDS * 0.99
    assert pushed(1) == [HERE]


def test_a_push_that_fails_keeps_its_error_here_as_in_the_pool() -> None:
    pushed(2)  # known cheap: drawn here
    rt, other = new(Burner), new(Burner)
    Burner.fail = True
    with pytest.raises(RuntimeError, match="observation bug"):
        rt.message(0, None)
    with pytest.raises(RuntimeError, match="observation bug"):
        rt.payload_soon(0).result()
    runtime._draw_cost.clear()
    with pytest.raises(RuntimeError, match="observation bug"):
        other.message(0, None)  # in the pool


def test_the_http_answer_is_drawn_where_the_pushes_are_and_once_per_revision() -> None:
    rt = new(Burner)
    soon = rt.payload_soon(1)
    text = soon.result()
    assert Burner.threads == [POOL]  # no push timed yet
    assert json.loads(text) == json.loads(json.dumps(rt.payload(1), default=str))
    assert (json.loads(text)["seat"], json.loads(text)["view"]["my_card"]) == (1, "YAK")
    gate = threading.Event()
    runtime.DRAWING.submit(gate.wait)  # the pool busy: whatever it is handed now waits
    try:
        again = rt.payload_soon(1)  # cached: answered at once, not handed to the pool
        assert again.done() and again.result() is text and again.result() is rt.payload_json(1)
    finally:
        gate.set()
    assert Burner.threads == [POOL]
    spectator = json.loads(rt.payload_soon(None).result())
    assert spectator["seat"] is None and spectator["view"]["my_card"] is None
    pushed(2)  # known cheap
    Burner.threads = []
    later = new(Burner)
    mine = later.payload_soon(0)
    assert mine.done() and Burner.threads == [HERE]
    assert mine.result() is later.payload_json(0) and json.loads(mine.result())["seat"] == 0
    later.commit(later.plan_move(0, "pick a"))
    assert json.loads(later.payload_soon(0).result())["view"]["pick"] == 0


# -- what is built once per revision and shared --------------------------------------


def test_a_perfect_information_games_log_is_built_once_for_every_viewer() -> None:
    rt = new(OpenRelay)
    rt.commit(rt.plan_move(0, "pick a"))
    log = rt.fields(0)["log"]
    assert log == rt.log_for(0) and len(log) == 3
    assert rt.fields(0)["log"] is log and rt.fields(1)["log"] is log
    assert rt.fields(None)["log"] is log and rt.frame(1).fields["log"] == log
    # a frame holds the log's JSON text, encoded once for every viewer
    assert rt.frame(1).texts["log"] is rt.frame(0).texts["log"] is rt.frame(None).texts["log"]
    rt.commit(rt.plan_move(0, "bet 1"))
    assert rt.fields(1)["log"] == rt.log_for(1) and len(rt.fields(1)["log"]) == 5


def test_a_log_that_reads_alike_to_everyone_is_shared_in_any_game() -> None:
    rt = MatchRuntime("m1", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    rt.entries = [LogEntry(0, "pick a"), LogEntry(0, "bet 1", said=("P1 bets 1",))]
    log = rt.fields(0)["log"]
    assert [e["said"] for e in log] == ["pick a", "P1 bets 1"]
    assert rt.fields(1)["log"] is log and rt.fields(None)["log"] is log


def test_a_log_that_reads_differently_is_built_for_each_viewer() -> None:
    # a deal seen by P1 only, without a narration: P2 and the spectator are told it
    # happened, never what, whoever asked first
    rt = MatchRuntime("m1", RelayGame(GameConfig()), SEED, "", seats("human", "human"))
    rt.entries = [LogEntry(-1, "deal PUMA", (True, False, False))]
    assert rt.fields(0)["log"][0]["text"] == "deal PUMA"
    assert rt.fields(1)["log"][0]["text"] == HIDDEN_CHANCE
    assert rt.fields(None)["log"][0]["text"] == HIDDEN_CHANCE
    assert rt.fields(0)["log"] is rt.fields(0)["log"] is not rt.fields(1)["log"]
    # the narrations per viewer (here P2 asks first)
    dealt = new()
    assert [e["said"] for e in dealt.fields(1)["log"]] == [HIDDEN_CHANCE, "the dealer: deal YAK"]
    assert [e["said"] for e in dealt.fields(0)["log"]] == ["the dealer: deal PUMA", HIDDEN_CHANCE]
    assert [e["said"] for e in dealt.fields(None)["log"]] == [HIDDEN_CHANCE] * 2
    # one seat: its narration and the spectator's are two, and differ
    solo = MatchRuntime("m1", RelayGame(GameConfig(players=1)), SEED, "", seats("human"))
    solo.entries = [LogEntry(0, "pick a", said=("You pick a", "P1 plays"))]
    assert solo.fields(0)["log"][0]["said"] == "You pick a"
    assert solo.fields(None)["log"][0]["said"] == "P1 plays"


def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each log entry read from now on (its notation, in order): ``_log_from`` asks an
    entry's narration (``said_to``) once per build that reads it."""
    read: list[str] = []
    said_to = LogEntry.said_to

    def counted(self: LogEntry, seat: Player | None, num_players: int) -> str:
        read.append(self.text)
        return said_to(self, seat, num_players)

    monkeypatch.setattr(LogEntry, "said_to", counted)
    return read


@pytest.mark.parametrize("clock", [False, True], ids=["no clock", "a clock, no event"])
def test_a_move_reads_only_the_entries_added_since_the_last_build(
    monkeypatch: pytest.MonkeyPatch, clock: bool
) -> None:
    # a perfect-information game's log, built once for every viewer: after the deal's two
    # entries and "pick a", the next build reads "bet 1" and the two dice it brought only
    rt = new(OpenRelay)
    if clock:  # a timed match with no clock event: built on from the last build too
        clocked(rt)
    rt.commit(rt.plan_move(0, "pick a"))
    read = reads(monkeypatch)
    assert [e["text"] for e in rt._log(0)] == ["deal PUMA", "deal YAK", "pick a"]
    assert read == ["deal PUMA", "deal YAK", "pick a"]
    read.clear()
    rt.commit(rt.plan_move(0, "bet 1"))
    assert rt.clock is None or not rt.clock.events
    assert rt._log(1) == [
        {"n": 1, "seat": -1, "text": "deal PUMA", "said": "the dealer: deal PUMA", "setup": True},
        {"n": 2, "seat": -1, "text": "deal YAK", "said": "the dealer: deal YAK", "setup": True},
        {"n": 3, "seat": 0, "text": "pick a", "said": "P1 plays"},
        {"n": 4, "seat": 0, "text": "bet 1", "said": "P1 plays"},
        {
            "n": 6,
            "label": "5–6",
            "seat": -1,
            "text": "roll 4; roll 3",
            "said": "the dealer: roll 4, roll 3",
        },
    ]
    assert read == ["bet 1", "roll 4", "roll 3"]


def test_a_clock_event_is_logged_once_at_every_later_revision() -> None:
    # with clock events (they go between the entries) no build is kept to go on from: a
    # build going on from one that had shown P1's timeout after the deal would show it
    # again; each revision's log is built whole, the timeout once, after the deal
    rt = new(OpenRelay)
    clocked(rt, events=[clocks.ClockEvent(2, "timeout", 0)])
    timeout = {
        "n": 2,
        "label": "clock",
        "seat": 0,
        "text": "P1 ran out of time",
        "said": "P1 ran out of time",
        "clock": "timeout",
    }
    texts = ["deal PUMA", "deal YAK", "P1 ran out of time"]
    for move in ("pick a", "bet 1"):
        rt.commit(rt.plan_move(0, move))
        texts.append(move)
        log = rt._log(None)
        assert log == rt.log_for(None) and log[2] == timeout
        assert [e["text"] for e in log[:4]] == texts[:4]
    assert [e.get("clock") for e in log] == [None, None, "timeout", None, None, None]


class NumpySummary(RelayGame):
    """Its summary's scores are NumPy integers (JSON lacks them: text in a frame)."""

    name: ClassVar[str] = "numpysummary"

    def new_initial_state(self) -> RelayState:
        return NumpySummaryState(self)


class NumpySummaryState(RelayState):
    def summary(self) -> Summary:
        s = self.scores()
        rows = tuple(SeatResult(p, np.int64(s[p])) for p in range(2))  # type: ignore[arg-type]
        return Summary("the guess", rows, (0,))


def finished_numpy() -> MatchRuntime:
    rt = new(NumpySummary)
    rt.commit(rt.plan_command(0, "pick a then bet 2"))
    rt.commit(rt.plan_move(1, "guess b"))
    return rt


def test_the_fields_told_alike_are_built_once_raw_and_once_as_json() -> None:
    rt = finished()
    assert rt.fields(0)["players"] is rt.fields(1)["players"] is rt.fields(None)["players"]
    assert rt.frame(0).texts["players"] is rt.frame(1).texts["players"]  # encoded once
    assert rt.frame(0).fields["players"] == rt.fields(0)["players"]
    # raw for the HTTP answer (the game's values), JSON values in a frame: asked in
    # either order, each gets its own
    first = finished_numpy()
    raw = first.fields(0)["summary"]["rows"][0]["score"]
    assert type(raw) is np.int64 and raw == 11
    assert first.frame(0).fields["summary"]["rows"][0]["score"] == "11"
    second = finished_numpy()
    assert second.frame(1).fields["summary"]["rows"][1]["score"] == "1"
    assert type(second.fields(1)["summary"]["rows"][1]["score"]) is np.int64
    text = second.message(1, None)
    assert text is not None and json.loads(text[1])["summary"]["rows"][0]["score"] == "11"
    assert json.loads(second.payload_json(0))["summary"]["rows"][0]["score"] == "11"

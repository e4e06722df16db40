"""The clocks' code of ``server/service.py`` called directly, with exact answers.

A :class:`MatchService` on a fresh SQLite file and a fake ``service.utcnow`` that the
tests move on (nobody sleeps), so every bank, stamp, deadline, clock event row, match row
and refusal is known. Two games: ``clockduel`` (below: a turn of phases that each end with
a pass, as Eurorails' "end move" / "end turn"; :data:`clocks.SKIP_WORDS` is given its
words) and ``secretduel`` (tests/server/secret_game.py: no pass, so a timeout is a forfeit
or a bot takes the seat over). Written for ``benchmarks/mutation.py`` (each mutant of the
module judged in about a second; the survivors and why they are left: docs/testing.md).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

import motherlode.server.service as service
from motherlode.core import svg
from motherlode.core.protocol import CHANCE, TERMINAL, Action, Game, GameConfig, Player, State
from motherlode.games import registry
from motherlode.server import clocks
from motherlode.server.clocks import Clock, ClockEvent, ClockEventRow, ClockRow, ClockSpec
from motherlode.server.db import Base, MatchRow, MoveRow, make_engine
from motherlode.server.runtime import MatchRuntime, ServerError
from motherlode.server.service import MatchService, SeatRequest, Subscriber
from tests.server.secret_game import SecretGame

SEED = 12345
T0 = dt.datetime(2026, 12, 1, 12, 0, 0)
FISCHER = ClockSpec("fischer", 60.0, 5.0, 0.0)
TAKEOVER = ClockSpec("fischer", 60.0, 5.0, 0.0, True)
HUMAN = SeatRequest()
BOT = SeatRequest("bot", "random")


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


# -- the game -------------------------------------------------------------------------


class ClockConfig(GameConfig):
    phases: int = 2
    """Phases of a turn: each but the last ends with "end move", the last with "end turn"."""
    turns: int = 4
    """The match ends after this many turns."""
    forced: int = -1
    """The phase of the first turn that must "take" first (no pass there)."""
    deal: bool = True
    """Whether the match begins with a deal (chance) or with P1 to move."""


NAMES = ("go", "end move", "end turn", "take")


class ClockDuel(Game):
    name: ClassVar[str] = "clockduel"
    Config: ClassVar[type[GameConfig]] = ClockConfig
    max_players: ClassVar[int] = 3

    @property
    def num_distinct_actions(self) -> int:
        return len(NAMES)

    @property
    def max_chance_outcomes(self) -> int:
        return 2

    @property
    def max_game_length(self) -> int:
        return 100

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self) -> ClockState:
        return ClockState(self)

    def deserialize(self, text: str) -> ClockState:
        raise NotImplementedError


class ClockState(State):
    """A deal (one open card), then turns of ``phases`` phases; "go" scores a point."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.dealt: int | None = None
        self.turn = 0
        self.phase = 0
        self.taken = False
        self.points = [0.0] * game.num_players

    @property
    def conf(self) -> ClockConfig:
        config = self.game.config
        assert isinstance(config, ClockConfig)
        return config

    @property
    def dealing(self) -> bool:
        return self.dealt is None and self.conf.deal

    def current_player(self) -> Player:
        if self.dealing:
            return CHANCE
        if self.turn >= self.conf.turns:
            return TERMINAL
        return self.turn % self.game.num_players

    def _legal_actions(self) -> list[Action]:
        if self.turn == 0 and self.phase == self.conf.forced and not self.taken:
            return [3]
        return [0, 1 if self.phase < self.conf.phases - 1 else 2]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(0, 0.5), (1, 0.5)]

    def _apply_action(self, action: Action) -> None:
        if self.dealing:
            self.dealt = action
        elif action == 0:
            self.points[self.current_player()] += 1
        elif action == 1:
            self.phase += 1
        elif action == 2:
            self.turn, self.phase, self.taken = self.turn + 1, 0, False
        else:
            self.taken = True

    def _action_to_string(self, action: Action) -> str:
        return f"deal {('ACE', 'KING')[action]}" if self.dealing else NAMES[action]

    def scores(self) -> list[float]:
        return list(self.points)

    def observation(self, player: Player | None = None) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "to_move": self.current_player()}

    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        return np.zeros(1)

    def serialize(self) -> str:
        return f"{self.dealt}/{self.turn}/{self.phase}/{self.taken}/{self.points}"

    def __str__(self) -> str:
        return self.serialize()

    def render_svg(self, seat: Player | None = None) -> str:
        return svg.document(100, 40, [svg.element("text", f"turn {self.turn}", x=5, y=20)])


# -- fixtures -------------------------------------------------------------------------


class FakeNow:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now

    def to(self, seconds: float) -> None:
        self.now = at(seconds)


@pytest.fixture(autouse=True)
def _drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pushes drawn by a pool of this test's own (mutmut forks: see the service file)."""
    from concurrent.futures import ThreadPoolExecutor

    from motherlode.server import runtime as _runtime

    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-draw")
    monkeypatch.setattr(_runtime, "DRAWING", pool)
    yield
    pool.shutdown(wait=True)


@pytest.fixture(autouse=True)
def now(monkeypatch: pytest.MonkeyPatch) -> FakeNow:
    monkeypatch.setitem(registry(), "secretduel", SecretGame)
    monkeypatch.setitem(registry(), "clockduel", ClockDuel)
    monkeypatch.setitem(clocks.SKIP_WORDS, "clockduel", ("end move", "end turn"))
    monkeypatch.setattr(service, "new_seed", lambda: SEED)
    fake = FakeNow()
    monkeypatch.setattr(service, "utcnow", fake)
    return fake


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    e = make_engine(str(tmp_path / "m.db"))
    Base.metadata.create_all(e)
    yield e
    e.dispose()


@pytest.fixture
def svc(engine: Engine) -> MatchService:
    return MatchService(engine)


def refused(err: pytest.ExceptionInfo[ServerError], code: str, message: str, status: int) -> None:
    assert (err.value.code, err.value.message, err.value.status) == (code, message, status)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def clock_row(engine: Engine, match_id: str) -> dict[str, Any]:
    with Session(engine) as s:
        r = s.get(ClockRow, match_id)
        assert r is not None
        return {k: getattr(r, k) for k in clocks.to_row_values(clocks.start(FISCHER, 1))}


def events(engine: Engine, match_id: str) -> list[tuple[Any, ...]]:
    with Session(engine) as s:
        rows = s.execute(
            select(ClockEventRow)
            .where(ClockEventRow.match_id == match_id)
            .order_by(ClockEventRow.seq)
        ).scalars()
        return [(e.seq, e.at, e.kind, e.seat, e.by, e.created_at) for e in rows]


def match_row(engine: Engine, match_id: str) -> tuple[Any, ...]:
    with Session(engine) as s:
        r = s.get(MatchRow, match_id)
        assert r is not None
        return (r.version, r.status, r.scores, r.bot_due, r.updated_at)


def moves(engine: Engine, match_id: str) -> list[tuple[Any, ...]]:
    with Session(engine) as s:
        query = select(MoveRow.seq, MoveRow.seat, MoveRow.action).where(
            MoveRow.match_id == match_id
        )
        return [tuple(r) for r in s.execute(query.order_by(MoveRow.seq)).all()]


def row(
    remaining: list[float],
    running: int | None,
    since: float | None,
    deadline: float | None,
    *,
    spec: ClockSpec = FISCHER,
    flagged: bool = False,
    bots: tuple[int, ...] = (),
    forfeit: int | None = None,
) -> dict[str, Any]:
    """The clock row expected: the stamps in seconds after T0."""
    return {
        "kind": spec.kind,
        "base": spec.base,
        "increment": spec.increment,
        "per_move": spec.per_move,
        "bot_takeover": spec.bot_takeover,
        "remaining": remaining,
        "running": running,
        "since": None if since is None else at(since),
        "deadline": None if deadline is None else at(deadline),
        "flagged": flagged,
        "bots": list(bots),
        "forfeit": forfeit,
    }


def create(
    svc: MatchService,
    game: str = "clockduel",
    seats: list[SeatRequest] | None = None,
    spec: ClockSpec | None = FISCHER,
    **config: Any,
) -> str:
    return svc.create_match(game, config, seats or [HUMAN, HUMAN], clock=spec).id


def pg_notify(engine: Engine) -> list[str]:
    """PostgreSQL's ``pg_notify`` stood in on SQLite: the payloads it was sent."""
    from sqlalchemy import event

    notified: list[str] = []

    @event.listens_for(engine, "connect")
    def _pg_notify(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.create_function("pg_notify", 2, lambda channel, p: notified.append(p))

    engine.dispose()  # the pooled connections have no such function
    return notified


def said(rt: MatchRuntime) -> list[str]:
    return [e["said"] for e in rt.log_for(None) if e.get("clock")]


def watched(svc: MatchService, match_id: str) -> Subscriber:
    sub = Subscriber(None, send=None)  # type: ignore[arg-type]
    svc.subscribe(match_id, sub)
    sub.render = None
    return sub


# -- creation and moves ------------------------------------------------------------------


def test_creation_starts_the_first_human_seats_clock(svc: MatchService, engine: Engine) -> None:
    m = create(svc)
    assert clock_row(engine, m) == row([60.0, 60.0], 0, 0, 60)
    assert events(engine, m) == [] and match_row(engine, m)[:4] == (1, "running", None, False)
    assert svc.runtimes[m].clock == Clock(FISCHER, [60.0, 60.0], 0, T0)
    days = ClockSpec("days", 0.0, 0.0, 2 * clocks.DAY)
    d = create(svc, spec=days)
    assert clock_row(engine, d) == row([172800.0] * 2, 0, 0, 172800, spec=days)
    # a bot first: nobody's clock runs until a person is to move; no clock: no row
    b = create(svc, "secretduel", [BOT, HUMAN])
    assert clock_row(engine, b) == row([60.0, 60.0], None, 0, None)
    assert svc.runtimes[b].clock == Clock(FISCHER, [60.0, 60.0], None, T0)
    n = create(svc, spec=None)
    with Session(engine) as s:
        assert s.get(ClockRow, n) is None
    assert svc.runtimes[n].clock is None and MatchService(engine).runtime(n).clock is None


def test_a_move_charges_the_mover_and_a_passed_turn_earns_the_increment(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    other = create(svc)

    async def play() -> None:
        now.to(10)
        await svc.move(m, 0, "go", 1)  # the same seat again: charged, no increment
        assert clock_row(engine, m) == row([50.0, 60.0], 0, 10, 60)
        now.to(15)
        await svc.move(m, 0, "end move", 2)
        now.to(20)
        await svc.move(m, 0, "end turn", 3)  # the turn passes: 40 + 5
        assert clock_row(engine, m) == row([45.0, 60.0], 1, 20, 80)
        now.to(30)
        await svc.move(m, 1, "end move", 4)
        now.to(40)
        await svc.move(m, 1, "end turn", 5)
        assert clock_row(engine, m) == row([45.0, 45.0], 0, 40, 85)
        now.to(42)
        await svc.undo(m, 1, 6)  # P2 takes the turn back: P1's 2 s earn no increment
        assert clock_row(engine, m) == row([43.0, 45.0], 1, 42, 87)

    run(play())
    assert svc.runtimes[m].clock == Clock(FISCHER, [43.0, 45.0], 1, at(42))
    assert clock_row(engine, other) == row([60.0, 60.0], 0, 0, 60)  # only its own row
    assert events(engine, m) == [] and match_row(engine, m)[:4] == (7, "running", None, False)


def test_no_clock_runs_for_a_bot_or_at_the_end(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc, "secretduel", [HUMAN, BOT])

    async def play() -> None:
        now.to(10)
        await svc.move(m, 0, "secret RUBY", 2)
        assert clock_row(engine, m) == row([55.0, 60.0], None, 10, None)
        assert match_row(engine, m)[3] is True
        await svc.bot_tasks[m]

    run(play())
    assert clock_row(engine, m) == row([55.0, 60.0], None, 10, None)
    assert match_row(engine, m)[:2] == (4, "finished")


# -- timeouts ------------------------------------------------------------------------------


def test_a_timeout_is_written_once_and_pushed(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    notified: list[str] = []
    svc.shared = True
    svc._notify = lambda session, kind, match_id, version: notified.append(  # type: ignore[method-assign]
        f"{kind} {match_id} {version}"
    )
    m = create(svc)
    notified.clear()
    sub = watched(svc, m)
    now.to(59.999)
    run(svc.check_clock(m))
    assert sub.render is None and clock_row(engine, m)["flagged"] is False
    assert json.loads(svc.runtime(m).payload_json(None))["clock"]["late"] is None
    now.to(60)
    run(svc.check_clock(m))
    assert sub.render is not None and notified == [f"k {m} 1"]
    assert clock_row(engine, m) == row([60.0, 60.0], 0, 0, 60, flagged=True)
    assert events(engine, m) == [(0, 1, "timeout", 0, None, at(60))]
    assert match_row(engine, m) == (1, "running", None, False, at(60))
    rt = svc.runtimes[m]
    assert rt.clock is not None and rt.clock.flagged and said(rt) == ["P1 ran out of time"]
    sub.render = None
    now.to(70)
    run(svc.check_clock(m))  # flagged once
    assert sub.render is None and len(events(engine, m)) == 1
    assert json.loads(svc.runtime(m).payload_json(None))["clock"]["late"] == 0  # redrawn
    n = create(svc, spec=None)
    run(svc.check_clock(n))
    assert svc._flag(svc.runtime(n)) is False


def test_a_timeout_without_a_pass_or_a_bot_agreed_is_a_forfeit(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    finished: list[tuple[Any, ...]] = []
    svc.on_finish.append(
        lambda conn, rt, final: finished.append(
            (conn.__class__.__name__, rt.match_id, final.scores(), final.winners())
        )
    )
    m = create(svc, "secretduel")
    now.to(61)
    run(svc.check_clock(m))
    assert clock_row(engine, m) == row([-1.0, 60.0], None, 61, None, flagged=True, forfeit=0)
    assert events(engine, m) == [
        (0, 2, "timeout", 0, None, at(61)),
        (1, 2, "forfeit", 0, None, at(61)),
    ]
    assert match_row(engine, m) == (2, "finished", [0.0, 1.0], False, at(61))
    assert finished == [("Connection", m, [0.0, 1.0], [1])]
    rt = svc.runtimes[m]
    assert rt.finished and said(rt) == [
        "P1 ran out of time",
        "P1 forfeits on time: the others share the win",
    ]
    rec = svc.record(m)
    assert rec.scores == [0.0, 1.0] and [e["kind"] for e in rec.events] == ["timeout", "forfeit"]
    with pytest.raises(ServerError) as err:
        run(svc.move(m, 0, "secret RUBY", 2))
    refused(err, "match_over", "the match is over", 400)
    again = MatchService(engine).runtime(m)  # replayed: the clock and its events read back
    assert again.clock == rt.clock and again.finished


def test_a_bot_agreed_takes_no_forfeit_at_the_timeout(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc, "secretduel", spec=TAKEOVER)
    now.to(61)
    run(svc.check_clock(m))
    assert clock_row(engine, m) == row([60.0, 60.0], 0, 0, 60, spec=TAKEOVER, flagged=True)
    assert [e[2] for e in events(engine, m)] == ["timeout"]
    assert match_row(engine, m)[:4] == (2, "running", None, False)


def test_a_refused_move_still_shows_the_timeout(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    sub = watched(svc, m)
    with pytest.raises(ServerError):
        run(svc.move(m, 1, "go", 1))  # not P2's turn, and no timeout: nothing to show
    assert sub.render is None
    now.to(60)
    with pytest.raises(ServerError):
        run(svc.move(m, 1, "go", 1))
    assert sub.render is not None and events(engine, m)[0][2] == "timeout"


def test_a_late_seat_that_moves_starts_from_zero(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    now.to(70)

    async def play() -> None:
        await svc.move(m, 0, "go", 1)  # the timeout first, then the move (the flag stays)
        assert clock_row(engine, m) == row([-10.0, 60.0], 0, 70, 60, flagged=True)
        await svc.move(m, 0, "end move", 2)
        await svc.move(m, 0, "end turn", 3)

    run(play())
    assert clock_row(engine, m) == row([5.0, 60.0], 1, 70, 130)
    assert [e[:5] for e in events(engine, m)] == [(0, 1, "timeout", 0, None)]
    assert said(svc.runtimes[m]) == ["P1 ran out of time"]
    log = [e["said"] for e in svc.runtimes[m].log_for(None)]
    assert log.index("P1 ran out of time") == 1  # after the deal, before the moves


# -- the others' answers ------------------------------------------------------------------


def test_skip_passes_each_phase_of_the_late_seats_turn(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    now.to(70)
    sub = watched(svc, m)
    rt = run(svc.clock_action(m, 1, "skip", 1))  # the timeout is written first
    assert sub.render is not None and rt is svc.runtimes[m]
    assert moves(engine, m)[1:] == [(1, 0, "end move"), (2, 0, "end turn")]
    assert events(engine, m) == [
        (0, 1, "timeout", 0, None, at(70)),
        (1, 1, "skip", 0, 1, at(70)),
    ]
    assert clock_row(engine, m) == row([0.0, 60.0], 1, 70, 130)  # no increment
    assert match_row(engine, m)[:4] == (3, "running", None, False)
    assert said(rt) == ["P1 ran out of time", "P2 skips P1's turn (out of time)"]
    assert (rt.version, rt.state.current_player()) == (3, 1)
    assert MatchService(engine).runtime(m).clock == rt.clock


def test_a_skip_stops_after_eight_passes_or_where_none_is(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    long = create(svc, phases=10)
    stuck = create(svc, forced=1)  # its second phase must "take" first
    now.to(60)
    rt = run(svc.clock_action(long, 1, "skip", 1))
    assert [a for _, _, a in moves(engine, long)[1:]] == ["end move"] * 8
    assert (rt.state.current_player(), rt.clock is not None and rt.clock.flagged) == (0, True)
    rt = run(svc.clock_action(long, 1, "skip", 9))  # still late: the rest of the turn
    assert [a for _, _, a in moves(engine, long)[9:]] == ["end move", "end turn"]
    assert [e[2] for e in events(engine, long)] == ["timeout", "skip", "skip"]
    assert rt.state.current_player() == 1
    rt = run(svc.clock_action(stuck, 1, "skip", 1))
    assert [a for _, _, a in moves(engine, stuck)[1:]] == ["end move"]
    assert rt.state.current_player() == 0
    with pytest.raises(ServerError) as err:
        run(svc.clock_action(stuck, 1, "skip", 2))
    refused(err, "cannot_skip", "P1 has no pass in clockduel now: the match can only end", 409)
    with pytest.raises(ServerError) as err:
        svc._skip(svc.runtime(stuck), 0, 1)
    refused(err, "cannot_skip", "P1 cannot pass now", 409)
    assert len(moves(engine, stuck)) == 2


def test_a_skip_that_ends_the_match(svc: MatchService, engine: Engine, now: FakeNow) -> None:
    m = create(svc, "clockduel", [HUMAN, HUMAN, HUMAN], turns=1, players=3)
    now.to(60)
    rt = run(svc.clock_action(m, 2, "skip", 1))
    assert rt.finished and rt.state.is_terminal()
    assert [a for _, _, a in moves(engine, m)[1:]] == ["end move", "end turn"]
    assert match_row(engine, m)[:3] == (3, "finished", [0.0, 0.0, 0.0])
    assert clock_row(engine, m) == row([0.0, 60.0, 60.0], None, 60, None)
    assert events(engine, m)[1][:5] == (1, 1, "skip", 0, 2)


def test_end_forfeits_the_late_seat(svc: MatchService, engine: Engine, now: FakeNow) -> None:
    finished: list[list[float]] = []
    svc.on_finish.append(lambda conn, rt, final: finished.append(final.scores()))
    m = create(svc, "clockduel", [HUMAN, HUMAN, HUMAN], players=3)
    now.to(60)
    run(svc.check_clock(m))
    now.to(75)
    rt = run(svc.clock_action(m, 2, "end", 1))
    assert rt.finished and svc.runtimes[m].forfeit == 0
    assert events(engine, m) == [
        (0, 1, "timeout", 0, None, at(60)),
        (1, 1, "forfeit", 0, 2, at(75)),
    ]
    assert clock_row(engine, m) == row([-15.0, 60.0, 60.0], None, 75, None, flagged=True, forfeit=0)
    assert match_row(engine, m) == (1, "finished", [0.0, 1.0, 1.0], False, at(75))
    assert finished == [[0.0, 1.0, 1.0]]
    assert said(rt)[-1] == "P1 forfeits on time: the others share the win"
    assert svc.record(m).scores == [0.0, 1.0, 1.0]


def test_a_bot_takes_over_a_late_seat_where_agreed(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc, "secretduel", spec=TAKEOVER)
    now.to(70)

    async def play() -> MatchRuntime:
        rt = await svc.clock_action(m, 1, "skip", 2)
        assert clock_row(engine, m) == row([0.0, 60.0], None, 70, None, spec=TAKEOVER, bots=(0,))
        assert match_row(engine, m) == (2, "running", None, True, at(70))
        assert events(engine, m) == [
            (0, 2, "timeout", 0, None, at(70)),
            (1, 2, "bot", 0, 1, at(70)),
        ]
        assert list(svc.bot_tasks) == [m]
        await svc.bot_tasks[m]
        return rt

    rt = run(play())
    assert moves(engine, m)[2][:2] == (2, 0) and rt.state.current_player() == 1
    assert clock_row(engine, m) == row([0.0, 60.0], 1, 70, 130, spec=TAKEOVER, bots=(0,))
    assert said(rt)[-1] == "P2 hands P1's turns to the greedy bot (out of time)"


def test_clock_requests_refused_say_why(svc: MatchService, engine: Engine, now: FakeNow) -> None:
    m = create(svc)
    cases: list[tuple[str, int | None, Any, Any, tuple[str, str, int]]] = [
        (m, None, "skip", 1, ("spectator", "spectators can only watch", 403)),
        (m, 1, "pause", 1, ("malformed", "a clock request is 'skip' or 'end'", 400)),
        (m, 1, None, 1, ("malformed", "a clock request is 'skip' or 'end'", 400)),
        (
            m,
            1,
            "skip",
            "1",
            ("malformed", "a move quotes the version it was made at (integer)", 400),
        ),
        (
            m,
            1,
            "end",
            0,
            ("stale_state", "the move was made at version 0 but the match is at 1", 409),
        ),
        (m, 1, "end", 1, ("not_late", "nobody is out of time", 409)),
        (create(svc, spec=None), 1, "end", 1, ("no_clock", "this match has no clock", 409)),
    ]
    for match_id, seat, what, version, answer in cases:
        with pytest.raises(ServerError) as err:
            run(svc.clock_action(match_id, seat, what, version))
        refused(err, *answer)
    now.to(60)
    with pytest.raises(ServerError) as err:
        run(svc.clock_action(m, 0, "end", 1))
    refused(err, "not_late", "P1 is the late seat: move; the others decide", 409)
    assert [e[2] for e in events(engine, m)] == ["timeout"]  # written, and kept
    run(svc.clock_action(m, 1, "end", 1))
    with pytest.raises(ServerError) as err:
        run(svc.clock_action(m, 1, "end", 1))
    refused(err, "match_over", "the match is over", 400)
    assert not svc.locks[m].locked()


# -- two writers ----------------------------------------------------------------------------


def test_of_two_processes_flagging_one_timeout_one_writes(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    other = MatchService(engine)
    other.runtime(m)
    now.to(60)
    run(svc.check_clock(m))
    sub = watched(other, m)
    sub.render = None
    assert other._flag(other.runtimes[m]) is False  # its cache said "not flagged"
    assert m not in other.runtimes and len(events(engine, m)) == 1
    run(other.check_clock(m))  # re-read: flagged already, nothing to write
    assert sub.render is None and len(events(engine, m)) == 1


def test_a_clock_write_behind_a_move_is_undone(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    other = MatchService(engine)
    other.runtime(m)
    now.to(10)
    run(svc.move(m, 0, "go", 1))
    now.to(61)
    assert other._flag(other.runtimes[m]) is False  # the match row moved on: rolled back
    assert m not in other.runtimes and events(engine, m) == []
    assert clock_row(engine, m) == row([50.0, 60.0], 0, 10, 60)
    run(other.check_clock(m))  # re-read: P1's 50 s from 10 ran out at 60
    assert events(engine, m) == [(0, 2, "timeout", 0, None, at(61))]
    rt = svc.runtimes[m]  # its clock is not the stored one (flagged): a move is refused
    with pytest.raises(ServerError) as err:
        svc._store(rt, rt.plan_move(0, "go"))
    refused(err, "stale_state", "the match moved on meanwhile; reload", 409)
    assert m not in svc.runtimes and len(moves(engine, m)) == 2


def test_a_clock_event_row_taken_already_fails_the_write(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    with Session(engine) as s, s.begin():
        s.add(ClockEventRow(match_id=m, seq=0, at=0, kind="timeout", seat=1, created_at=T0))
    now.to(60)
    with pytest.raises(ServerError) as err:
        run(svc.clock_action(m, 1, "end", 1))
    refused(err, "not_late", "nobody is out of time", 409)  # the timeout was not written
    assert clock_row(engine, m)["flagged"] is False
    assert [e[:5] for e in events(engine, m)] == [(0, 0, "timeout", 1, None)]


def test_a_lost_race_in_an_answer_is_stale(svc: MatchService, engine: Engine, now: FakeNow) -> None:
    m = create(svc, "secretduel", spec=TAKEOVER)
    now.to(61)
    run(svc.check_clock(m))
    for what in ("end", "skip"):
        rt = svc.runtime(m)
        rt.clock.flagged = False  # type: ignore[union-attr]  # as if not the stored clock
        late = 0
        with pytest.raises(ServerError) as err:
            if what == "end":
                svc._forfeit(rt, late, 1)
            else:
                svc._hand_to_bot(rt, late, 1)
        refused(err, "stale_state", "the match moved on meanwhile; reload", 409)
        assert m not in svc.runtimes
    assert [e[2] for e in events(engine, m)] == ["timeout"]


# -- the watch ------------------------------------------------------------------------------


def test_the_watch_flags_the_clocks_that_ran_out(
    svc: MatchService,
    engine: Engine,
    now: FakeNow,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    svc.clock_poll = 0.25
    due = create(svc)  # deadline 60
    later = create(svc, spec=ClockSpec("fischer", 61.0, 0.0, 0.0))
    create(svc, spec=None)
    gone = create(svc, "secretduel")
    flagged = create(svc)
    now.to(60)
    run(svc.check_clock(gone))  # a forfeit: finished
    run(svc.check_clock(flagged))
    with Session(engine) as s, s.begin():  # its clock row looks due, but the match is over
        r = s.get(ClockRow, gone)
        assert r is not None
        r.deadline, r.flagged = at(0), False
    checked: list[str] = []
    real = svc.check_clock

    async def check(match_id: str) -> None:
        checked.append(match_id)
        if len(checked) == 1:
            raise RuntimeError("database down")
        await real(match_id)

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > 2:
            raise asyncio.CancelledError

    svc.check_clock = check  # type: ignore[method-assign]
    kept = svc.runtime(due)
    pg_notify(engine)
    svc.shared = True  # another process's stamps: re-read before the look
    with monkeypatch.context() as patch:
        patch.setattr("motherlode.server.service.asyncio.sleep", sleep)
        with caplog.at_level(logging.ERROR), pytest.raises(asyncio.CancelledError):
            run(svc._clock_watch())
    assert slept == [0.25] * 3 and checked == [due, due] and svc.runtimes[due] is not kept
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("ERROR", "cannot look for clocks that ran out")
    ]
    assert [e[2] for e in events(engine, due)] == ["timeout"] and events(engine, later) == []


def test_the_watch_reads_its_own_runtimes_on_sqlite(
    svc: MatchService, now: FakeNow, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = create(svc)
    kept = svc.runtime(m)
    now.to(60)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) > 1:
            raise asyncio.CancelledError

    with monkeypatch.context() as patch:
        patch.setattr("motherlode.server.service.asyncio.sleep", sleep)
        with pytest.raises(asyncio.CancelledError):
            run(svc._clock_watch())
    assert slept == [1.0, 1.0] and svc.runtimes[m] is kept and kept.clock is not None
    assert kept.clock.flagged


# -- loading and records ---------------------------------------------------------------------


def test_a_clock_is_read_back_with_its_own_events_in_order(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    a, b = create(svc), create(svc)
    now.to(60)
    run(svc.clock_action(a, 1, "skip", 1))
    run(svc.check_clock(b))
    now.to(200)
    run(svc.clock_action(a, 0, "skip", 3))
    fresh = MatchService(engine)
    got = fresh.runtime(a).clock
    assert got == svc.runtimes[a].clock
    assert got is not None and got.events == [
        ClockEvent(1, "timeout", 0),
        ClockEvent(1, "skip", 0, 1),
        ClockEvent(3, "timeout", 1),
        ClockEvent(3, "skip", 1, 0),
    ]
    assert fresh.runtime(b).clock is not None
    assert fresh.runtime(b).clock.events == [ClockEvent(1, "timeout", 0)]  # type: ignore[union-attr]
    with Session(engine) as s:
        assert svc._load_clock(s, "nothing") is None


def test_the_record_carries_the_clock_events_and_the_games_scores(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc, turns=1)
    run(svc.move(m, 0, "go", 1))
    now.to(60)
    run(svc.clock_action(m, 1, "skip", 2))
    rec = svc.record(m)
    assert rec.scores == [1.0, 0.0]
    assert rec.events == [
        {"after": 2, "kind": "timeout", "seat": 0, "text": "P1 ran out of time"},
        {"after": 2, "kind": "skip", "seat": 0, "text": "P2 skips P1's turn (out of time)"},
    ]
    n = create(svc, spec=None, turns=1)
    run(svc.move(n, 0, "end move", 1))
    run(svc.move(n, 0, "end turn", 2))
    assert svc.record(n).events == [] and svc.record(n).scores == [0.0, 0.0]


def test_another_processs_clock_change_is_not_taken_for_a_chat_message(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    """A clock change is NOTIFYed as ``k`` (chat.py's ``c`` is a message, read by its id:
    a clock change sent as ``c`` was delivered as the chat message with the match's
    version for an id, and the other process kept its stale clock)."""
    notified = pg_notify(engine)
    svc.shared = True
    m = create(svc)
    other = MatchService(engine)
    chat: list[tuple[str, int]] = []
    other.notices["c"] = lambda match_id, number: chat.append((match_id, number))
    other.runtime(m)
    now.to(60)
    run(svc.check_clock(m))
    assert notified[-1] == f"k {m} 1 {svc.origin}"
    other.remote_change(notified[-1])
    assert chat == [] and m not in other.runtimes
    assert other.runtime(m).clock == svc.runtimes[m].clock  # read again: flagged
    other.remote_change(f"c {m} 7 {svc.origin}")  # a chat message: to chat.py, as it was
    assert chat == [(m, 7)]


def test_a_forfeit_stored_is_never_written_over(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)
    now.to(60)
    run(svc.check_clock(m))
    other = MatchService(engine)
    other.runtime(m)  # flagged, not over
    run(svc.clock_action(m, 1, "end", 1))
    for answer in (other.clock_action(m, 1, "skip", 1), other.move(m, 0, "go", 1)):
        with pytest.raises(ServerError) as err:  # (the skip's event row is taken, too)
            run(answer)  # the clock write finds the forfeit
        refused(err, "stale_state", "the match moved on meanwhile; reload", 409)
        assert clock_row(engine, m)["forfeit"] == 0 and len(moves(engine, m)) == 1
        other.runtime(m).clock.forfeit = None  # type: ignore[union-attr]  # its cache again


def test_a_clock_answer_quoting_a_newer_version_rereads_the_log_when_shared(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    pg_notify(engine)
    svc.shared = True
    m = create(svc)
    other = MatchService(engine)
    run(other.move(m, 0, "go", 1))  # another process: this one's cache is at version 1
    now.to(60)
    rt = run(svc.clock_action(m, 1, "end", 2))
    assert rt.version == 2 and rt.forfeit == 0


def test_the_clock_is_looked_at_under_the_matchs_lock(
    svc: MatchService, engine: Engine, now: FakeNow
) -> None:
    m = create(svc)

    async def look() -> None:
        async with svc.lock(m):
            early = asyncio.create_task(svc.check_clock(m))  # not due: no need of the lock
            for _ in range(3):
                await asyncio.sleep(0)
            assert early.done()
            now.to(60)
            late = asyncio.create_task(svc.check_clock(m))  # due: waits for the lock
            for _ in range(3):
                await asyncio.sleep(0)
            assert not late.done() and events(engine, m) == []
        await late
        assert [e[2] for e in events(engine, m)] == ["timeout"]

    run(look())


def test_other_modules_notices_go_to_their_handlers(svc: MatchService) -> None:
    got: list[tuple[str, int]] = []
    svc.notices["c"] = lambda match_id, number: got.append((match_id, number))
    svc.remote_change("c abc 5 elsewhere")
    svc.remote_change(f"c abc 6 {svc.origin}")  # its own: nothing
    assert got == [("abc", 5)]


def test_a_match_without_a_deal_starts_the_first_seats_clock_at_creation(
    svc: MatchService, engine: Engine
) -> None:
    m = create(svc, deal=False)  # nothing written with the match: its clock as created
    assert moves(engine, m) == [] and clock_row(engine, m) == row([60.0, 60.0], 0, 0, 60)
    assert svc.runtimes[m].clock == Clock(FISCHER, [60.0, 60.0], 0, T0)


def test_on_load_hooks_get_the_runtime_built(svc: MatchService, engine: Engine) -> None:
    m = create(svc)
    fresh = MatchService(engine)
    got: list[MatchRuntime] = []
    fresh.on_load.append(got.append)
    rt = fresh.runtime(m)
    assert got == [rt]

"""The analysis of a finished match: the strongest bot's judgement of every decision.

* **What**: for each decision of the log (chance steps skipped), the seat, the move
  played, the bot's best move, each one's value from the mover's view (-1 a sure loss ..
  +1 a sure win), the loss (best - played, never below 0) and the bot's top moves with
  their values, in the game's notation and narration. A move with one legal choice is
  ``forced`` (nothing to judge). The biggest mistakes of each seat are marked:
  its :data:`MISTAKES_PER_SEAT` largest losses of at least :data:`MISTAKE_LOSS`.
* **How**: a search bot (MCTS) values the moves by its search (each root child's mean
  value and visits, ``last_search``, as ``hint`` shows it); a bot without such a search
  (a greedy-only game, the planner of Eurorails) by the game's heuristic
  (:func:`motherlode.agents.evaluate.values`) of the position after each move. A played
  move the search never tried is judged by the heuristic too, and says so.
* **Which bot**: the server's ``strongest`` level of the game within the server's caps
  (``--analysis-spec``; server/bots.py), seeded per decision from the match seed, so
  that a match's analysis is the same on every server with the same caps (an iteration
  budget; a time budget depends on the machine).
* **Where, when**: in the analysis workers (:class:`~motherlode.server.botpool.BotPool`
  processes at the lowest priority, ``nice 19``, apart from the bot workers, so that an
  analysis never takes a worker or a core a bot's move waits for); queued in the
  transaction that finishes a match, or on request for a match finished before; one
  decision a job, each written as it is done: a restart resumes where it stopped.
* **Who sees it**: nobody before the match ends (rated or not: in a rated match "no
  undo, no hint and no analysis until it ends"); after it, everyone, like the record and
  its seed, which make every hidden card of the match public then.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from motherlode.server.botpool import BotFailure, BotPool, _Positions
from motherlode.server.db import Base, utcnow
from motherlode.server.deps import Service, json_errors
from motherlode.server.ratings import rated_of
from motherlode.server.runtime import MatchRuntime, ServerError, bot_seed

log = logging.getLogger("motherlode.server")

MISTAKE_LOSS = 0.1
"""The least value lost (on the -1..1 scale) for a decision to be marked a mistake."""
MISTAKES_PER_SEAT = 3
TOP = 4
"""Moves shown in a decision's "why"."""
HEURISTIC_MOVES = 48
"""At most this many legal moves are judged by the heuristic (the played one and the
bot's choice always among them)."""
SCALE = 10.0
"""The score lead the heuristic maps to tanh(1) (MCTS's default ``scale``)."""
NICE = 19
DEFAULT_SPEC = "strongest"


class AnalysisRow(Base):
    """A match's analysis: queued, running or done, and how far it got."""

    __tablename__ = "match_analysis"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(12), default="queued", index=True)
    """``queued``, ``running``, ``done`` or ``failed`` (the match no longer replays)."""
    spec: Mapped[str] = mapped_column(String(200), default="")
    """The bot that judges (set when it starts, kept on resuming)."""
    total: Mapped[int] = mapped_column(Integer, default=0)
    done: Mapped[int] = mapped_column(Integer, default=0)
    requested_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


class AnalysisStepRow(Base):
    """One decision judged: ``step`` is its index in the log (shown as step ``step + 1``)."""

    __tablename__ = "analysis_steps"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    how: Mapped[str] = mapped_column(String(12))
    """``search``, ``heuristic``, ``forced`` or ``failed`` (the worker could not)."""
    played: Mapped[str] = mapped_column(Text)
    best: Mapped[str] = mapped_column(Text)
    played_value: Mapped[float | None] = mapped_column(Float, nullable=True)
    best_value: Mapped[float | None] = mapped_column(Float, nullable=True)
    loss: Mapped[float | None] = mapped_column(Float, nullable=True)
    played_said: Mapped[str] = mapped_column(Text, default="")
    """The played move in the game's words (its narration, as its player saw it)."""
    best_said: Mapped[str] = mapped_column(Text, default="")
    top: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The bot's top moves: ``move`` (notation), ``said``, ``value``, ``visits``."""
    note: Mapped[str] = mapped_column(Text, default="")


# -- judging one decision (in a worker) ---------------------------------------------------


@dataclass(frozen=True)
class AnalysisJob:
    """One decision to judge: the position after ``history``, the move ``played`` there."""

    match_id: str
    game: str
    config: dict[str, Any]
    history: tuple[str, ...]
    played: str
    spec: str
    seed: int

    def run(self, positions: _Positions | None = None) -> dict[str, Any]:
        """The judgement (what :func:`judge` answers), in a worker or here."""
        game, state = (positions or _Positions()).state(self)  # type: ignore[arg-type]
        return judge(game, state, self.played, self.spec, self.seed)


def _r(x: float) -> float:
    return round(float(x), 4)


def _candidates(legal: list[int], *must: int) -> list[int]:
    out = list(legal[:HEURISTIC_MOVES])
    out += [a for a in must if a not in out]
    return out


def judge(game: Any, state: Any, played_text: str, spec: str, seed: int) -> dict[str, Any]:
    """The bot ``spec``'s judgement of playing ``played_text`` at ``state``.

    >>> import motherlode
    >>> game = motherlode.load("yukon")
    >>> state = motherlode.deal(game, seed=3)
    >>> move = state.action_to_string(state.legal_actions()[0])
    >>> row = judge(game, state, move, "mcts:iterations=50", 1)
    >>> row["how"], row["seat"], row["played"] == move, len(row["top"]) <= TOP
    ('search', 0, True, True)
    >>> row["loss"] == max(0.0, round(row["best_value"] - row["played_value"], 4))
    True
    """
    from motherlode.agents import create
    from motherlode.agents.evaluate import values

    mover = state.current_player()
    legal = state.legal_actions()
    played = state.string_to_action(played_text)

    def said(a: int) -> str:
        try:
            return str(state.narrate(a, mover))
        except Exception:  # a narration bug must not lose the analysis
            return str(state.action_to_string(a))

    row: dict[str, Any] = {"seat": mover, "played": played_text, "note": ""}
    if len(legal) == 1:
        return row | {
            "how": "forced",
            "best": played_text,
            "played_value": None,
            "best_value": None,
            "loss": 0.0,
            "top": [],
        }
    agent = create(spec, game, seed=seed)
    best = int(agent.act(state.clone()))
    search = getattr(agent, "last_search", None)
    children = search.get("children") if isinstance(search, dict) else None
    visits: dict[int, int] = {}
    if children:
        how = "search"
        judged = {int(a): float(v) for a, (_n, v) in children.items()}
        visits = {int(a): int(n) for a, (n, _v) in children.items()}
        order = sorted(judged, key=lambda a: (-visits[a], -judged[a], a))
    else:
        how = "heuristic"
        judged = {a: values(state.child(a), SCALE)[mover] for a in _candidates(legal, best, played)}
        order = sorted(judged, key=lambda a: (a != best, -judged[a], a))
    if played not in judged:  # never tried by the search: the heuristic's word
        judged[played] = values(state.child(played), SCALE)[mover]
        row["note"] = "the search never tried the move played: judged by the heuristic"
    top = [
        {
            "move": state.action_to_string(a),
            "said": said(a),
            "value": _r(judged[a]),
            "visits": visits.get(a),
        }
        for a in order[:TOP]
    ]
    best_value, played_value = _r(judged[best]), _r(judged[played])
    return row | {
        "how": how,
        "best": state.action_to_string(best),
        "best_said": said(best),
        "played_said": said(played),
        "played_value": played_value,
        "best_value": best_value,
        "loss": max(0.0, _r(best_value - played_value)),
        "top": top,
    }


# -- the queue and its runner (in the server) ---------------------------------------------


def _insert_ignore(conn: Connection | Session, values: dict[str, Any]) -> None:
    """Insert a queued analysis unless the match has one (in any transaction: never an
    error that would undo the move that finished the match)."""
    bind = conn if isinstance(conn, Connection) else conn.get_bind()
    dialect = bind.dialect.name
    if dialect == "postgresql":
        stmt: Any = postgresql.insert(AnalysisRow).values(**values).on_conflict_do_nothing()
    else:
        stmt = sqlite.insert(AnalysisRow).values(**values).on_conflict_do_nothing()
    conn.execute(stmt)


def decisions(rt: MatchRuntime) -> list[int]:
    """The log indices of the match's decisions (chance steps skipped)."""
    return [i for i, e in enumerate(rt.entries) if e.seat >= 0]


class Analyser:
    """The analyses of one server process: queued as matches finish, run one decision at
    a time in the analysis workers (``workers`` processes; 0: a thread of this process,
    for tests), resumed after a restart."""

    def __init__(self, service: Any, spec: str = DEFAULT_SPEC, workers: int = 1) -> None:
        self.service = service
        self.spec = spec
        self.pool = (
            BotPool(workers, max_seconds=service.caps.max_seconds, nice=NICE, cpu_limit=True)
            if workers > 0
            else None
        )
        self.positions = _Positions()
        self.wake: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.stale_seconds = 60.0 + service.caps.max_seconds * 4
        """On PostgreSQL: a running analysis untouched this long is another process's
        that died, taken over (on SQLite this process is the only one)."""

    # -- queueing

    def on_finish(self, conn: Connection | Session, rt: MatchRuntime, _final: Any) -> None:
        """In the transaction that finishes a match: queue its analysis."""
        now = utcnow()
        _insert_ignore(
            conn,
            {
                "match_id": rt.match_id,
                "status": "queued",
                "spec": "",
                "total": 0,  # (the final step is not in rt yet: counted when it starts)
                "done": 0,
                "requested_at": now,
                "updated_at": now,
            },
        )
        self._wake_soon()

    def request(self, match_id: str) -> dict[str, Any]:
        """Queue the analysis of a match finished before (none yet); its status."""
        rt = self.service.runtime(match_id)
        refuse_running(self.service, rt)
        now = utcnow()
        with self.service.engine.begin() as conn:
            _insert_ignore(
                conn,
                {
                    "match_id": match_id,
                    "status": "queued",
                    "spec": "",
                    "total": len(decisions(rt)),
                    "done": 0,
                    "requested_at": now,
                    "updated_at": now,
                },
            )
        self._wake_soon()
        return analysis_of(self.service, match_id)

    def _wake_soon(self) -> None:
        """Wake the analysis loop: from its event loop, or from a thread (the final move's
        transaction on PostgreSQL runs on one: MatchService._write_step)."""
        if self.wake is None or self.loop is None:
            return
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is self.loop:
            self.wake.set()
        else:
            with contextlib.suppress(RuntimeError):  # (the loop closed: shutting down)
                self.loop.call_soon_threadsafe(self.wake.set)

    # -- running

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()
        self.task = self.loop.create_task(self._loop())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None
        if self.pool is not None:
            await self.pool.close()

    async def _loop(self) -> None:
        assert self.wake is not None
        while True:
            try:
                self.wake.clear()  # before looking: a match finished meanwhile wakes it
                match_id = self._claim_next()
                if match_id is None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), 30.0)
                    continue
                await self.analyse(match_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis failed; again in 5 s")
                await asyncio.sleep(5.0)

    def _claim_next(self) -> str | None:
        """The oldest analysis waiting (or a dead process's), claimed for this one."""
        engine = self.service.engine
        with Session(engine) as s:
            rows = s.execute(
                select(AnalysisRow.match_id, AnalysisRow.status, AnalysisRow.updated_at)
                .where(AnalysisRow.status.in_(("queued", "running")))
                .order_by(AnalysisRow.requested_at)
                .limit(20)
            ).all()
        cutoff = utcnow() - _dt.timedelta(seconds=self.stale_seconds)
        for match_id, status, seen in rows:
            if status == "running" and self.service.shared and seen > cutoff:
                continue  # another process is at it
            with engine.begin() as conn:
                claimed = conn.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.match_id == match_id, AnalysisRow.updated_at == seen)
                    .values(status="running", updated_at=max(utcnow(), seen + _ONE_US))
                )
            if claimed.rowcount == 1:
                return str(match_id)
        return None

    async def analyse(self, match_id: str, limit: int | None = None) -> int:
        """Judge the decisions of ``match_id`` not judged yet (at most ``limit``), each
        written as it is done; the analysis is ``done`` after the last. Returns how
        many were judged now. A match that no longer replays (a rule changed since) is
        ``failed``, never retried."""
        service = self.service
        try:
            rt = service.runtime(match_id)
        except ServerError as err:
            log.warning("cannot analyse match %s: %s", match_id, err)
            self._set_status(match_id, "failed")
            return 0
        texts = tuple(e.text for e in rt.entries)
        config = rt.game.config.model_dump(mode="json")
        with Session(service.engine) as s:
            head = s.get(AnalysisRow, match_id)
            spec = head.spec if head is not None and head.spec else ""
            have = set(
                s.execute(
                    select(AnalysisStepRow.step).where(AnalysisStepRow.match_id == match_id)
                ).scalars()
            )
        if not spec:
            spec = service.caps.apply(self.spec, rt.game)
        todo = [i for i in decisions(rt) if i not in have]
        with service.engine.begin() as conn:
            conn.execute(
                update(AnalysisRow)
                .where(AnalysisRow.match_id == match_id)
                .values(spec=spec, total=len(decisions(rt)))
            )
        judged = 0
        for i in todo if limit is None else todo[:limit]:
            seat = rt.entries[i].seat
            job = AnalysisJob(
                match_id,
                rt.game.name,
                config,
                texts[:i],
                texts[i],
                spec,
                bot_seed(rt.seed, seat) + i,
            )
            row = await self._think(job)
            self._write(match_id, i, seat, row)
            judged += 1
        if limit is None or len(todo) <= limit:
            self._set_status(match_id, "done")
        return judged

    def _set_status(self, match_id: str, status: str) -> None:
        with self.service.engine.begin() as conn:
            conn.execute(
                update(AnalysisRow)
                .where(AnalysisRow.match_id == match_id)
                .values(status=status, updated_at=utcnow())
            )

    async def _think(self, job: AnalysisJob) -> dict[str, Any]:
        try:
            if self.pool is not None:
                answer: dict[str, Any] = await self.pool.run(job)
                return answer
            return await asyncio.to_thread(job.run, self.positions)
        except BotFailure as err:
            reason = err.reason
        except Exception as err:  # the bot's bug: this decision is not judged
            log.exception("analysis of %s step %d", job.match_id, len(job.history) + 1)
            reason = type(err).__name__
        return {
            "seat": -1,
            "how": "failed",
            "played": job.played,
            "best": "",
            "played_value": None,
            "best_value": None,
            "loss": None,
            "top": [],
            "note": f"the analysing bot {reason}",
        }

    def _write(self, match_id: str, step: int, seat: int, row: dict[str, Any]) -> None:
        values = {
            "match_id": match_id,
            "step": step,
            "seat": seat,
            "how": row["how"],
            "played": row["played"],
            "best": row["best"],
            "played_value": row["played_value"],
            "best_value": row["best_value"],
            "loss": row["loss"],
            "played_said": row.get("played_said", ""),
            "best_said": row.get("best_said", ""),
            "top": row["top"],
            "note": row["note"],
        }
        engine = self.service.engine
        dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
        with engine.begin() as conn:
            conn.execute(dialect.insert(AnalysisStepRow).values(**values).on_conflict_do_nothing())
            done = conn.execute(
                select(func.count())
                .select_from(AnalysisStepRow)
                .where(AnalysisStepRow.match_id == match_id)
            ).scalar_one()
            conn.execute(
                update(AnalysisRow)
                .where(AnalysisRow.match_id == match_id)
                .values(done=done, updated_at=utcnow())
            )


_ONE_US = _dt.timedelta(microseconds=1)


# -- what a person (or a client) reads ----------------------------------------------------


def refuse_running(service: Any, rt: MatchRuntime) -> None:
    """No analysis before the end (the issue's rule for rated matches, kept for all:
    the bot's judgement of a running match would be a hint)."""
    if rt.finished:
        return
    if rated_of(service.engine, rt.match_id):
        raise ServerError(
            "match_running",
            "this match is rated: no undo, no hint and no analysis until it ends",
            403,
        )
    raise ServerError("match_running", "the analysis is made when the match ends", 403)


def mistakes(steps: list[dict[str, Any]]) -> set[int]:
    """The steps marked as mistakes: each seat's :data:`MISTAKES_PER_SEAT` largest losses
    of at least :data:`MISTAKE_LOSS` (ties: the earlier step).

    >>> rows = [{"step": i, "seat": i % 2, "loss": x} for i, x in enumerate(
    ...     [0.5, 0.0, 0.2, 0.3, 0.05, 0.4, 0.3, None, 0.1])]
    >>> sorted(mistakes(rows))
    [0, 2, 3, 5, 6]
    """
    out: set[int] = set()
    seats = {r["seat"] for r in steps}
    for seat in seats:
        lost = [
            r
            for r in steps
            if r["seat"] == seat and r["loss"] is not None and r["loss"] >= MISTAKE_LOSS
        ]
        lost.sort(key=lambda r: (-r["loss"], r["step"]))
        out |= {r["step"] for r in lost[:MISTAKES_PER_SEAT]}
    return out


def _fmt(v: float | None) -> str:
    return "?" if v is None else f"{v:+.2f}"


def why(seat: int, row: AnalysisStepRow) -> str:
    """The decision in words: what the bot would have done and why (its top moves).

    >>> r = AnalysisStepRow(how="search", played="a", best="b", played_value=-0.1,
    ...     best_value=0.3, loss=0.4, note="", top=[{"move": "b", "said": "P1 takes b",
    ...     "value": 0.3, "visits": 40}, {"move": "a", "said": "P1 takes a", "value": -0.1,
    ...     "visits": 5}])
    >>> for part in why(0, r).split(". "):
    ...     print(part)
    P1 played a (-0.10); the bot would have played b (+0.30), 0.40 better for P1
    Its top moves by its search: b +0.30 (40 tries), a -0.10 (5 tries).
    """
    p = f"P{seat + 1}"
    if row.how == "forced":
        return f"{p} had only one legal move: {row.played}."
    if row.how == "failed":
        return f"Not judged: {row.note}."
    if row.best == row.played:
        head = f"{p} played {row.played} ({_fmt(row.played_value)}): the bot's choice too."
    else:
        head = (
            f"{p} played {row.played} ({_fmt(row.played_value)}); the bot would have played"
            f" {row.best} ({_fmt(row.best_value)}), {row.loss or 0.0:.2f} better for {p}."
        )
    by = "by its search" if row.how == "search" else "by the game's heuristic"
    moves = ", ".join(
        f"{t['move']} {_fmt(t['value'])}"
        + (f" ({t['visits']} tries)" if t.get("visits") is not None else "")
        for t in row.top
    )
    tail = f" Its top moves {by}: {moves}."
    return head + tail + (f" ({row.note})" if row.note else "")


def analysis_of(service: Any, match_id: str) -> dict[str, Any]:
    """The analysis as the API and the replay page show it (``status``: ``none`` when
    none was asked for, else ``queued``, ``running`` or ``done``)."""
    rt = service.runtime(match_id)
    refuse_running(service, rt)
    with Session(service.engine) as s:
        head = s.get(AnalysisRow, match_id)
        steps = (
            s.execute(
                select(AnalysisStepRow)
                .where(AnalysisStepRow.match_id == match_id)
                .order_by(AnalysisStepRow.step)
            )
            .scalars()
            .all()
        )
    total = len(decisions(rt))
    rows = [
        {
            "step": r.step + 1,
            "seat": r.seat,
            "player": f"P{r.seat + 1}" if r.seat >= 0 else "",
            "how": r.how,
            "played": r.played,
            "best": r.best,
            "played_value": r.played_value,
            "best_value": r.best_value,
            "loss": r.loss,
            "top": r.top,
            "played_said": r.played_said,
            "best_said": r.best_said,
            "why": why(r.seat, r),
            "note": r.note,
        }
        for r in steps
    ]
    marked = mistakes(rows)
    for r in rows:
        r["mistake"] = r["step"] in marked
    status = "none" if head is None else head.status
    done = len(rows)
    return {
        "match": match_id,
        "status": status,
        "spec": head.spec if head is not None else "",
        "total": total,
        "done": done,
        "progress": f"analysed {done} of {total} decisions",
        "enabled": getattr(service, "analyser", None) is not None,
        "mistake_loss": MISTAKE_LOSS,
        "rows": rows,
    }


# -- the API ------------------------------------------------------------------------------


class TopMove(BaseModel):
    move: str
    """In the game's notation."""
    said: str
    """In the game's words, as the mover saw it."""
    value: float
    """From the mover's view: -1 a sure loss .. +1 a sure win."""
    visits: int | None
    """The search's simulated games through it (``null``: judged by the heuristic)."""


class AnalysedDecision(BaseModel):
    step: int
    """The log step (as the replay numbers it)."""
    seat: int
    player: str
    how: str
    """``search``, ``heuristic``, ``forced`` (one legal move) or ``failed``."""
    played: str
    best: str
    played_value: float | None
    best_value: float | None
    loss: float | None
    """best - played, never below 0."""
    mistake: bool
    """One of the seat's biggest mistakes (its 3 largest losses of at least 0.1)."""
    top: list[TopMove]
    played_said: str
    best_said: str
    why: str
    note: str


class AnalysisInfo(BaseModel):
    match: str
    status: str
    """``none`` (not asked for), ``queued``, ``running``, ``done`` or ``failed``."""
    spec: str
    """The bot that judges (within the server's caps)."""
    total: int
    done: int
    progress: str
    enabled: bool
    """Whether this server analyses matches."""
    mistake_loss: float
    rows: list[AnalysedDecision]


router = APIRouter(prefix="/api")
_OK: dict[int | str, dict[str, Any]] = {
    200: {"model": AnalysisInfo, "description": "The analysis, as far as it got"}
}


@router.get(
    "/matches/{match_id}/analysis",
    response_model=None,
    responses={**_OK, **json_errors(403, 404, 422)},
)
async def get_analysis(match_id: str, service: Service) -> dict[str, Any]:
    """The strongest bot's judgement of every decision of a finished match, as far as it
    got (``status``, ``progress``, ``rows``; ``mistake`` marks each seat's worst)."""
    return analysis_of(service, match_id)


@router.post(
    "/matches/{match_id}/analysis",
    response_model=None,
    responses={**_OK, **json_errors(403, 404, 409, 422)},
)
async def request_analysis(match_id: str, service: Service) -> dict[str, Any]:
    """Ask for the analysis of a finished match that has none (idempotent)."""
    analyser: Analyser | None = getattr(service, "analyser", None)
    if analyser is None:
        raise ServerError(
            "analysis_off",
            "this server analyses no matches (motherlode serve --analysis-spec)",
            409,
        )
    return analyser.request(match_id)


def install(app: Any, spec: str | None, workers: int) -> Analyser | None:
    """The analysis routes; with a ``spec``, an :class:`Analyser` that queues every match
    as it finishes (started and closed with the application)."""
    app.include_router(router)
    service = app.state.service
    if not spec:
        service.analyser = None
        return None
    analyser = Analyser(service, spec, workers)
    service.analyser = analyser
    service.on_finish.append(analyser.on_finish)
    return analyser


__all__ = [
    "Analyser",
    "AnalysisJob",
    "AnalysisRow",
    "AnalysisStepRow",
    "analysis_of",
    "judge",
    "mistakes",
]

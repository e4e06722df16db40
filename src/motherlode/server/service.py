"""All matches of a server: creation, moves serialized per match, bots, broadcasting.

Every request is validated against the engine by the match's :class:`MatchRuntime`; a move
is written to the log (one transaction, guarded by the version) before the runtime in
memory moves on, so a crash or restart can lose nothing that a client was told happened.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import datetime as _dt
import hashlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Connection, Dialect, Engine, bindparam, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

import motherlode
from motherlode.agents import create as create_agent
from motherlode.agents import parse_spec
from motherlode.core.chance import HMAC_SHA256
from motherlode.core.errors import AgentSpecError, ConfigError, MotherlodeError
from motherlode.core.protocol import Player
from motherlode.core.records import GameRecord, versions_of
from motherlode.server import clocks
from motherlode.server.botpool import BotFailure, BotJob, BotPool
from motherlode.server.bots import BotCaps
from motherlode.server.db import MatchRow, MoveRow, SeatRow, utcnow
from motherlode.server.fairness import commitment, new_seed
from motherlode.server.pgmoves import MoveWriter, PlainMove
from motherlode.server.push import frame
from motherlode.server.runtime import MatchRuntime, SeatInfo, ServerError, Step, bot_seed

log = logging.getLogger("motherlode.server")

INLINE_BOT_SECONDS = 0.005
"""A bot whose moves take less than this runs on the event loop; slower ones in a thread."""

TRUSTED_BOTS = ("greedy", "random")
"""The games' own fast bots: run in the server process (inline or in a thread); every
other spec (a search, a game's other bots) thinks in the bot workers when there are any."""

CHANNEL = "motherlode"
"""The PostgreSQL NOTIFY channel: ``"<kind> <match id> <version> <origin>"`` per change
(``m``: a move, ``j``: a seat taken, ``k``: a clock change; chat.py's ``c``: a message),
sent in the change's own transaction. A plain move (:mod:`motherlode.server.pgmoves`)
sends ``"r <match id> <version> <origin> <version before> <its log rows as JSON>"``: the
others replay the rows without reading them back (a process of an earlier version reads
an unknown kind as "forget the match", which is right too)."""

NOTICE_BYTES = 7000
"""The longest notice with rows (PostgreSQL's limit is 8000 bytes); longer: an ``m``."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRequest:
    """A seat asked for at creation: a person (``human``) or a bot by agent spec."""

    kind: str = "human"
    spec: str = "human"
    name: str = ""


@dataclass
class CreatedMatch:
    id: str
    seed_sha256: str
    tokens: dict[int, str]
    """The secret token of each human seat: shown once, stored only hashed."""


Render = Callable[[int | None], "Future[tuple[int, str | bytes] | None]"]
"""The push that brings a viewer from the revision it last got (``None``: none, or it
asked for a snapshot) to the current one: ``(revision, text)`` (the bytes of a compressed
frame for a socket that reads them), or ``None`` if it is up to date, drawn off the loop
(:meth:`MatchRuntime.push`)."""


@dataclass(eq=False)
class Subscriber:
    """A connection watching a match: a one-slot mailbox for the board, and its replies.

    The push is built when the connection is ready to send it, not when the match
    changes, from the revision this connection last got: a client that reads slowly gets
    the newest state (a diff from what it has, or a snapshot when that is too old), never
    a queue of old ones, and the server never builds a message nobody will read. Messages
    are built once per (revision, seat) by the runtime and shared by every socket.

    A connection that can be written to directly (``write``: the server's WebSocket
    protocol, server/wsproto.py) and has nothing else in flight is sent a push at once,
    when the match changes, without waking its writer task: the push is built then (it
    would be built on the writer's next turn anyway), framed once for every socket sent
    the same text, and written while the socket takes data. When it does not (its buffer
    full: a slow reader), or a bot may move at once (``settle``), or the push is still
    being drawn in a thread, the writer sends it as above.
    """

    seat: Player | None
    send: Callable[[str], Awaitable[None]]
    render: Render | None = None
    last_rev: int | None = None
    """The revision this connection was last sent (``None``: it needs a snapshot)."""
    source: Render | None = None
    outbox: collections.deque[str] = field(default_factory=collections.deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    send_bytes: Callable[[bytes], Awaitable[None]] | None = None
    """Set when the connection reads compressed pushes (its hello said ``"compress":
    "deflate-raw"``): large ones go through it as binary frames of raw deflate
    (:func:`motherlode.server.runtime.pack`), compressed once for every such socket."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What other modules keep per connection (chat.py: the WebSocket, whether it reads
    the chat)."""
    settle: bool = True
    """Whether the writer lets the event loop go round once before it builds the push
    (a bot about to move at once then moves first, and one push says both); ``False``
    when no bot is due (:meth:`MatchService._push`): the push is built at once."""
    write: Callable[[bytes], bool] | None = None
    """The connection's direct write of a whole frame, ``False`` when it cannot take it
    now (server/wsproto.py); ``None``: every message goes through the writer."""
    busy: bool = False
    """Whether the writer is sending (it woke and has not gone back to wait)."""

    def push_state(self, render: Render, settle: bool = True) -> None:
        self.source = render
        if not settle and self._send_now(render):
            return
        self.render = render
        self.settle = settle
        self.wake.set()

    def _send_now(self, render: Render) -> bool:
        """Send the push at once by the direct write, if nothing is in flight before it
        and it is drawn already; ``False``: the writer is to send it."""
        if self.write is None or self.busy or self.closed or self.wake.is_set():
            return False  # (the writer has something to send first, or is sending)
        try:
            future = render(self.last_rev)
        except Exception:  # (the writer tries again, and tells the client)
            return False
        if not future.done() or future.exception() is not None:
            return False  # drawn in a thread (the writer waits for it), or a failure
        built = future.result()
        if built is None:
            return True  # up to date
        rev, text = built
        if not isinstance(text, str) and self.send_bytes is None:
            return True  # (a packed push: only for sockets that read them, as the writer)
        if not self.write(_framed(text)):
            return False
        self.last_rev = rev
        return True

    def resync(self) -> None:
        """Send a full snapshot next (the client asked: ``sync``)."""
        self.last_rev = None
        if self.source is not None:
            self.push_state(self.source)

    def push(self, text: str) -> None:
        if len(self.outbox) > 64:  # a client that does not read its replies
            self.closed = True
        self.outbox.append(text)
        self.wake.set()

    async def _build(self, render: Render) -> str | bytes | None:
        try:
            future = render(self.last_rev)
            # drawn already (on the loop, or shared with another socket): no hand-off
            # through the loop's wake-up pipe that wrap_future makes for a finished future
            built = future.result() if future.done() else await asyncio.wrap_future(future)
        except Exception:  # a game bug: tell the client (never what), keep going
            log.exception("cannot build a state message")
            self.last_rev = None
            return json.dumps(
                ServerError(
                    "internal", "the state cannot be shown (a server error, logged)"
                ).as_dict()
            )
        if built is None:
            return None
        self.last_rev, text = built
        return text

    async def writer(self) -> None:
        """Send what is queued, in order; a newer state replaces an unsent older one."""
        while not self.closed:
            await self.wake.wait()
            self.busy = True
            try:
                await self._send_waiting()
            finally:
                self.busy = False

    async def _send_waiting(self) -> None:
        if self.settle:  # let a bot that moves at once finish: render once for both
            await asyncio.sleep(0)
        self.wake.clear()
        while self.outbox or self.render is not None:
            if self.render is not None:
                render, self.render = self.render, None
                text = await self._build(render)
                if text is None:
                    continue
            else:
                text = self.outbox.popleft()
            if isinstance(text, str):
                await self.send(text)
            elif self.send_bytes is not None:  # (a packed push: only for such sockets)
                await self.send_bytes(text)


_last_framed: tuple[str | bytes, bytes] = ("", b"")


def _framed(text: str | bytes) -> bytes:
    """:func:`frame` of a push, made once for the sockets it goes to one after another
    (every spectator of a match is sent the same text, in one :meth:`MatchService._push`)."""
    global _last_framed
    last, data = _last_framed
    if last is not text:
        data = frame(text)
        _last_framed = (text, data)
    return data


_INSERT_MOVES = insert(MoveRow)
_ADVANCE_MATCH = (
    update(MatchRow)
    .where(MatchRow.id == bindparam("b_id"), MatchRow.version == bindparam("b_old"))
    .values(
        version=bindparam("b_new"),
        updated_at=bindparam("b_now"),
        status=bindparam("b_status"),
        scores=bindparam("b_scores", type_=JSON()),
        bot_due=bindparam("b_bot_due"),
    )
)
"""Move the match's version on, only from the version the move was made at."""

_ADVANCE_RUNNING = (
    update(MatchRow)
    .where(MatchRow.id == bindparam("b_id"), MatchRow.version == bindparam("b_old"))
    .values(
        version=bindparam("b_new"), updated_at=bindparam("b_now"), bot_due=bindparam("b_bot_due")
    )
)
""":data:`_ADVANCE_MATCH` for a move that does not end the match: its status stays
"running" and its scores unset (a match that is over takes no move), so neither is
written, nor the status's index entry rewritten."""

_MOVE_KEYS = ("match_id", "seq", "kind", "seat", "action", "visible", "note", "created_at")


@dataclass(frozen=True)
class MoveSQL:
    """:data:`_INSERT_MOVES` and :data:`_ADVANCE_MATCH` compiled once for a dialect, to
    run as the driver's own SQL: the same statements and values (each bind converted by
    its column type, as SQLAlchemy would) without building an execution context for each
    move, which cost several times the database's own work on SQLite."""

    insert: str
    advance: str
    advance_running: str
    """:data:`_ADVANCE_RUNNING` (the same binds, some unused)."""
    convert: dict[str, Callable[[Any], Any]]
    """Per bind name: its type's conversion for this dialect (none: passed as is)."""

    @classmethod
    def of(cls, dialect: Dialect) -> MoveSQL:
        if dialect.positional:  # named binds, so the values go as one dict
            dialect = type(dialect)(paramstyle="named")  # type: ignore[call-arg]
        ins = _INSERT_MOVES.compile(dialect=dialect, column_keys=list(_MOVE_KEYS))
        adv = _ADVANCE_MATCH.compile(dialect=dialect)
        convert: dict[str, Callable[[Any], Any]] = {}
        for name, bind in {**ins.binds, **adv.binds}.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                convert[name] = process
        running = _ADVANCE_RUNNING.compile(dialect=dialect)
        return cls(ins.string, adv.string, running.string, convert)

    def values(self, params: dict[str, Any]) -> dict[str, Any]:
        convert = self.convert
        return {k: convert[k](v) if k in convert else v for k, v in params.items()}


def file_options(cls: type[motherlode.Game]) -> set[str]:
    """Options that name files on the server: never settable from the web (they would let a
    visitor make the server read any file)."""
    out = set()
    for name, info in cls.Config.model_fields.items():
        text = f"{name} {info.description or ''}".lower()
        if name.endswith("_file") or "path" in text or " file" in text:
            out.add(name)
    return out


def unplayable(game: motherlode.Game, err: Exception) -> ServerError:
    """A stored match whose log no longer replays (a rule fixed since it was played),
    refused naming the step and the rule changes, never a bare 500."""
    changes = "; ".join(f"rules {v}: {text}" for v, text in sorted(game.rules_changes.items()))
    return ServerError(
        "match_unplayable",
        f"this match no longer replays under {game.name} rules version {game.rules_version}:"
        f" {err}" + (f". The rules changed since version 1: {changes}" if changes else ""),
        409,
    )


class MatchService:
    """The matches of one server process, their runtimes (a cache) and their watchers."""

    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 0.0,
        cache_size: int = 4000,
        caps: BotCaps | None = None,
        bot_workers: int = 0,
        bot_preload: tuple[str, ...] = (),
        takeover_seconds: float | None = None,
        clock_poll: float = 1.0,
    ) -> None:
        """``bot_workers``: processes for bots' thinking (0: threads of this process).
        ``takeover_seconds``: on PostgreSQL, how long a due bot may wait before this
        process takes it over from another (default: the bot delay, the worker's limit and 10 s)."""
        self.engine = engine
        self.bot_delay = bot_delay
        self.clock_poll = clock_poll
        """Seconds between looks for clocks that ran out (server/clocks.py)."""
        self.caps = caps or BotCaps()
        self.pool = (
            BotPool(bot_workers, max_seconds=self.caps.max_seconds, preload=bot_preload)
            if bot_workers > 0
            else None
        )
        self.move_sql = MoveSQL.of(engine.dialect)
        self.sqlite = engine.dialect.name == "sqlite"
        self._moves_raw: Any = None
        """The pool's connection kept for plain moves on SQLite (:meth:`_moves_db`)."""
        self.shared = engine.dialect.name == "postgresql"
        """Other processes may serve the same matches: NOTIFY each change, LISTEN for theirs."""
        self.move_writer = MoveWriter(engine.raw_connection, CHANNEL) if self.shared else None
        """Writes plain moves on PostgreSQL, in groups off the event loop (pgmoves.py)."""
        self.origin = secrets.token_hex(6)
        self.takeover_seconds = (
            takeover_seconds
            if takeover_seconds is not None
            else bot_delay + self.caps.max_seconds * 2 + 15.0
        )
        self.last_commit: dict[str, int] = {}
        """The version this process last wrote per match: a bot loop that loses a race to
        another process's move stops (that process drives the bot now)."""
        self.tokens_of: dict[str, set[str]] = {}
        self.background: list[asyncio.Task[None]] = []
        self.cache_size = cache_size
        self.runtimes: collections.OrderedDict[str, MatchRuntime] = collections.OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.token_cache: dict[str, tuple[str, int]] = {}
        self.games: dict[str, motherlode.Game] = {}
        self.on_finish: list[Callable[[Session | Connection, MatchRuntime, Any], object]] = []
        """Called in the transaction that writes a match's final move, with its final
        state: ratings.py rates a rated match there (once: that write succeeds once)."""
        self.before_undo: list[Callable[[str], None]] = []
        """Checks an undo passes first (ratings.py: no undo in a rated match)."""
        self.on_load: list[Callable[[MatchRuntime], None]] = []
        """Called on each runtime built from the database (accounts.py: the seats'
        account names)."""
        self.handlers: dict[
            str, Callable[[str, Subscriber, dict[str, Any]], Awaitable[dict[str, Any] | None]]
        ] = {}
        """WebSocket message types other modules answer (chat.py: ``chat``, ...)."""
        self.notices: dict[str, Callable[[str, int], None]] = {}
        """Other modules' kinds of NOTIFY (chat.py: ``c``, a message): (match, number)."""

    def game(self, name: str, config: dict[str, Any]) -> motherlode.Game:
        """``motherlode.load(name, **config)``, shared: a Game is immutable."""
        key = f"{name}:{json.dumps(config, sort_keys=True, default=str)}"
        game = self.games.get(key)
        if game is None:
            game = motherlode.load(name, **config)
            if len(self.games) < 1000:
                self.games[key] = game
        return game

    # -- creation -------------------------------------------------------------------

    def create_match(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: list[SeatRequest],
        *,
        public: bool = False,
        claim: int | None = -1,
        match_id: str | None = None,
        clock: clocks.ClockSpec | None = None,
    ) -> CreatedMatch:
        """Validate the game, config and seats; draw the seed; deal; store it all.

        ``claim`` is the creator's own seat, taken at creation so that nobody in the lobby
        can join it before its link is first used (default ``-1``: the first human seat;
        ``None``: every human seat open, e.g. a match set up for others). ``match_id``: an
        id reserved beforehand (a rematch), else a new one."""
        from motherlode.games import game_class

        try:
            blocked = file_options(game_class(game_name)) & {
                k for k, v in options.items() if v not in (None, "")
            }
            if blocked:
                raise ConfigError(
                    f"option(s) {', '.join(sorted(blocked))} name server files and cannot be"
                    " set online"
                )
            game = self.game(game_name, options)
        except ConfigError as err:
            raise ServerError("invalid_config", str(err)) from None
        if len(seats) != game.num_players:
            raise ServerError(
                "invalid_seats",
                f"{game.num_players} players need {game.num_players} seats, got {len(seats)}",
            )
        infos: list[SeatInfo] = []
        for i, req in enumerate(seats):
            kind = "bot" if req.kind == "bot" else "human"
            spec = req.spec.strip() if kind == "bot" else "human"
            if kind == "bot":
                try:
                    create_agent(self.caps.apply(spec, game), game)
                except AgentSpecError as err:
                    raise ServerError("invalid_seats", f"seat {i + 1}: {err}") from None
            infos.append(SeatInfo(i, kind, spec, req.name.strip()[:80]))
        seed = new_seed()
        match_id = match_id or secrets.token_urlsafe(9)
        rt = MatchRuntime(
            match_id, game, seed, commitment(seed), infos, chance=HMAC_SHA256, caps=self.caps
        )
        step = rt.plan_chance()
        tokens = {s.seat: secrets.token_urlsafe(24) for s in infos if s.kind == "human"}
        if claim == -1:
            claim = min(tokens, default=None)
        if claim is not None and claim not in tokens:
            raise ServerError("invalid_seats", f"seat P{claim + 1} is not a seat for a person")
        if claim is not None:
            infos[claim].joined = True
        now = utcnow()
        if clock is not None:  # the first seat to move (after the deal) is on the clock now
            first = step.state.current_player()
            runs = first if first >= 0 and infos[first].kind == "human" else None
            rt.clock = clocks.after_move(clocks.start(clock, len(infos)), runs, now)
        with Session(self.engine) as session, session.begin():
            session.add(
                MatchRow(
                    id=match_id,
                    game=game.name,
                    config=game.config.model_dump(mode="json"),
                    seed=str(seed),
                    seed_sha256=rt.seed_sha256,
                    chance=rt.chance,
                    status="running",
                    public=bool(public),
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
            for s in infos:
                session.add(
                    SeatRow(
                        match_id=match_id,
                        seat=s.seat,
                        kind=s.kind,
                        spec=s.spec,
                        name=s.name,
                        token_sha256=hash_token(tokens[s.seat]) if s.seat in tokens else None,
                        joined_at=now if s.seat == claim else None,
                    )
                )
            session.flush()
            if rt.clock is not None:  # (after its match: no relationship orders the insert)
                session.add(clocks.ClockRow(match_id=match_id, **clocks.to_row_values(rt.clock)))
                session.flush()
            self._write_rows(session, rt, step)
        rt.commit(step)
        self._remember(rt)
        return CreatedMatch(match_id, rt.seed_sha256, tokens)

    # -- loading --------------------------------------------------------------------

    def _remember(self, rt: MatchRuntime) -> None:
        self.runtimes[rt.match_id] = rt
        self.runtimes.move_to_end(rt.match_id)
        while len(self.runtimes) > self.cache_size:
            old, _ = self.runtimes.popitem(last=False)
            if old in self.subscribers or old in self.bot_tasks:
                self.runtimes[old] = _
                break

    def runtime(self, match_id: str) -> MatchRuntime:
        """The match, from the cache or re-played from its log."""
        rt = self.runtimes.get(match_id)
        if rt is not None:
            self.runtimes.move_to_end(match_id)
            return rt
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id, options=[selectinload(MatchRow.seats)])
            if row is None:
                raise ServerError("not_found", f"no match {match_id!r}", status=404)
            moves = session.execute(
                select(MoveRow.kind, MoveRow.seat, MoveRow.action, MoveRow.visible, MoveRow.note)
                .where(MoveRow.match_id == match_id)
                .order_by(MoveRow.seq)
            ).all()
            game = self.game(row.game, row.config)
            seats = [
                SeatInfo(s.seat, s.kind, s.spec, s.name, s.joined_at is not None) for s in row.seats
            ]
            rt = MatchRuntime(
                match_id,
                game,
                int(row.seed),
                row.seed_sha256,
                seats,
                chance=row.chance,
                caps=self.caps,
            )
            rt.clock = self._load_clock(session, match_id)
        try:
            rt.replay_rows([(k, s, a, v, n) for k, s, a, v, n in moves])
        except MotherlodeError as err:
            raise unplayable(game, err) from None
        for hook in self.on_load:
            hook(rt)
        self._remember(rt)
        return rt

    @staticmethod
    def _load_clock(session: Session, match_id: str) -> clocks.Clock | None:
        row = session.get(clocks.ClockRow, match_id)
        if row is None:
            return None
        events = session.execute(
            select(clocks.ClockEventRow)
            .where(clocks.ClockEventRow.match_id == match_id)
            .order_by(clocks.ClockEventRow.seq)
        ).scalars()
        return clocks.from_row(row, list(events))

    def authenticate(self, match_id: str, token: str | None) -> int | None:
        """The seat ``token`` moves for in ``match_id``; ``None`` for no token (a spectator).

        A wrong token (or one of another match) raises ``invalid_token``.
        """
        if not token:
            return None
        digest = hash_token(token)
        cached = self.token_cache.get(digest)
        if cached is None:
            with self.engine.begin() as conn:  # (Core: one select, an update the first time)
                seat = conn.execute(
                    select(SeatRow.match_id, SeatRow.seat, SeatRow.joined_at).where(
                        SeatRow.token_sha256 == digest
                    )
                ).one_or_none()
                if seat is None:
                    raise ServerError("invalid_token", "this seat token is not valid", 403)
                cached = (seat.match_id, seat.seat)
                if seat.joined_at is None:
                    conn.execute(
                        update(SeatRow)
                        .where(SeatRow.match_id == seat.match_id, SeatRow.seat == seat.seat)
                        .values(joined_at=utcnow())
                    )
                    # the other processes that hold the match show the seat taken too
                    # (version -1: a seat's change, not a move)
                    self._notify(conn, "j", seat.match_id, -1)
            self.token_cache[digest] = cached
            self.tokens_of.setdefault(cached[0], set()).add(digest)
        if cached[0] != match_id:
            raise ServerError("invalid_token", "this seat token is not valid for this match", 403)
        rt = self.runtime(match_id)
        if not rt.seats[cached[1]].joined:
            rt.seats[cached[1]].joined = True
            rt._cache.clear()
            self._push(match_id)  # the others see the seat taken
        return cached[1]

    def join(self, match_id: str, seat: int) -> str:
        """Take an open seat of a public match: a fresh token for it (shown once).

        The seat's invitation (if nobody used it yet) stops working: the seat is taken.
        """
        token = secrets.token_urlsafe(24)
        with Session(self.engine) as session, session.begin():
            row = session.get(MatchRow, match_id)
            if row is None:
                raise ServerError("not_found", f"no match {match_id!r}", 404)
            if not row.public:
                raise ServerError("not_public", "this match is by invitation only", 403)
            if row.status != "running":
                raise ServerError("match_over", "the match is over")
            result = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.match_id == match_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.joined_at.is_(None),
                )
                .values(token_sha256=hash_token(token), joined_at=utcnow())
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise ServerError("seat_taken", f"seat P{seat + 1} is not open", 409)
            self._notify(session, "j", match_id, row.version)
        rt = self.runtime(match_id)
        rt.seats[seat].joined = True
        rt._cache.clear()
        self.changed(match_id)
        return token

    # -- moving -----------------------------------------------------------------------

    def lock(self, match_id: str) -> asyncio.Lock:
        if match_id not in self.locks:
            self.locks[match_id] = asyncio.Lock()
        return self.locks[match_id]

    def _move_params(
        self, rt: MatchRuntime, step: Step, now: _dt.datetime
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The values of a step's two statements (:class:`MoveSQL`), converted for the
        driver: the log rows it appends (none: nothing to write), and the match's row
        moved on from the version the step was made at."""
        sql = self.move_sql
        if step.undo:
            rows = [{"kind": "undo", "seat": -1, "action": "", "visible": None}]
        else:
            rows = [
                {
                    "kind": e.kind,
                    "seat": e.seat,
                    "action": e.text,
                    "visible": e.mask(),
                    "note": e.note or None,
                }
                for e in step.entries
            ]
        inserts = [
            sql.values(
                {"match_id": rt.match_id, "seq": rt.version + i, "created_at": now, "note": None}
                | r
            )
            for i, r in enumerate(rows)
        ]
        finished = step.state.is_terminal()
        to_move = step.state.current_player()
        advance = sql.values(
            {
                "b_id": rt.match_id,
                "b_old": rt.version,
                "b_new": rt.version + len(rows),
                "b_now": now,
                "b_status": "finished" if finished else "running",
                "b_scores": [float(s) for s in step.state.scores()] if finished else None,
                "b_bot_due": not finished and to_move >= 0 and rt.is_bot(to_move),
            }
        )
        return inserts, advance

    def _write_rows(self, session: Session | Connection, rt: MatchRuntime, step: Step) -> int:
        """``step``'s rows, its match moved on (with its clock, its hooks and its notice);
        the version the match is at after it."""
        now = utcnow()
        sql = self.move_sql
        conn = session if isinstance(session, Connection) else session.connection()
        inserts, advance = self._move_params(rt, step, now)
        if not inserts:
            return rt.version
        conn.exec_driver_sql(sql.insert, inserts)
        result = conn.exec_driver_sql(sql.advance, advance)
        if result.rowcount != 1:
            raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)
        finished = step.state.is_terminal()
        if rt.clock is not None:
            self._clock_moves(session, rt, step, now)
        if finished:
            for hook in self.on_finish:
                hook(session, rt, step.state)
        self._notify(session, "m", rt.match_id, rt.version + len(inserts))
        return rt.version + len(inserts)

    def _plain(self, rt: MatchRuntime, step: Step) -> bool:
        """Whether ``step`` is only its two statements on SQLite (no clock to charge, not
        the final move that ratings and analysis hook into, no NOTIFY): then
        :meth:`_store` runs them on :meth:`_moves_db`."""
        return self.sqlite and not self.shared and rt.clock is None and not step.state.is_terminal()

    def _moves_db(self) -> Any:
        """The SQLite connection (sqlite3's, from the engine's pool, with its pragmas)
        that :meth:`_store` writes plain moves on, kept for them: a move is its two
        statements and the commit, without a pool checkout, SQLAlchemy's connection and
        an execution context per statement around them. Used on the event loop only."""
        if self._moves_raw is None:
            self._moves_raw = self.engine.raw_connection()
        return self._moves_raw.dbapi_connection

    def _write_plain(self, rt: MatchRuntime, step: Step) -> None:
        """:meth:`_write_rows` for a :meth:`_plain` step, in one transaction of its own:
        the same statements and values, committed (or rolled back) here."""
        inserts, advance = self._move_params(rt, step, utcnow())
        if not inserts:
            return
        db = self._moves_db()
        sql = self.move_sql
        try:
            if len(inserts) == 1:
                db.execute(sql.insert, inserts[0])
            else:
                db.executemany(sql.insert, inserts)
            if db.execute(sql.advance_running, advance).rowcount != 1:  # (not the last move)
                raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)
            db.commit()
        except BaseException:
            db.rollback()
            raise

    def _plain_shared(self, rt: MatchRuntime, step: Step) -> bool:
        """Whether ``step`` is a plain move on PostgreSQL (no clock to charge, not the final
        move that ratings and analysis hook into): then :meth:`_store` writes it as one
        statement with the other moves waiting (:mod:`motherlode.server.pgmoves`)."""
        return (
            self.shared and not self.sqlite and rt.clock is None and not step.state.is_terminal()
        )

    def _shared_move(self, rt: MatchRuntime, step: Step) -> PlainMove | None:
        """What a :meth:`_plain_shared` step writes (None: no log row, nothing to write):
        :meth:`_write_rows`' rows and match row (its status stays running, its scores
        unset), and the notice that carries the rows to the other processes."""
        now = utcnow()
        inserts, advance = self._move_params(rt, step, now)
        if not inserts:
            return None
        new = rt.version + len(inserts)
        rows = tuple((r["kind"], r["seat"], r["action"], r["visible"], r["note"]) for r in inserts)
        notice = f"r {rt.match_id} {new} {self.origin} {rt.version} {json.dumps(rows)}"
        if len(notice.encode()) > NOTICE_BYTES:
            notice = f"m {rt.match_id} {new} {self.origin}"
        return PlainMove(rt.match_id, rt.version, new, now, advance["b_bot_due"], rows, notice)

    # -- clocks (server/clocks.py) -------------------------------------------------------

    def _clock_moves(
        self, session: Session | Connection, rt: MatchRuntime, step: Step, now: _dt.datetime
    ) -> None:
        """The clock after ``step``: the mover charged (and given its increment), the seat
        to move next started; with the clock events the step carries (a skip's)."""
        base = step.clock or rt.clock
        assert base is not None
        to_move = step.state.current_player()
        runs = None if to_move < 0 or rt.is_bot(to_move) else to_move
        new = clocks.after_move(base, runs, now, increment=step.increment and not step.undo)
        self._write_clock(session, rt, new)
        step.clock = new

    def _write_clock(
        self, session: Session | Connection, rt: MatchRuntime, new: clocks.Clock
    ) -> None:
        """Store ``new`` over the clock ``rt`` holds (only if the stored one is still that:
        of two processes flagging one timeout, one writes) and its new events."""
        old = rt.clock
        assert old is not None
        result = session.execute(
            update(clocks.ClockRow)
            .where(
                clocks.ClockRow.match_id == rt.match_id,
                clocks.ClockRow.flagged.is_(old.flagged),
                clocks.ClockRow.forfeit.is_(None),
            )
            .values(**clocks.to_row_values(new))
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("stale_state", "the match's clock moved on meanwhile; reload", 409)
        added = new.events[len(old.events) :]
        if added:
            session.execute(
                insert(clocks.ClockEventRow),
                [
                    {
                        "match_id": rt.match_id,
                        "seq": len(old.events) + i,
                        "at": e.at,
                        "kind": e.kind,
                        "seat": e.seat,
                        "by": e.by,
                        "created_at": utcnow(),
                    }
                    for i, e in enumerate(added)
                ],
            )

    def _save_clock(self, rt: MatchRuntime, new: clocks.Clock) -> bool:
        """Write a clock change that is not a move (a timeout, a bot taking over, a
        forfeit) with its events; a forfeit finishes the match. ``False``: another writer
        was first (the cache is dropped; the next look re-reads it)."""
        cp = rt.state.current_player()
        values: dict[str, Any] = {
            "updated_at": utcnow(),
            "bot_due": new.forfeit is None
            and cp >= 0
            and (rt.seats[cp].kind == "bot" or cp in new.bots),
        }
        if new.forfeit is not None:
            scores = clocks.forfeit_scores(len(rt.seats), new.forfeit)
            values |= {"status": "finished", "scores": scores}
        try:
            with self.engine.begin() as conn:
                self._write_clock(conn, rt, new)
                result = conn.execute(
                    update(MatchRow)
                    .where(MatchRow.id == rt.match_id, MatchRow.version == rt.version)
                    .values(**values)
                )
                if result.rowcount != 1:
                    raise ServerError("stale_state", "the match moved on meanwhile", 409)
                if new.forfeit is not None:
                    final = clocks.Forfeited(len(rt.seats), new.forfeit)
                    for hook in self.on_finish:
                        hook(conn, rt, final)
                self._notify(conn, "k", rt.match_id, rt.version)
        except (IntegrityError, ServerError):
            self.forget(rt.match_id)
            return False
        rt.clock = new
        rt._cache.clear()
        return True

    def _flag(self, rt: MatchRuntime) -> bool:
        """Write the timeout of the seat to move if its time ran out (under the match's
        lock); in a game that cannot skip and without a bot agreed, it is a forfeit."""
        clock = rt.clock
        if clock is None or rt.finished:
            return False
        seat = clocks.timed_out(clock, utcnow())
        if seat is None:
            return False
        at = len(rt.entries)
        events = [*clock.events, clocks.ClockEvent(at, "timeout", seat)]
        new = dataclasses.replace(clock, flagged=True, events=events)
        if not clocks.can_skip(rt.game.name) and not clock.spec.bot_takeover:
            new = clocks.stop(new, seat, utcnow())
            events.append(clocks.ClockEvent(at, "forfeit", seat))
        return self._save_clock(rt, new)

    async def check_clock(self, match_id: str) -> None:
        """On each request for a match and from the periodic watch: a clock that ran
        out is written (and pushed) now."""
        rt = self.runtime(match_id)
        if rt.clock is None or rt.finished or clocks.timed_out(rt.clock, utcnow()) is None:
            return
        async with self.lock(match_id):
            flagged = self._flag(self.runtime(match_id))
        if flagged:
            self.changed(match_id)

    async def clock_action(
        self, match_id: str, seat: int | None, what: Any, version: Any
    ) -> MatchRuntime:
        """Another seat's answer to a timeout: ``skip`` the late seat's turn (its game's
        pass, or the greedy bot takes it over where agreed) or ``end`` the match (a
        forfeit)."""
        if seat is None:
            raise ServerError("spectator", "spectators can only watch", 403)
        if what not in ("skip", "end"):
            raise ServerError("malformed", "a clock request is 'skip' or 'end'")
        async with self.lock(match_id):
            rt = self._current(match_id, version)
            self._check_version(rt, version)
            self._flag(rt)
            rt = self.runtime(match_id)
            late = self._late(rt, seat)
            if what == "end":
                self._forfeit(rt, late, seat)
            elif clocks.skip_action(rt.state) is not None:
                self._skip(rt, late, seat)
            elif rt.clock is not None and rt.clock.spec.bot_takeover:
                self._hand_to_bot(rt, late, seat)
            else:
                raise ServerError(
                    "cannot_skip",
                    f"P{late + 1} has no pass in {rt.game.name} now: the match can only end",
                    409,
                )
        self.changed(match_id)
        return rt

    @staticmethod
    def _late(rt: MatchRuntime, seat: int) -> int:
        if rt.finished:
            raise ServerError("match_over", "the match is over")
        if rt.clock is None:
            raise ServerError("no_clock", "this match has no clock", 409)
        late = clocks.late(rt.clock)
        if late is None:
            raise ServerError("not_late", "nobody is out of time", 409)
        if seat == late:
            raise ServerError(
                "not_late", f"P{seat + 1} is the late seat: move; the others decide", 409
            )
        return late

    def _forfeit(self, rt: MatchRuntime, late: int, by: int) -> None:
        clock = rt.clock
        assert clock is not None
        event = clocks.ClockEvent(len(rt.entries), "forfeit", late, by)
        new = clocks.stop(clock, late, utcnow())
        new.events = [*clock.events, event]
        if not self._save_clock(rt, new):
            raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)

    def _hand_to_bot(self, rt: MatchRuntime, late: int, by: int) -> None:
        clock = rt.clock
        assert clock is not None
        event = clocks.ClockEvent(len(rt.entries), "bot", late, by)
        stopped = clocks.after_move(clock, None, utcnow(), increment=False)
        new = dataclasses.replace(stopped, bots=(*clock.bots, late), events=[*clock.events, event])
        if not self._save_clock(rt, new):
            raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)

    def _skip(self, rt: MatchRuntime, late: int, by: int) -> None:
        """The late seat's turn passed with its game's pass (clocks.SKIP_WORDS), the skip
        event written with the first pass; no increment."""
        clock = rt.clock
        assert clock is not None
        action = clocks.skip_action(rt.state)
        if action is None:
            raise ServerError("cannot_skip", f"P{late + 1} cannot pass now", 409)
        event = clocks.ClockEvent(len(rt.entries), "skip", late, by)
        base: clocks.Clock | None = dataclasses.replace(clock, events=[*clock.events, event])
        for _ in range(8):  # a turn of several phases passes each (Eurorails: 2)
            step = rt.plan_move(late, action)
            step.clock, step.increment = base, False
            self._store(rt, step)
            base = None
            action = clocks.skip_action(rt.state)
            if rt.finished or rt.state.current_player() != late or action is None:
                break

    async def _clock_watch(self) -> None:
        """Every ``clock_poll`` seconds: write the timeouts of clocks that ran out (the
        stored deadlines; any process may, one wins)."""
        while True:
            await asyncio.sleep(self.clock_poll)
            try:
                with Session(self.engine) as session:
                    due = (
                        session.execute(
                            select(clocks.ClockRow.match_id)
                            .join(MatchRow, MatchRow.id == clocks.ClockRow.match_id)
                            .where(
                                MatchRow.status == "running",
                                clocks.ClockRow.deadline <= utcnow(),
                                clocks.ClockRow.flagged.is_(False),
                            )
                            .limit(500)
                        )
                        .scalars()
                        .all()
                    )
                for match_id in due:
                    if self.shared:
                        self.forget(match_id)  # its stamps may be another process's
                    await self.check_clock(match_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cannot look for clocks that ran out")

    def _notify(
        self, session: Session | Connection, kind: str, match_id: str, version: int
    ) -> None:
        """Tell the other processes (on commit: NOTIFY is transactional)."""
        if self.shared:
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{kind} {match_id} {version} {self.origin}"},
            )

    def _store(self, rt: MatchRuntime, step: Step) -> None:
        try:
            if self._plain(rt, step):
                self._write_plain(rt, step)
            elif self._plain_shared(rt, step):
                move = self._shared_move(rt, step)
                if move is not None and not self._writer().write_now(move):
                    raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)
            elif self._write_step(rt, step) is None:
                raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)
        except (IntegrityError, ServerError, sqlite3.IntegrityError):
            self.runtimes.pop(rt.match_id, None)  # another writer: re-read the log next time
            raise ServerError("stale_state", "the match moved on meanwhile; reload", 409) from None
        rt.commit(step)
        self.last_commit[rt.match_id] = rt.version

    def _write_step(self, rt: MatchRuntime, step: Step) -> int | None:
        """:meth:`_write_rows` in one transaction (Core, not the ORM), for a step that is
        not a plain move; on PostgreSQL on a thread of its own (it only reads ``rt``: the
        loop commits the step after). The match's new version; ``None`` when another
        writer moved the match first."""
        try:
            with self.engine.begin() as conn:
                return self._write_rows(conn, rt, step)
        except (IntegrityError, ServerError):
            return None

    def _writer(self) -> MoveWriter:
        assert self.move_writer is not None  # (on PostgreSQL)
        return self.move_writer

    async def _save(self, rt: MatchRuntime, step: Step) -> MatchRuntime:
        """:meth:`_store` for the event loop's tasks: on PostgreSQL a move waits for its
        write while the loop serves the other matches: a plain one for its statement
        (:class:`MoveWriter`), any other (the final move with its ratings and analysis, a
        clock's) for its transaction on a thread (:meth:`_write_step`). The match's
        runtime after the move: ``rt``, or the one read back from the database where
        ``rt`` was dropped meanwhile."""
        move = self._shared_move(rt, step) if self._plain_shared(rt, step) else None
        if move is None and not (self.shared and not self.sqlite):
            self._store(rt, step)  # (SQLite: a local file, in WAL mode: no wait for a server)
            return rt
        try:  # (the caller's lock on the match is held meanwhile)
            if move is not None:
                written = await asyncio.shield(self._writer().write(move))
                new: int | None = move.new if written else None
            else:
                new = await asyncio.shield(asyncio.to_thread(self._write_step, rt, step))
        except BaseException:  # cancelled (its socket closed), or the connection broke:
            self.forget(rt.match_id)  # it may be written all the same, so read it back
            raise
        if new is None:
            self.runtimes.pop(rt.match_id, None)  # another writer: re-read the log next time
            raise ServerError("stale_state", "the match moved on meanwhile; reload", 409)
        self.last_commit[rt.match_id] = new
        if self.runtimes.get(rt.match_id) is not rt:
            # dropped while its statement was written (another process's notice: a seat
            # taken ...), and maybe read again without this move meanwhile: read it back
            self.forget(rt.match_id)
            return self.runtime(rt.match_id)
        rt.commit(step)
        return rt

    async def move(
        self,
        match_id: str,
        seat: int | None,
        action: Any,
        version: Any,
        command: Any = None,
        *,
        note: str = "",
    ) -> MatchRuntime:
        """Apply ``action`` (notation or id) for ``seat`` if ``version`` is current; or a
        ``command`` for people (``state.expand``) as one step. ``note``: said with the
        move in the log (a bot replaced for this move)."""
        if seat is None:
            raise ServerError("spectator", "spectators can only watch", 403)
        async with self.lock(match_id):
            rt = self._current(match_id, version)
            flagged = self._flag(rt)  # a clock that ran out is written first (it may end
            try:  # the match); a refused move still lets everyone see that timeout
                rt, step = self._plan_locked(match_id, seat, action, version, command, note)
                rt = await self._save(rt, step)
            except ServerError:
                if flagged:
                    self._push(match_id)
                raise
        self.changed(match_id)
        return rt

    def _plan_locked(
        self, match_id: str, seat: int, action: Any, version: Any, command: Any, note: str
    ) -> tuple[MatchRuntime, Step]:
        rt = self.runtime(match_id)
        if rt.finished:
            raise ServerError("match_over", "the match is over")
        self._check_version(rt, version)
        step = rt.plan_command(seat, command) if command is not None else rt.plan_move(seat, action)
        if note:
            step.entries[0].note = note
        return rt, step

    def preview(self, match_id: str, seat: int | None, command: Any) -> dict[str, Any]:
        """What ``command`` would do for ``seat`` now: not a move."""
        if seat is None:
            raise ServerError("spectator", "spectators can only watch", 403)
        return self.runtime(match_id).preview(seat, command)

    async def undo(self, match_id: str, seat: int | None, version: Any) -> MatchRuntime:
        if seat is None:
            raise ServerError("spectator", "spectators can only watch", 403)
        for check in self.before_undo:
            check(match_id)
        async with self.lock(match_id):
            rt = self._current(match_id, version)
            self._check_version(rt, version)
            step = rt.plan_undo(seat)
            rt = await self._save(rt, step)
        self.changed(match_id)
        return rt

    def _current(self, match_id: str, version: Any) -> MatchRuntime:
        """The runtime, re-read from the log when a move quotes a newer version than the
        cache holds (another process moved the match; its notice may not be here yet)."""
        rt = self.runtime(match_id)
        newer = isinstance(version, int) and not isinstance(version, bool) and version > rt.version
        if self.shared and newer:  # (on SQLite this process is the only writer)
            self.forget(match_id)
            rt = self.runtime(match_id)
        return rt

    def forget(self, match_id: str) -> None:
        """Drop what this process holds of ``match_id`` (its runtime, its tokens): another
        process changed it; the next use re-reads the database."""
        self.runtimes.pop(match_id, None)
        for digest in self.tokens_of.pop(match_id, ()):
            self.token_cache.pop(digest, None)

    @staticmethod
    def _check_version(rt: MatchRuntime, version: Any) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("malformed", "a move quotes the version it was made at (integer)")
        if version != rt.version:
            raise ServerError(
                "stale_state",
                f"the move was made at version {version} but the match is at {rt.version}",
                409,
            )

    # -- watching -------------------------------------------------------------------

    def subscribe(self, match_id: str, sub: Subscriber) -> None:
        self.subscribers.setdefault(match_id, set()).add(sub)
        sub.push_state(self._renderer(match_id, sub.seat, sub.send_bytes is not None))

    def unsubscribe(self, match_id: str, sub: Subscriber) -> None:
        subs = self.subscribers.get(match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[match_id]
        sub.closed = True
        sub.wake.set()

    def changed(self, match_id: str, *, bots: bool = True) -> None:
        """After a change: push the new state to every watcher; let a bot move (``bots``:
        unless another process made the change: the process that wrote a move drives the
        bot after it)."""
        self._push(match_id)
        if bots:
            self.kick_bots(match_id)

    def _push(self, match_id: str) -> None:
        """Tell every watcher of ``match_id`` that it has a newer state to fetch (after a
        tick of the loop if a bot may move at once: :attr:`Subscriber.settle`)."""
        subs = self.subscribers.get(match_id)
        if not subs:
            return
        rt = self.runtimes.get(match_id)
        settle = match_id in self.bot_tasks or rt is None or rt.bot_to_move() is not None
        for sub in list(subs):
            sub.push_state(self._renderer(match_id, sub.seat, sub.send_bytes is not None), settle)

    def _renderer(self, match_id: str, seat: Player | None, packed: bool = False) -> Render:
        return lambda last: self.runtime(match_id).push(seat, last, packed)

    # -- bots -----------------------------------------------------------------------

    def kick_bots(self, match_id: str) -> None:
        if match_id in self.bot_tasks:
            return
        rt = self.runtime(match_id)
        if rt.finished or rt.bot_to_move() is None:
            return
        task = asyncio.get_running_loop().create_task(self._bot_loop(match_id))
        self.bot_tasks[match_id] = task

    async def _bot_loop(self, match_id: str) -> None:
        failures = 0
        slow: dict[int, float] = {}
        try:
            while failures < 3:
                rt = self.runtime(match_id)
                seat = rt.bot_to_move()
                if seat is None or rt.finished:
                    return
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                version = rt.version
                try:
                    action, note = await self._bot_action(rt, seat, slow)
                    await self.move(match_id, seat, action, version, note=note)
                    failures = 0
                except ServerError as err:
                    log.warning("bot in %s seat %d: %s %s", match_id, seat, err.code, err)
                    if err.code != "stale_state":
                        failures += 1
                    elif self.shared and self._moved_elsewhere(match_id):
                        return  # another process wrote the last move: it drives the bot
                except Exception:  # a broken bot must not take the server down
                    failures += 1
                    log.exception("bot in %s seat %d failed", match_id, seat)
        finally:
            self.bot_tasks.pop(match_id, None)

    def _moved_elsewhere(self, match_id: str) -> bool:
        self.forget(match_id)
        return self.runtime(match_id).version != self.last_commit.get(match_id)

    async def _bot_action(
        self, rt: MatchRuntime, seat: int, slow: dict[int, float]
    ) -> tuple[int, str]:
        """The bot's action and the log's note about it: the bot workers think a search
        bot's move; one that crashes or runs past its cap is replaced by the game's greedy
        bot for this move, and the note says so."""
        spec = rt.bot_spec(seat)
        name = parse_spec(spec)[0]
        if self.pool is None or name in TRUSTED_BOTS:
            return await self._act_here(rt, seat, slow), ""
        job = BotJob(
            rt.match_id,
            rt.game.name,
            rt.game.config.model_dump(mode="json"),
            tuple(e.text for e in rt.entries),
            spec,
            bot_seed(rt.seed, seat) + rt.version,
        )
        try:
            return await self.pool.act(job), ""
        except BotFailure as err:
            fallback = rt.fallback_spec()
            agent = create_agent(fallback, rt.game, seed=bot_seed(rt.seed, seat) + rt.version)
            action = await asyncio.to_thread(agent.act, rt.state.clone())
            said = parse_spec(rt.seats[seat].spec)[0]
            return int(
                action
            ), f"P{seat + 1}'s bot ({said}) {err.reason}; the {fallback} bot moved instead"

    @staticmethod
    async def _act_here(rt: MatchRuntime, seat: int, slow: dict[int, float]) -> int:
        """A bot in this process: on the event loop when it is known to be fast, else in a
        thread (no bot workers, or one of the games' own fast bots)."""
        snapshot = rt.state.clone()
        agent = rt.agent(seat)
        started = time.perf_counter()
        if slow.get(seat, 1.0) < INLINE_BOT_SECONDS:  # unknown: a thread
            action = agent.act(snapshot)  # a fast bot: a thread costs more
        else:
            action = await asyncio.to_thread(agent.act, snapshot)
        slow[seat] = max(slow.get(seat, 0.0) * 0.8, time.perf_counter() - started)
        return int(action)

    def resume_bots(self, older_than: float | None = None) -> int:
        """After a (re)start, and periodically on PostgreSQL: drive every running match
        whose bot is due (``older_than``: only those whose last change is that many
        seconds old, i.e. whose process died). Each is claimed first (its ``updated_at``
        moved on from the value read), so of several processes exactly one takes it."""
        with Session(self.engine) as session:
            query = select(MatchRow.id, MatchRow.updated_at).where(
                MatchRow.status == "running", MatchRow.bot_due.is_(True)
            )
            if older_than is not None:
                cutoff = utcnow() - _dt.timedelta(seconds=older_than)
                query = query.where(MatchRow.updated_at < cutoff)
            due = session.execute(query).all()
        resumed = 0
        for match_id, seen in due:
            if match_id in self.bot_tasks or not self._claim(match_id, seen):
                continue
            try:
                self.forget(match_id)  # its last moves may be another process's
                self.kick_bots(match_id)
                if match_id not in self.bot_tasks:  # not due after all (e.g. a database
                    self._not_due(self.runtime(match_id))  # upgraded by 0005): say so
            except Exception:
                log.exception("cannot resume match %s", match_id)
                continue
            resumed += match_id in self.bot_tasks
        return resumed

    def _not_due(self, rt: MatchRuntime) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(MatchRow)
                .where(MatchRow.id == rt.match_id, MatchRow.version == rt.version)
                .values(bot_due=False)
            )

    def _claim(self, match_id: str, seen: _dt.datetime) -> bool:
        with self.engine.begin() as conn:
            result = conn.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.updated_at == seen)
                .values(updated_at=max(utcnow(), seen + _dt.timedelta(microseconds=1)))
            )
        return bool(result.rowcount == 1)

    async def start(self) -> None:
        """At start-up: resume the due bots; on PostgreSQL, listen for the other
        processes' changes and take over the bots of a process that died."""
        self.resume_bots()
        loop = asyncio.get_running_loop()
        self.background = [loop.create_task(self._clock_watch())]
        if self.shared:
            self.background += [
                loop.create_task(self._listen()),
                loop.create_task(self._take_over()),
            ]

    async def _take_over(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.takeover_seconds / 3))
            try:
                taken = self.resume_bots(older_than=self.takeover_seconds)
            except Exception:
                log.exception("cannot look for bots to take over")
                continue
            if taken:
                log.warning("took over %d match(es) whose bot waited too long", taken)

    async def _listen(self) -> None:
        """LISTEN for the other processes' changes (psycopg 3, its own connection); on each,
        forget what this process holds of the match and push it to its watchers."""
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for match_id in list(self.runtimes):  # what changed while not listening
                        self.remote_change(f"m {match_id} -1 ?")
                    async for notice in conn.notifies():
                        self.remote_change(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("listening for other processes' changes: %s; again in 1 s", err)
                await asyncio.sleep(1.0)

    def remote_change(self, payload: str) -> None:
        """One notice ``"<kind> <match> <version> <origin>"``: unless this process sent it,
        or already holds that version, forget the match here and push it to its watchers."""
        try:
            kind, match_id, version, origin, *rest = payload.split(" ", 5)
            if origin == self.origin:  # (its own: before reading the rows it carries)
                return
            seen = int(version)
            base, rows = (int(rest[0]), rest[1]) if kind == "r" else (-1, "[]")
        except (ValueError, IndexError):
            log.warning("a notice not understood: %r", payload[:200])
            return
        if kind in self.notices:
            self.notices[kind](match_id, seen)
            return
        rt = self.runtimes.get(match_id)
        if kind in ("m", "r") and rt is not None and rt.version >= seen >= 0:
            return
        if kind == "r" and rt is not None and rt.version == base:
            caught_up = self._replay_notice(rt, rows)  # (the rows came with the notice)
        else:
            caught_up = kind in ("m", "r") and rt is not None and self._catch_up(rt)
        if not caught_up:
            self.forget(match_id)
        if match_id in self.subscribers:
            try:
                self.changed(match_id, bots=False)
            except Exception:
                log.exception("cannot push match %s", match_id)

    @staticmethod
    def _replay_notice(rt: MatchRuntime, rows: str) -> bool:
        """Replay the log rows another process's notice carried (pgmoves.py, as JSON:
        read only here, where they are replayed); ``False`` if they do not replay (then
        forget the match)."""
        try:
            parsed = json.loads(rows)
            rt.replay_rows([(str(k), int(s), str(a), v, n) for k, s, a, v, n in parsed])
        except Exception:
            log.exception("cannot replay a notice's rows of match %s", rt.match_id)
            return False
        return True

    def _catch_up(self, rt: MatchRuntime) -> bool:
        """Replay onto the cached runtime only the rows written since it (another
        process's moves), instead of the whole log; ``False`` if it cannot (then forget)."""
        try:
            with Session(self.engine) as session:
                rows = session.execute(
                    select(
                        MoveRow.kind, MoveRow.seat, MoveRow.action, MoveRow.visible, MoveRow.note
                    )
                    .where(MoveRow.match_id == rt.match_id, MoveRow.seq >= rt.version)
                    .order_by(MoveRow.seq)
                ).all()
            rt.replay_rows([(k, s, a, v, n) for k, s, a, v, n in rows])
        except Exception:  # anything odd: the whole log again, on next use
            log.exception("cannot catch up with match %s", rt.match_id)
            return False
        return True

    async def close(self) -> None:
        tasks = [*self.bot_tasks.values(), *self.background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.background = []
        if self.move_writer is not None:
            self.move_writer.close()
        if self._moves_raw is not None:
            self._moves_raw.close()  # (back to the engine's pool)
            self._moves_raw = None
        if self.pool is not None:
            await self.pool.close()

    # -- listings, records ------------------------------------------------------------

    def list_matches(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        with Session(self.engine) as session:
            query = select(MatchRow).options(selectinload(MatchRow.seats))
            if status is not None:
                query = query.where(MatchRow.status == status)
            rows = (
                session.execute(query.order_by(MatchRow.updated_at.desc()).limit(limit))
                .scalars()
                .all()
            )
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "config": r.config,
                    "status": r.status,
                    "public": r.public,
                    "version": r.version,
                    "seed_sha256": r.seed_sha256,
                    "updated_at": r.updated_at.isoformat(timespec="seconds") + "Z",
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "spec": s.spec,
                            "name": s.name,
                            "open": s.kind == "human" and s.joined_at is None,
                        }
                        for s in r.seats
                    ],
                    "scores": r.scores,
                }
                for r in rows
            ]

    def record(self, match_id: str) -> GameRecord:
        """The game record of a finished match (with its seed)."""
        rt = self.runtime(match_id)
        if not rt.finished:
            raise ServerError(
                "match_running", "the record (and its seed) is published when the match ends", 403
            )
        forfeit = rt.forfeit
        return GameRecord(
            game=rt.game.name,
            config=rt.game.config.model_dump(mode="json"),
            players=[s.spec if s.kind == "bot" else (s.name or "human") for s in rt.seats],
            seed=rt.seed,
            actions=[e.text for e in rt.entries],
            scores=[float(s) for s in rt.state.scores()]
            if forfeit is None
            else clocks.forfeit_scores(len(rt.seats), forfeit),
            versions={**versions_of(rt.game), "chance": rt.chance},
            events=[e.as_record() for e in rt.clock.events] if rt.clock else [],
        )

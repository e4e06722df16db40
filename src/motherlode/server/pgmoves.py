"""Plain moves on PostgreSQL, written in groups off the event loop (group commit).

A plain move (no clock to charge, not the match's last: :meth:`MatchService._plain_shared`)
is its log rows, its match's row moved on from the version it was made at, and its notice
to the other processes. :class:`MoveWriter` writes every such move that is waiting as
**one statement** on a connection of its own, on a thread of its own, so that the event
loop serves the other matches while PostgreSQL commits: the moves that arrive meanwhile
go together in the next statement. Under load a statement carries many matches' moves and
costs PostgreSQL one parse, one transaction and one WAL flush for all of them; at rest it
carries one.

Each move keeps its own guard: its match's row moves on only from the version the move was
made at (another process may have moved that match first), its rows are inserted only if
it did, and its notice is sent only then. The statement answers which matches moved on; a
move whose match did not is refused as stale, the others stand. The statement is one
transaction: if any row cannot be inserted (a row of that version written meanwhile), none
is, and the moves are written again one by one, so that only that move is refused.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LogRow = tuple[str, int, str, str | None, str | None]
"""A log row as a move writes it: kind, seat, action, visible (the mask), note."""


@dataclass(frozen=True, slots=True)
class PlainMove:
    """What one plain move writes: the match's row moved on from ``old`` to ``new`` (rows
    ``old`` .. ``new - 1`` of its log), and ``notice`` sent on ``channel`` if it did."""

    match_id: str
    old: int
    new: int
    now: _dt.datetime
    bot_due: bool
    rows: tuple[LogRow, ...]
    notice: str


STATEMENT = (
    "WITH m AS (SELECT * FROM unnest(%(ids)s::varchar[], %(olds)s::integer[],"
    " %(news)s::integer[], %(nows)s::timestamp[], %(dues)s::boolean[], %(notices)s::text[])"
    " AS m (id, old, new, now, due, notice)),"
    " adv AS (UPDATE matches SET version = m.new, updated_at = m.now, bot_due = m.due"
    " FROM m WHERE matches.id = m.id AND matches.version = m.old"
    " RETURNING matches.id, m.notice),"
    " ins AS (INSERT INTO moves (match_id, seq, kind, seat, action, visible, note, created_at)"
    " SELECT * FROM unnest(%(r_ids)s::varchar[], %(r_seqs)s::integer[], %(r_kinds)s::varchar[],"
    " %(r_seats)s::integer[], %(r_actions)s::text[], %(r_visibles)s::varchar[],"
    " %(r_notes)s::text[], %(r_nows)s::timestamp[])"
    " AS r (match_id, seq, kind, seat, action, visible, note, created_at)"
    " WHERE r.match_id IN (SELECT id FROM adv))"
    " SELECT adv.id, pg_notify(%(channel)s, adv.notice) FROM adv"
)
"""Every waiting move in one statement (so one transaction): the matches' rows moved on,
each only from its move's version; the rows of those that did inserted; their notices sent
(on commit); the ids of the matches that moved on returned."""


def statement_params(moves: list[PlainMove], channel: str) -> dict[str, Any]:
    """:data:`STATEMENT`'s values for ``moves`` (one match at most once: a match's moves
    are serialized by its lock, so a second waits for the first's answer).

    >>> now = _dt.datetime(2026, 12, 2)
    >>> move = PlainMove("m1", 4, 6, now, False, (("move", 0, "a1", None, None),
    ...                  ("move", 1, "b2", "01", "note")), "r m1 6 me 4 []")
    >>> p = statement_params([move], "motherlode")
    >>> p["ids"], p["olds"], p["news"], p["r_seqs"], p["r_visibles"], p["r_notes"]
    (['m1'], [4], [6], [4, 5], [None, '01'], [None, 'note'])
    """
    params: dict[str, Any] = {
        "channel": channel,
        "ids": [m.match_id for m in moves],
        "olds": [m.old for m in moves],
        "news": [m.new for m in moves],
        "nows": [m.now for m in moves],
        "dues": [m.bot_due for m in moves],
        "notices": [m.notice for m in moves],
    }
    r_ids: list[str] = []
    r_seqs: list[int] = []
    r_nows: list[_dt.datetime] = []
    for m in moves:
        r_ids += [m.match_id] * len(m.rows)
        r_seqs += range(m.old, m.old + len(m.rows))
        r_nows += [m.now] * len(m.rows)
    columns = list(zip(*(row for m in moves for row in m.rows), strict=True))
    params.update(
        r_ids=r_ids,
        r_seqs=r_seqs,
        r_nows=r_nows,
        r_kinds=list(columns[0]),
        r_seats=list(columns[1]),
        r_actions=list(columns[2]),
        r_visibles=list(columns[3]),
        r_notes=list(columns[4]),
    )
    return params


class MoveWriter:
    """Writes :class:`PlainMove` s in groups on a thread of its own (see the module).

    ``connect`` gives a kept connection (SQLAlchemy's pool connection, whose
    ``dbapi_connection`` is psycopg's); the writer sets it to autocommit, uses it on its
    thread only, and invalidates it after an error other than a refusal.
    """

    def __init__(self, connect: Callable[[], Any], channel: str) -> None:
        self.connect = connect
        self.channel = channel
        self._raw: Any = None
        self._thread = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="motherlode-moves"
        )
        self._waiting: list[tuple[PlainMove, asyncio.Future[bool]]] = []
        self._busy = False
        """A statement is being written (the moves that arrive meanwhile wait for it)."""
        self._scheduled = False
        self.statements = 0
        """Statements written (for tests and figures)."""

    async def write(self, move: PlainMove) -> bool:
        """Write ``move`` with the others waiting; whether its match moved on (``False``:
        another writer moved it first, nothing of this move was written)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._waiting.append((move, future))
        if not self._busy and not self._scheduled:
            # (after the loop's other ready callbacks: moves that came in with this one
            # go in the same statement)
            self._scheduled = True
            loop.call_soon(self._start)
        return await future

    def write_now(self, move: PlainMove) -> bool:
        """:meth:`write` for a caller off the event loop's tasks (it waits here)."""
        return self._thread.submit(self._write, [move]).result() == {move.match_id}

    def _start(self) -> None:
        self._scheduled = False
        if self._busy or not self._waiting:
            return
        batch, self._waiting = self._waiting, []
        self._busy = True
        done = asyncio.wrap_future(self._thread.submit(self._write, [m for m, _ in batch]))
        done.add_done_callback(lambda written: self._finish(batch, written))

    def _finish(
        self, batch: list[tuple[PlainMove, asyncio.Future[bool]]], done: asyncio.Future[set[str]]
    ) -> None:
        self._busy = False
        error = None if done.cancelled() else done.exception()
        for move, future in batch:
            if future.done():  # (its caller gave up: a closed socket)
                continue
            if done.cancelled():
                future.cancel()
            elif error is not None:
                future.set_exception(error)
            else:
                future.set_result(move.match_id in done.result())
        if self._waiting:
            self._start()

    def _connection(self) -> Any:
        if self._raw is None:
            raw = self.connect()
            raw.dbapi_connection.autocommit = True
            self._raw = raw
        return self._raw.dbapi_connection

    def _write(self, moves: list[PlainMove]) -> set[str]:
        """On the writer's thread: ``moves`` in one statement; the matches that moved on."""
        import psycopg

        try:
            self.statements += 1
            cursor = self._connection().execute(
                STATEMENT, statement_params(moves, self.channel)
            )
            return {row[0] for row in cursor.fetchall()}
        except psycopg.IntegrityError:  # (a row of some move's version written meanwhile)
            if len(moves) == 1:
                return set()
            written: set[str] = set()
            for move in moves:  # one by one: only that move is refused
                written |= self._write([move])
            return written
        except Exception:
            self._drop()  # (a broken connection: a fresh one next time)
            raise

    def _drop(self) -> None:
        if self._raw is not None:
            with contextlib.suppress(Exception):
                self._raw.dbapi_connection.autocommit = False
                self._raw.invalidate()
            self._raw = None

    def close(self) -> None:
        """Finish what is being written, then give the connection back to its pool."""
        self._thread.shutdown(wait=True)
        if self._raw is not None:
            with contextlib.suppress(Exception):
                self._raw.dbapi_connection.autocommit = False
            with contextlib.suppress(Exception):
                self._raw.close()
            self._raw = None

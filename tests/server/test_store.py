"""How a move is written: on SQLite a plain move (no clock, not the final one, one
process) is its two statements and the commit on a connection kept for moves (on
PostgreSQL one statement with its notice: test_postgres.py); every other write goes
through SQLAlchemy as before. Both write the same rows, commit before the
runtime moves on (so before anyone is told), and leave nothing half written."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from motherlode.server import clocks
from motherlode.server.db import make_engine, migrate
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService, SeatRequest

HUMANS = [SeatRequest(), SeatRequest()]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MatchService]:
    engine = make_engine(str(tmp_path / "store.db"))
    migrate(engine)
    svc = MatchService(engine)
    yield svc
    asyncio.run(svc.close())
    engine.dispose()


def _rows(db: Path, match_id: str) -> tuple[list[tuple[Any, ...]], tuple[Any, ...]]:
    """The match's log rows and its row, read by a connection of their own (what another
    process, or the server started again, reads): the timestamps left out."""
    with sqlite3.connect(db) as conn:
        moves = conn.execute(
            "select seq, kind, seat, action, visible, note from moves where match_id = ?"
            " order by seq",
            (match_id,),
        ).fetchall()
        match = conn.execute(
            "select status, version, bot_due, scores from matches where id = ?", (match_id,)
        ).fetchone()
    return moves, match


def _play(svc: MatchService, match_id: str, seed: int, undo_at: int = 5) -> None:
    """A whole game of random moves, with an undo after the ``undo_at``-th."""
    rng = random.Random(seed)

    async def go() -> None:
        for i in range(500):
            rt = svc.runtime(match_id)
            if rt.finished:
                return
            seat = rt.state.current_player()
            legal = rt.fields(seat)["legal"]
            await svc.move(match_id, seat, rng.choice(legal)["text"], rt.version)
            if i == undo_at:
                await svc.undo(match_id, seat, svc.runtime(match_id).version)

    asyncio.run(go())


def test_plain_moves_write_the_rows_the_sqlalchemy_path_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("motherlode.server.service.new_seed", lambda: 4242)  # one deal
    logs = []
    for plain in (True, False):
        engine = make_engine(str(tmp_path / f"{plain}.db"))
        migrate(engine)
        svc = MatchService(engine)
        if not plain:
            monkeypatch.setattr(svc, "_plain", lambda rt, step: False)
        calls: list[str] = []
        for name in ("_store", "_write_plain"):
            original = getattr(svc, name)

            def counting(
                rt: Any, step: Any, name: str = name, original: Any = original, calls: Any = calls
            ) -> None:
                calls.append(name)
                original(rt, step)

            monkeypatch.setattr(svc, name, counting)
        match_id = svc.create_match("yukon", {}, HUMANS, claim=None, match_id="m1").id
        _play(svc, match_id, seed=3)
        moves, match = _rows(tmp_path / f"{plain}.db", match_id)
        assert match[0] == "finished" and match[1] == len(moves) > 40
        assert [m[1] for m in moves].count("undo") == 1
        # on the kept connection: every write but the last (it finishes the match)
        stores = calls.count("_store")
        assert calls.count("_write_plain") == (stores - 1 if plain else 0)
        logs.append((moves, match))
        asyncio.run(svc.close())
        engine.dispose()
    assert logs[0] == logs[1]


def test_an_acknowledged_plain_move_is_committed_before_anyone_is_told(
    service: MatchService, tmp_path: Path
) -> None:
    match_id = service.create_match("yukon", {}, HUMANS, claim=None).id
    rt = service.runtime(match_id)
    seat = rt.state.current_player()
    text = rt.fields(seat)["legal"][0]["text"]
    seen: list[tuple[Any, ...]] = []

    def told(match: str, **_: Any) -> None:  # the push: what a client is told
        seen.extend(_rows(tmp_path / "store.db", match)[0])

    service.changed = told  # type: ignore[method-assign]
    asyncio.run(service.move(match_id, seat, text, rt.version))
    assert seen[-1][1:4] == ("action", seat, text)  # read by another connection: committed
    db = service._moves_db()
    assert not db.in_transaction  # nothing left open on the kept connection
    # the engine's connection, with its pragmas: WAL, synchronous NORMAL (as every other)
    assert db.execute("pragma journal_mode").fetchone() == ("wal",)
    assert db.execute("pragma synchronous").fetchone() == (1,)


def test_a_refused_plain_write_leaves_nothing_and_the_connection_usable(
    service: MatchService, tmp_path: Path
) -> None:
    match_id = service.create_match("yukon", {}, HUMANS, claim=None).id
    rt = service.runtime(match_id)
    before = _rows(tmp_path / "store.db", match_id)
    seat = rt.state.current_player()
    step = rt.plan_move(seat, rt.fields(seat)["legal"][0]["text"])
    # another writer took this version first: the insert of the same seq fails
    with sqlite3.connect(tmp_path / "store.db") as other:
        other.execute(
            "insert into moves (match_id, seq, kind, seat, action, created_at)"
            " values (?, ?, 'action', 0, 'x', '2026-01-01')",
            (match_id, rt.version),
        )
    with pytest.raises(ServerError) as err:
        service._store(rt, step)
    assert err.value.code == "stale_state" and match_id not in service.runtimes
    db = service._moves_db()
    assert not db.in_transaction
    moves, match = _rows(tmp_path / "store.db", match_id)
    assert match == before[1] and moves[-1][3] == "x"
    # the match's row moved on elsewhere (its version): the update finds no row, rolled back
    with sqlite3.connect(tmp_path / "store.db") as other:
        other.execute("delete from moves where action = 'x'")
        other.execute("update matches set version = version + 7 where id = ?", (match_id,))
    with pytest.raises(ServerError) as err:
        service._store(rt, step)
    assert err.value.code == "stale_state" and not db.in_transaction
    assert _rows(tmp_path / "store.db", match_id)[0] == before[0]  # the insert undone
    # and the next write on the connection works
    with sqlite3.connect(tmp_path / "store.db") as other:
        other.execute("update matches set version = version - 7 where id = ?", (match_id,))
    fresh = service.runtime(match_id)
    seat = fresh.state.current_player()
    service._store(fresh, fresh.plan_move(seat, fresh.fields(seat)["legal"][0]["text"]))
    assert _rows(tmp_path / "store.db", match_id)[1][1] == before[1][1] + 1


class _Over:
    def is_terminal(self) -> bool:
        return True


def test_clocked_and_final_moves_go_through_sqlalchemy_and_shared_plain_ones_apart(
    service: MatchService,
) -> None:
    spec = clocks.ClockSpec("fischer", 300, 0, 0)
    timed = service.runtime(service.create_match("yukon", {}, HUMANS, clock=spec).id)
    plain = service.runtime(service.create_match("yukon", {}, HUMANS).id)

    def step_of(rt: Any) -> Any:
        seat = rt.state.current_player()
        return rt.plan_move(seat, rt.fields(seat)["legal"][0]["text"])

    assert service._plain(plain, step_of(plain))
    assert not service._plain(timed, step_of(timed))  # its clock is written with the move
    final = step_of(plain)
    final.state = _Over()  # the final move: ratings and the analysis hook into its write
    assert not service._plain(plain, final)
    assert not service._plain_shared(plain, step_of(plain))  # (SQLite: one process)
    service.shared = True  # another process may serve it: NOTIFY in the transaction
    assert not service._plain(plain, step_of(plain))
    assert not service._plain_shared(plain, step_of(plain))  # (shared, but on SQLite)
    # on PostgreSQL a plain move is one statement with its notice (test_postgres.py)
    service.sqlite = False
    assert service._plain_shared(plain, step_of(plain))
    assert not service._plain_shared(timed, step_of(timed))
    assert not service._plain_shared(plain, final)

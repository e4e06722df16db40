"""The same server on PostgreSQL: migrations, a whole game, stale writers, re-play from the log.

Runs when ``MOTHERLODE_TEST_POSTGRES`` names a database (``.ci/run`` starts Debian's
PostgreSQL and sets it); skipped otherwise. The tables are dropped first. One test
function runs every phase in order, so that parallel test workers never share the
database at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

from motherlode.server.db import make_engine, migrate  # noqa: E402
from motherlode.server.runtime import ServerError  # noqa: E402
from motherlode.server.service import CHANNEL, MatchService, SeatRequest  # noqa: E402
from tests.server.postgres_db import fresh  # noqa: E402
from tests.server.test_db import HEAD  # noqa: E402

URL = os.environ.get("MOTHERLODE_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="MOTHERLODE_TEST_POSTGRES is not set")


@pytest.fixture
def engine() -> Iterator[sa.Engine]:
    assert URL is not None
    fresh(URL)
    eng = make_engine(URL)
    yield eng
    eng.dispose()


def test_postgres_runs_the_same_server(engine: sa.Engine) -> None:
    migrations_are_idempotent(engine)
    a_whole_game_is_played_and_rebuilt_from_the_log(engine)
    two_writers_one_wins_the_other_is_stale(engine)
    plain_moves_write_what_the_sqlalchemy_path_writes(engine)
    a_notice_carries_a_moves_rows_and_the_other_process_replays_them(engine)
    moves_of_many_matches_share_a_statement_each_under_its_own_guard(engine)
    a_move_given_up_while_written_is_read_back(engine)
    a_seat_taken_by_its_link_is_told_to_the_other_processes(engine)
    a_match_dropped_while_its_move_is_written_holds_the_move_after(engine)
    the_final_move_is_written_off_the_event_loop(engine)


def migrations_are_idempotent(engine: sa.Engine) -> None:
    migrate(engine)
    names = set(sa.inspect(engine).get_table_names())
    assert {"matches", "seats", "moves", "alembic_version"} <= names
    with engine.connect() as conn:
        assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == HEAD


def a_whole_game_is_played_and_rebuilt_from_the_log(engine: sa.Engine) -> None:
    service = MatchService(engine)
    created = service.create_match("yukon", {}, [SeatRequest(), SeatRequest()])
    rt = service.runtime(created.id)

    async def play() -> None:
        while not rt.state.is_terminal():
            seat = rt.state.current_player()
            text = rt.state.action_to_string(rt.state.legal_actions()[0])
            await service.move(created.id, seat, text, rt.version)

    asyncio.run(play())
    assert rt.state.is_terminal()
    fresh = MatchService(engine).runtime(created.id)
    assert fresh.state.serialize() == rt.state.serialize()
    assert [e.text for e in fresh.entries] == [e.text for e in rt.entries]
    record = service.record(created.id)
    assert record.scores == rt.state.scores()


def two_writers_one_wins_the_other_is_stale(engine: sa.Engine) -> None:
    one, two = MatchService(engine), MatchService(engine)
    created = one.create_match("yukon", {}, [SeatRequest(), SeatRequest()])
    rt1 = one.runtime(created.id)
    two.runtime(created.id)
    v = rt1.version
    legal = [rt1.state.action_to_string(a) for a in rt1.state.legal_actions()]

    async def race() -> None:
        await one.move(created.id, 0, legal[0], v)
        with pytest.raises(ServerError) as err:
            await two.move(created.id, 0, legal[1], v)
        assert err.value.code == "stale_state"

    asyncio.run(race())
    assert two.runtime(created.id).entries[v].text == legal[0]
    with engine.connect() as conn:  # the loser's row was not written
        rows = conn.execute(
            sa.text("select count(*) from moves where match_id = :m"), {"m": created.id}
        ).scalar()
    assert rows == v + 1 == two.runtime(created.id).version


def _written(engine: sa.Engine, match_id: str) -> tuple[list[Any], Any]:
    with engine.connect() as conn:
        moves = conn.execute(
            sa.text(
                "select seq, kind, seat, action, visible, note from moves"
                " where match_id = :m order by seq"
            ),
            {"m": match_id},
        ).all()
        match = conn.execute(
            sa.text("select status, version, bot_due, scores from matches where id = :m"),
            {"m": match_id},
        ).one()
    return [tuple(r) for r in moves], tuple(match)


def _play_with_an_undo(service: MatchService) -> str:
    """A seeded Yukon game of two people, the first legal move each time, one undo."""
    created = service.create_match("yukon", {}, [SeatRequest()] * 2, claim=None)
    rt = service.runtime(created.id)

    async def play() -> None:
        undone = False
        while not rt.finished:
            seat = rt.state.current_player()
            await service.move(created.id, seat, rt.state.legal_actions()[0], rt.version)
            if not undone and rt.undo_allowed(seat):
                await service.undo(created.id, seat, rt.version)
                undone = True

    asyncio.run(play())
    asyncio.run(service.close())
    return created.id


def plain_moves_write_what_the_sqlalchemy_path_writes(engine: sa.Engine) -> None:
    # a plain move on PostgreSQL is written by the process's MoveWriter (pgmoves.py), one
    # statement with the other moves waiting; the same seeded game, with an undo, written
    # that way and through SQLAlchemy, leaves the same rows
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("motherlode.server.service.new_seed", lambda: 777)
        one = MatchService(engine)
        assert one.move_writer is not None
        plain = _written(engine, _play_with_an_undo(one))
        statements = one.move_writer.statements
        other = MatchService(engine)
        patch.setattr(other, "_plain_shared", lambda rt, step: False)
        through_sqlalchemy = _written(engine, _play_with_an_undo(other))
        assert other.move_writer is not None and other.move_writer.statements == 0
    (moves, match), (other_moves, other_match) = plain, through_sqlalchemy
    assert moves == other_moves and match == other_match
    assert match[0] == "finished" and match[1] == len(moves) and "undo" in [m[1] for m in moves]
    # every step after the deal but the last (it finishes the match: ratings hook in), one
    # at a time (one match, each move waits for the last)
    assert statements == sum(1 for m in moves if m[2] >= 0 or m[1] == "undo") - 1


def a_notice_carries_a_moves_rows_and_the_other_process_replays_them(engine: sa.Engine) -> None:
    import psycopg

    assert URL is not None
    one, two = MatchService(engine), MatchService(engine)
    created = one.create_match("yukon", {}, [SeatRequest(), SeatRequest()], claim=None)
    rt1, rt2 = one.runtime(created.id), two.runtime(created.id)
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        seat = rt1.state.current_player()
        action = rt1.state.action_to_string(rt1.state.legal_actions()[0])
        asyncio.run(one.move(created.id, seat, action, rt1.version))
        notices = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
    assert len(notices) == 1
    kind, match_id, version, origin, base, rows = notices[0].split(" ", 5)
    assert (kind, match_id, int(version), origin) == ("r", created.id, rt1.version, one.origin)
    assert int(base) == rt1.version - 1 and len(json.loads(rows)) == 1

    reads: list[str] = []

    def reading(rt: Any) -> bool:  # (reading the rows back from the database)
        reads.append(rt.match_id)
        return False

    two._catch_up = reading  # type: ignore[method-assign]
    two.remote_change(notices[0])
    assert reads == []  # the rows came with the notice
    assert two.runtimes[created.id] is rt2 and rt2.version == rt1.version
    assert rt2.state.serialize() == rt1.state.serialize()
    assert [e.text for e in rt2.entries] == [e.text for e in rt1.entries]
    two.remote_change(notices[0])  # (again: already held, nothing happens)
    assert rt2.version == rt1.version and reads == []
    # a notice whose rows do not follow what this process holds (moves in between it did
    # not hear of): the database is read, as for a notice without rows
    stale = f"r {created.id} {rt1.version + 5} other {rt1.version + 4} {rows}"
    two.remote_change(stale)
    assert reads == [created.id] and created.id not in two.runtimes
    # rows that are not JSON (read only where they are replayed): the match is forgotten
    held = two.runtime(created.id)
    two.remote_change(f"r {created.id} {held.version + 1} other {held.version} [[not json")
    assert created.id not in two.runtimes
    # its own notice a process passes over before reading its rows
    held = two.runtime(created.id)
    two.remote_change(f"r {created.id} {held.version + 1} {two.origin} {held.version} [[x")
    assert two.runtimes[created.id] is held
    asyncio.run(one.close())
    asyncio.run(two.close())


def _first_move(rt: Any) -> tuple[int, str]:
    return rt.state.current_player(), rt.state.action_to_string(rt.state.legal_actions()[0])


def moves_of_many_matches_share_a_statement_each_under_its_own_guard(engine: sa.Engine) -> None:
    # moves of several matches that arrive together are written in one statement
    # (pgmoves.MoveWriter); a move whose match another process moved first is refused
    # alone, and a move whose row cannot be inserted fails its statement, which is then
    # written again move by move so that only that move is refused
    one, two = MatchService(engine), MatchService(engine)
    assert one.move_writer is not None
    ids = [one.create_match("yukon", {}, [SeatRequest()] * 2, claim=None).id for _ in range(6)]
    rts = [one.runtime(i) for i in ids]
    before = {i: _written(engine, i)[0] for i in ids}
    raced = two.runtime(ids[0])
    asyncio.run(two.move(ids[0], *_first_move(raced), raced.version))  # (process two first)

    async def together(which: list[int]) -> list[Any]:
        return await asyncio.gather(
            *(one.move(ids[k], *_first_move(rts[k]), rts[k].version) for k in which),
            return_exceptions=True,
        )

    statements = one.move_writer.statements
    versions = [rt.version for rt in rts]
    results = asyncio.run(together([0, 1, 2, 3, 4, 5]))
    assert one.move_writer.statements == statements + 1
    assert isinstance(results[0], ServerError) and results[0].code == "stale_state"
    assert all(r is rts[k] for k, r in enumerate(results) if k > 0)
    assert ids[0] not in one.runtimes  # (read again on next use)
    for k, match_id in enumerate(ids):
        moves, match = _written(engine, match_id)
        assert len(moves) == len(before[match_id]) + 1 == match[1]
        if k > 0:
            assert rts[k].version == versions[k] + 1 == match[1]
            assert moves[-1][3] == rts[k].entries[-1].text and match[2] is False
    assert moves_text(engine, ids[0])[-1] == raced.entries[-1].text  # the winner's move

    # a row in the way of match 5's next move: the statement fails, then one by one
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "insert into moves (match_id, seq, kind, seat, action, created_at)"
                " values (:m, :s, 'move', 0, 'planted', now())"
            ),
            {"m": ids[5], "s": rts[5].version},
        )
    statements = one.move_writer.statements
    versions = [rt.version for rt in rts]
    results = asyncio.run(together([1, 2, 3, 4, 5]))
    assert one.move_writer.statements == statements + 1 + 5
    assert isinstance(results[4], ServerError) and results[4].code == "stale_state"
    assert [rts[k].version for k in (1, 2, 3, 4)] == [versions[k] + 1 for k in (1, 2, 3, 4)]
    for k in (1, 2, 3, 4):
        moves, match = _written(engine, ids[k])
        assert len(moves) == match[1] == rts[k].version
    moves, match = _written(engine, ids[5])
    assert match[1] == versions[5] and moves[-1][3] == "planted"

    # a move made off the event loop's tasks (MatchService._store) waits for its own
    rt = rts[1]
    step = rt.plan_move(*_first_move(rt))
    statements, version = one.move_writer.statements, rt.version
    one._store(rt, step)
    assert one.move_writer.statements == statements + 1 and rt.version == version + 1
    assert _written(engine, ids[1])[1][1] == rt.version
    asyncio.run(one.close())
    asyncio.run(two.close())


def moves_text(engine: sa.Engine, match_id: str) -> list[str]:
    return [m[3] for m in _written(engine, match_id)[0]]


class _HeldWriter:
    """A service on PostgreSQL, one match, and its move writer made to hold each statement
    on its thread until :attr:`release` is set: the window a move's task waits in."""

    def __init__(self, engine: sa.Engine) -> None:
        self.service = MatchService(engine)
        writer = self.service.move_writer
        assert writer is not None
        self.writer = writer
        self.match_id = self.service.create_match("yukon", {}, [SeatRequest()] * 2, claim=None).id
        self.rt = self.service.runtime(self.match_id)
        self.version = self.rt.version
        self.release = threading.Event()
        self.write = writer._write

        def held(moves: Any) -> set[str]:
            self.release.wait(10)
            return self.write(moves)

        writer._write = held  # type: ignore[method-assign]

    def restore(self) -> None:
        self.writer._write = self.write  # type: ignore[method-assign]

    async def busy(self, busy: bool = True) -> None:
        """Until a statement is (or is no longer) on the writer's thread."""
        for _ in range(500):
            if self.writer._busy == busy:
                return
            await asyncio.sleep(0.002)
        assert self.writer._busy == busy


def a_move_given_up_while_written_is_read_back(engine: sa.Engine) -> None:
    # the task of a move is cancelled (its socket closed) while its statement is being
    # written: the write goes on, and the process forgets the match, so the next use
    # reads the move back instead of holding a version behind the database's
    held = _HeldWriter(engine)
    service, match_id, rt, version = held.service, held.match_id, held.rt, held.version
    seat, action = _first_move(rt)

    async def give_up() -> None:
        task = asyncio.create_task(service.move(match_id, seat, action, version))
        await held.busy()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        held.release.set()
        await held.busy(False)  # the write finishes on its own

    asyncio.run(give_up())
    assert match_id not in service.runtimes and rt.version == version
    again = service.runtime(match_id)
    assert again.version == version + 1 == _written(engine, match_id)[1][1]
    assert again.entries[-1].text == moves_text(engine, match_id)[-1]

    # the connection breaks under a statement: the move's error goes to its caller, and
    # the match is forgotten here too (the statement may have been committed)
    def broken(moves: Any) -> set[str]:
        raise ConnectionError("the connection broke")

    held.writer._write = broken  # type: ignore[method-assign]
    seat, action = _first_move(again)
    with pytest.raises(ConnectionError):
        asyncio.run(service.move(match_id, seat, action, again.version))
    assert match_id not in service.runtimes and again.version == version + 1
    held.restore()
    asyncio.run(service.move(match_id, seat, action, version + 1))  # (read back, then moved)
    assert service.runtime(match_id).version == version + 2
    asyncio.run(service.close())


def a_seat_taken_by_its_link_is_told_to_the_other_processes(engine: sa.Engine) -> None:
    # P2's link used for the first time on one process: another process that holds the
    # match (its spectators' or P1's) hears of it and shows P2 joined, not an open seat
    # (found playing in the browser on --workers 2: the spectator saw "P2 open seat")
    import psycopg

    one, two = MatchService(engine), MatchService(engine)
    created = one.create_match("yukon", {}, [SeatRequest()] * 2, claim=None)
    held = two.runtime(created.id)
    assert [s.joined for s in held.seats] == [False, False]
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        assert one.authenticate(created.id, created.tokens[1]) == 1
        assert one.authenticate(created.id, created.tokens[1]) == 1  # (again: no notice)
        notices = [n.payload for n in listener.notifies(timeout=2, stop_after=2)]
    assert notices == [f"j {created.id} -1 {one.origin}"]
    two.remote_change(notices[0])
    assert created.id not in two.runtimes  # (read again on next use)
    assert [s.joined for s in two.runtime(created.id).seats] == [False, True]
    asyncio.run(one.close())
    asyncio.run(two.close())


def a_match_dropped_while_its_move_is_written_holds_the_move_after(engine: sa.Engine) -> None:
    # while a move's statement is written, the process drops the match (another process's
    # notice: a seat taken) and reads it again, without the move; once the statement is
    # done the match is read back with it, and that is what the move answers and pushes
    # (found on --workers 2 at saturation: one match in about six runs waited forever)
    held = _HeldWriter(engine)
    service, match_id, rt, version = held.service, held.match_id, held.rt, held.version
    seat, action = _first_move(rt)

    async def dropped_meanwhile() -> tuple[Any, Any]:
        task = asyncio.create_task(service.move(match_id, seat, action, version))
        await held.busy()
        service.forget(match_id)  # (as a 'j' notice does)
        meanwhile = service.runtime(match_id)
        held.release.set()
        return meanwhile, await task

    meanwhile, answered = asyncio.run(dropped_meanwhile())
    held.restore()
    assert meanwhile.version == version and rt.version == version  # (neither holds it)
    now = service.runtime(match_id)
    assert answered is now and now.version == version + 1 == _written(engine, match_id)[1][1]
    assert now.entries[-1].text == moves_text(engine, match_id)[-1]
    assert service.last_commit[match_id] == version + 1
    asyncio.run(service.close())


def the_final_move_is_written_off_the_event_loop(engine: sa.Engine) -> None:
    # the final move (its ratings and analysis hooks: SQLAlchemy, not the move writer) is
    # written in a transaction on a thread: the event loop serves the rest meanwhile
    service = MatchService(engine)
    match_id = service.create_match("yukon", {}, [SeatRequest()] * 2, claim=None).id
    held, release = threading.Event(), threading.Event()
    threads: list[str] = []
    write_rows = service._write_rows

    def slow(conn: Any, rt: Any, step: Any) -> int:
        threads.append(threading.current_thread().name)
        held.set()
        release.wait(3)
        return write_rows(conn, rt, step)

    service._write_rows = slow  # type: ignore[method-assign]
    checked: list[int] = []

    async def play() -> None:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        ticking = asyncio.create_task(ticker())
        while not service.runtime(match_id).finished:
            rt = service.runtime(match_id)
            task = asyncio.create_task(service.move(match_id, *_first_move(rt), rt.version))
            while not task.done() and not held.is_set():
                await asyncio.sleep(0.001)
            if held.is_set() and not task.done():  # the final move, being written
                before = ticks
                await asyncio.sleep(0.05)
                checked.append(ticks - before)
                assert not task.done()
                release.set()
            await task
        ticking.cancel()

    asyncio.run(play())
    assert len(checked) == 1 and checked[0] > 5  # the loop went round while it was written
    assert threads != [] and threads[0] != threading.main_thread().name
    with engine.connect() as conn:
        status = conn.execute(
            sa.text("select status, version from matches where id = :m"), {"m": match_id}
        ).one()
    assert status[0] == "finished" and status[1] == service.runtime(match_id).version
    asyncio.run(service.close())

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
    asyncio.run(one.close())
    asyncio.run(two.close())

"""The database: migrations, the append-only log, concurrent writers, re-play from the log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa

from motherlode.server.db import make_engine, migrate, normalise_url
from motherlode.server.runtime import ServerError
from motherlode.server.service import MatchService, SeatRequest


def test_migrations_create_the_schema_and_are_idempotent(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "a.db"))
    migrate(engine)
    migrate(engine)
    names = set(sa.inspect(engine).get_table_names())
    assert {"matches", "seats", "moves", "alembic_version"} <= names
    with engine.connect() as conn:
        assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == "0005"


def test_an_old_database_is_upgraded_in_place(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "old.db"))
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "insert into matches (id, game, config, seed, seed_sha256, status, version,"
                " created_at, updated_at) values ('m1', 'yukon', '{}', '1', 'h', 'running', 0,"
                " '2026-01-01', '2026-01-01')"
            )
        )
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("select public from matches")).scalar() in (0, False)
        # a match stored before chance streams were named keeps the stream it was drawn with
        assert conn.execute(sa.text("select chance from matches")).scalar() == "mt19937"


def test_database_urls() -> None:
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("x.db").startswith("sqlite:///") and normalise_url("x.db").endswith("x.db")
    assert normalise_url("sqlite:///tmp/x.db") == "sqlite:///tmp/x.db"


def test_two_writers_on_one_match_one_wins_the_other_is_stale(tmp_path: Path) -> None:
    """Two server processes (two services on one database): the version guards the log."""
    engine = make_engine(str(tmp_path / "b.db"))
    migrate(engine)
    one, two = MatchService(engine), MatchService(engine)
    created = one.create_match("yukon", {}, [SeatRequest(), SeatRequest()])
    rt1, rt2 = one.runtime(created.id), two.runtime(created.id)
    v = rt1.version
    legal = [rt1.state.action_to_string(a) for a in rt1.state.legal_actions()]

    async def race() -> None:
        await one.move(created.id, 0, legal[0], v)
        with pytest.raises(ServerError) as err:
            await two.move(created.id, 0, legal[1], v)
        assert err.value.code == "stale_state"

    asyncio.run(race())
    # the loser re-reads the log and sees the winner's move
    assert two.runtime(created.id).entries[v].text == legal[0]
    assert rt2 is not two.runtime(created.id)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("select count(*) from moves")).scalar()
    assert rows == one.runtime(created.id).version


def test_state_is_rebuilt_from_the_log_with_undo_rows(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "c.db"))
    migrate(engine)
    service = MatchService(engine)
    created = service.create_match("yukon", {}, [SeatRequest(), SeatRequest()])
    rt = service.runtime(created.id)

    async def play() -> None:
        for _ in range(3):
            seat = rt.state.current_player()
            text = rt.state.action_to_string(rt.state.legal_actions()[-1])
            await service.move(created.id, seat, text, rt.version)
            if rt.undo_allowed(seat):
                await service.undo(created.id, seat, rt.version)
                await service.move(created.id, seat, text, rt.version)

    asyncio.run(play())
    fresh = MatchService(engine).runtime(created.id)
    assert fresh.version == rt.version
    assert [e.text for e in fresh.entries] == [e.text for e in rt.entries]
    assert fresh.state.serialize() == rt.state.serialize()
    assert fresh.rng.getstate() == rt.rng.getstate()
    with engine.connect() as conn:
        undos = conn.execute(sa.text("select count(*) from moves where kind='undo'")).scalar()
    assert undos and undos >= 1

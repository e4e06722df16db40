"""The database: migrations, the append-only log, concurrent writers, re-play from the log."""

from __future__ import annotations

import asyncio
import json
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
        version = conn.execute(sa.text("select version_num from alembic_version")).scalar()
        assert version == "0008_clocks"


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


def _copy_at_0004(source: sa.Engine, target: sa.Engine) -> None:
    """The rows of ``source`` written into ``target`` (a schema at 0004) as the previous
    version wrote them: without the columns 0005 adds."""
    old = {"matches": {"bot_due"}, "moves": {"note"}, "seats": set()}
    with source.connect() as src, target.begin() as dst:
        for table, added in old.items():
            rows = [dict(r._mapping) for r in src.execute(sa.text(f"select * from {table}"))]
            for row in rows:
                for column in added:
                    row.pop(column)
                if table == "matches":
                    row["config"] = (
                        json.dumps(row["config"])
                        if isinstance(row["config"], dict)
                        else row["config"]
                    )
                names = ", ".join(row)
                values = ", ".join(f":{k}" for k in row)
                dst.execute(sa.text(f"insert into {table} ({names}) values ({values})"), row)


def test_a_database_of_the_previous_version_upgrades_in_place_and_plays_on(
    tmp_path: Path,
) -> None:
    made = make_engine(str(tmp_path / "made.db"))
    migrate(made)
    before = MatchService(made)
    vs_bot = before.create_match("yukon", {}, [SeatRequest(), SeatRequest("bot", "greedy")])
    people = before.create_match("yukon", {}, [SeatRequest(), SeatRequest()])

    async def first_moves() -> None:
        rt = before.runtime(people.id)
        for _ in range(3):
            seat = rt.state.current_player()
            await before.move(people.id, seat, rt.state.legal_actions()[0], rt.version)
        rt = before.runtime(vs_bot.id)
        seat = rt.state.current_player()
        await before.move(vs_bot.id, seat, rt.state.legal_actions()[0], rt.version)
        for task in list(before.bot_tasks.values()):
            task.cancel()  # the old server stops with the bot to move

    asyncio.run(first_moves())
    log_before = before.runtime(people.id).log_for(None)
    old = make_engine(str(tmp_path / "old.db"))
    migrate(old, "0004")
    _copy_at_0004(made, old)
    migrate(old)  # the new version starts on it
    with old.connect() as conn:
        version = conn.execute(sa.text("select version_num from alembic_version")).scalar()
        assert version == "0008_clocks"
        due = dict(conn.execute(sa.text("select id, bot_due from matches")).all())
        assert conn.execute(sa.text("select count(*) from moves where note is null")).scalar() == (
            conn.execute(sa.text("select count(*) from moves")).scalar()
        )
    # a running match with a bot seat may have its bot due; one of people never does
    assert bool(due[vs_bot.id]) and not bool(due[people.id])
    after = MatchService(old)
    assert after.runtime(people.id).log_for(None) == log_before

    async def play_on() -> None:
        assert after.resume_bots() == 1  # the bot that was to move moves
        await asyncio.gather(*after.bot_tasks.values())
        rt = after.runtime(people.id)
        while not rt.finished:
            seat = rt.state.current_player()
            await after.move(people.id, seat, rt.state.legal_actions()[0], rt.version)

    asyncio.run(play_on())
    assert after.runtime(vs_bot.id).bot_to_move() is None
    assert MatchService(old).runtime(people.id).finished
    with old.connect() as conn:
        assert not conn.execute(
            sa.text("select bot_due from matches where id = :id"), {"id": vs_bot.id}
        ).scalar()

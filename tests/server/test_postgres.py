"""The same server on PostgreSQL: migrations, a whole game, stale writers, re-play from the log.

Runs when ``MOTHERLODE_TEST_POSTGRES`` names a database (``.ci/run`` starts Debian's
PostgreSQL and sets it); skipped otherwise. The tables are dropped first. One test
function runs every phase in order, so that parallel test workers never share the
database at once.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

from motherlode.server.db import make_engine, migrate  # noqa: E402
from motherlode.server.runtime import ServerError  # noqa: E402
from motherlode.server.service import MatchService, SeatRequest  # noqa: E402
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

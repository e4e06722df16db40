"""The shared PostgreSQL test database (``MOTHERLODE_TEST_POSTGRES``) emptied: every table
the migrations make dropped, newest first, then (``fresh``) migrated again. One place, so a
migration that adds a table adds it here once (the tests hold one advisory lock meanwhile:
``tests/server/conftest.py``)."""

from __future__ import annotations

import sqlalchemy as sa

from motherlode.server.db import make_engine, migrate

TABLES = (
    *("analysis_steps", "match_analysis"),
    *("clock_events", "match_clocks"),
    *("rematches", "chat_mutes", "chat_messages"),
    *("rating_events", "ratings", "match_terms", "seat_claims", "sessions", "users"),
    *("moves", "seats", "matches", "alembic_version"),
)
"""Every table of the newest migration, the ones that refer to others first."""


def drop_all(engine: sa.Engine) -> None:
    """Drop every table of :data:`TABLES` (the database as before the first migration)."""
    with engine.begin() as conn:
        for table in TABLES:
            conn.execute(sa.text(f"drop table if exists {table} cascade"))


def fresh(url: str) -> None:
    """Empty the database at ``url`` and migrate it to the newest revision."""
    engine = make_engine(url)
    drop_all(engine)
    migrate(engine)
    engine.dispose()

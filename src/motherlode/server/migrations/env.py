"""Alembic environment: runs on the connection :func:`motherlode.server.db.migrate` passes."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from motherlode.server.db import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # run from the alembic command line: sqlalchemy.url is set
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata)
    context.run_migrations()


run_migrations_online()

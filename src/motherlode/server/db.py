"""The database: matches, their seats and the append-only move log (SQLAlchemy 2).

A match is its game, config, seats, secret seed and the list of log rows; the game state
is never stored, only rebuilt from the log (event sourcing, as 18xx.games does). Undo is
itself a log row that cancels the previous action, so nothing is ever rewritten.

The schema is created and upgraded by the Alembic migrations in ``migrations/``
(:func:`migrate`); SQLite (the default, a file next to you) and PostgreSQL are both
supported through the same URL-based :func:`make_engine`.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """The declarative base of every table (one metadata for Alembic and create_all)."""


class MatchRow(Base):
    """One match. ``version`` is the number of rows in its move log (the next ``seq``)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(64))
    """The secret RNG seed (decimal); never sent to a client before the match ends."""
    seed_sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    """``running`` or ``finished``."""
    chance: Mapped[str] = mapped_column(String(32), default="mt19937")
    """The chance stream drawn from the seed (core/chance.py); ``mt19937`` before 0004."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed for anyone: a visitor of the lobby may take an open seat (else: invitations)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    bot_due: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    """A bot is to move (kept with every move): what a server resuming bots looks for."""
    scores: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="match", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    """A seat: a person (reached through a secret token, stored hashed) or a bot spec."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    spec: Mapped[str] = mapped_column(String(200))
    """The agent spec of a bot; ``human`` for a person."""
    name: Mapped[str] = mapped_column(String(80), default="")
    token_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    joined_at: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)

    match: Mapped[MatchRow] = relationship(back_populates="seats")


class MoveRow(Base):
    """One row of a match's append-only log: an action (decision or chance) or an undo.

    ``(match_id, seq)`` is the primary key, so two writers racing for the same version
    cannot both succeed: the loser gets ``stale_state``.
    """

    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``action`` or ``undo``."""
    seat: Mapped[int] = mapped_column(Integer)
    """The seat that acted (``-1``: chance)."""
    action: Mapped[str] = mapped_column(Text, default="")
    """The action in the game's notation (empty for an undo)."""
    visible: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Who sees the action: ``"1"``/``"0"`` per seat, then the spectator; NULL: everyone."""
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Said with the row on the page: e.g. a bot that failed, replaced for this move."""
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


def default_url(path: str | Path = "motherlode.db") -> str:
    return f"sqlite:///{Path(path).expanduser().resolve()}"


def normalise_url(db: str) -> str:
    """A database URL from ``--db``: a URL as is (``postgresql://`` uses psycopg 3), else
    a path to an SQLite file."""
    if "://" not in db:
        return default_url(db)
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling and a busy timeout."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` with the Alembic migrations (idempotent)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)

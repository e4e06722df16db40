"""Clocks: a match's clock (Fischer or days per move) with its stamps, and its clock
events (a timeout, a skipped turn, a bot taking over, a forfeit), which are log entries
but not engine actions.

Revision ID: 0009_clocks
Revises: 0008_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_clocks"
down_revision: str | None = "0008_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_clocks",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("base", sa.Float(), nullable=False, server_default="0"),
        sa.Column("increment", sa.Float(), nullable=False, server_default="0"),
        sa.Column("per_move", sa.Float(), nullable=False, server_default="0"),
        sa.Column("bot_takeover", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("remaining", sa.JSON(), nullable=False),
        sa.Column("running", sa.Integer(), nullable=True),
        sa.Column("since", sa.DateTime(), nullable=True),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("flagged", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("forfeit", sa.Integer(), nullable=True),
    )
    op.create_index("ix_match_clocks_deadline", "match_clocks", ["deadline"])
    op.create_table(
        "clock_events",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("clock_events")
    op.drop_index("ix_match_clocks_deadline", "match_clocks")
    op.drop_table("match_clocks")

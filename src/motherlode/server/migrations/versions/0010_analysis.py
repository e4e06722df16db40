"""Analysis: each finished match's analysis (queued, running, done; its progress) and
the judgement of each of its decisions (server/analysis.py).

Revision ID: 0010_analysis
Revises: 0009_clocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_analysis"
down_revision: str | None = "0009_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_analysis",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("spec", sa.String(200), nullable=False, server_default=""),
        sa.Column("total", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_match_analysis_status", "match_analysis", ["status"])
    op.create_table(
        "analysis_steps",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("step", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("how", sa.String(12), nullable=False),
        sa.Column("played", sa.Text(), nullable=False),
        sa.Column("best", sa.Text(), nullable=False),
        sa.Column("played_value", sa.Float(), nullable=True),
        sa.Column("best_value", sa.Float(), nullable=True),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("played_said", sa.Text(), nullable=False, server_default=""),
        sa.Column("best_said", sa.Text(), nullable=False, server_default=""),
        sa.Column("top", sa.JSON(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False, server_default=""),
    )


def downgrade() -> None:
    op.drop_table("analysis_steps")
    op.drop_index("ix_match_analysis_status", "match_analysis")
    op.drop_table("match_analysis")

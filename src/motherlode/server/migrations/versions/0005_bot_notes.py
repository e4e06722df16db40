"""A log row may carry a note the page shows (a bot that failed and was replaced for that
move), and a match says whether a bot is due to move, so that a server looking for bots
to resume or to take over from a dead process reads one indexed column, not every log.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN (SQLite has it): a batch would copy the tables, and
    # SQLite cannot drop the old matches table while seats and moves refer to it
    op.add_column("moves", sa.Column("note", sa.Text(), nullable=True))
    op.add_column(
        "matches", sa.Column("bot_due", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("ix_matches_bot_due", "matches", ["bot_due"])
    # Matches stored before: any running match with a bot seat may have its bot to move
    # (the server checks the log when it resumes them); the others never will.
    op.execute(
        "UPDATE matches SET bot_due = true WHERE status = 'running' AND id IN"
        " (SELECT match_id FROM seats WHERE kind = 'bot')"
    )


def downgrade() -> None:
    op.drop_index("ix_matches_bot_due", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("bot_due")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("note")

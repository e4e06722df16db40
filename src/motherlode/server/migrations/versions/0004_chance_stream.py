"""A match names its chance stream: ``hmac-sha256`` for new matches, ``mt19937`` (Python's
Mersenne Twister, the only stream before this revision) for every match already stored.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column("chance", sa.String(32), nullable=False, server_default="mt19937")
        )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("chance")

"""Quick play's queue: who waits for which table, their rating, their lease, and the seat found for them.

Revision ID: 0010_quick_play
Revises: 0008_ratings
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_quick_play"
down_revision: str | None = "0008_ratings"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quick_play_queue",
        sa.Column("ticket", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(80), nullable=False, unique=True),
        sa.Column("address", sa.String(64), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("bots_after", sa.Float, nullable=True),
        sa.Column("name", sa.String(160), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("table_code", sa.String(16), nullable=True, index=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("quick_play_queue")

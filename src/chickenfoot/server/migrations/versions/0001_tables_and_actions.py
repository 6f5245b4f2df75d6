"""Tables (their configuration and seats) and every game action, in order.

Revision ID: 0001
Revises:
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("game_tables.code"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("action", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("game_tables")

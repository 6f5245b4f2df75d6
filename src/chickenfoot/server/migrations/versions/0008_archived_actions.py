"""The actions of long-finished matches, one row a table (``chickenfoot storage prune``).

Revision ID: 0008_archived_actions
Revises: 0007_accounts
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_archived_actions"
down_revision: str | None = "0007_accounts"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "archived_actions",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("game_tables.code"), primary_key=True),
        sa.Column("actions", sa.Text, nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("archived_actions")

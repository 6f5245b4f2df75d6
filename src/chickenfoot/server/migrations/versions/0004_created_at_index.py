"""An index on when tables were created: the sweep of tables nobody played reads the oldest first.

Revision ID: 0004_created_at_index
Revises: 0003_reviews
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004_created_at_index"
down_revision: str | None = "0003_reviews"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_game_tables_created_at", "game_tables", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_created_at", table_name="game_tables")

"""Reviews of finished matches (computed in the background, stored once done).

Revision ID: 0003_reviews
Revises: c7e1d2a94b30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_reviews"
down_revision: str | None = "c7e1d2a94b30"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("game_tables.code"), primary_key=True),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")

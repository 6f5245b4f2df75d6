"""Ratings: each account's rating per player-count family, the rated matches (each counted once) and
every rated seat's change.

Revision ID: 0012_ratings
Revises: 0011_handover
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_ratings"
down_revision: str | None = "0011_handover"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("last_played", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_family_mu", "ratings", ["family", "mu"])
    op.create_table(
        "rated_matches",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "family", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_family_mu", "ratings")
    op.drop_table("ratings")

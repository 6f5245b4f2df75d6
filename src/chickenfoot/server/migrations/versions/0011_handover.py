"""Continue on another device: single-use links that move a seat's credential (server/handover/).

Revision ID: 0011_handover
Revises: 0010_profiles
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_handover"
down_revision: str | None = "0010_profiles"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_handovers",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("from_digest", sa.String(64), nullable=False, index=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("seat_handovers")

"""A seat followed by an account opens by the account's sessions until it is handed to another device.

``account_seats.by_session``: true as before; a seat moved by "continue on another device" opens only
by its new credential (false) until a device holding that credential keeps it for the account again.

Revision ID: 0016_seat_sessions
Revises: 0015_name_folding
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_seat_sessions"
down_revision: str | None = "0015_name_folding"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("account_seats") as batch:
        batch.add_column(sa.Column("by_session", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("account_seats") as batch:
        batch.drop_column("by_session")

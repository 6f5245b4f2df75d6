"""Turn-based tables: each one's next deadline, stored so that any process finds it due and one claims it;
each account's vacations (the days a year its turn-based clocks may stand); and quick play's pools at
one's own pace (``quick_play_queue.move_seconds``).

Revision ID: 0020_turn_based
Revises: 0019_social
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_turn_based"
down_revision: str | None = "0019_social"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "turn_deadlines",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE", name="fk_turn_deadlines_table_code"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_turn_deadlines_due_at", "turn_deadlines", ["due_at"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE", name="fk_vacations_account_id"),
            nullable=False,
        ),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_vacations_account_id", "vacations", ["account_id"])
    with op.batch_alter_table("quick_play_queue") as batch:
        batch.add_column(sa.Column("move_seconds", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quick_play_queue") as batch:
        batch.drop_column("move_seconds")
    op.drop_index("ix_vacations_account_id", "vacations")
    op.drop_table("vacations")
    op.drop_index("ix_turn_deadlines_due_at", "turn_deadlines")
    op.drop_table("turn_deadlines")

"""Moderation: the operator's role on accounts, restrictions (mutes and suspensions), the audit log of
every moderation action, and the chat filter's words the operators added.

Revision ID: 0018_moderation
Revises: 0017_notifications
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_moderation"
down_revision: str | None = "0017_notifications"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def account(table: str, name: str, *, cascade: bool, primary_key: bool = False) -> sa.Column[int]:
    key = sa.ForeignKey("accounts.id", ondelete="CASCADE" if cascade else "SET NULL", name=f"fk_{table}_{name}")
    return sa.Column(name, sa.Integer, key, primary_key=primary_key, nullable=not cascade)


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("operator", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "moderation_restrictions",
        account("moderation_restrictions", "account_id", cascade=True, primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        account("moderation_restrictions", "set_by", cascade=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "moderation_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        account("moderation_audit", "operator_id", cascade=False),
        sa.Column("operator_name", sa.String(32), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        account("moderation_audit", "subject_id", cascade=False),
        sa.Column("subject_name", sa.String(32), nullable=True),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", sa.Text, nullable=False),
    )
    op.create_index("ix_moderation_audit_at", "moderation_audit", ["at"])
    op.create_index("ix_moderation_audit_subject_id", "moderation_audit", ["subject_id"])
    op.create_table(
        "moderation_words",
        sa.Column("word", sa.String(64), primary_key=True),
        account("moderation_words", "added_by", cascade=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moderation_words")
    op.drop_index("ix_moderation_audit_subject_id", "moderation_audit")
    op.drop_index("ix_moderation_audit_at", "moderation_audit")
    op.drop_table("moderation_audit")
    op.drop_table("moderation_restrictions")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("operator")

"""Friends and blocks: follows, blocks, privacy choices, presence, challenges and the operators' reports,
each naming its accounts by a key with ``ON DELETE CASCADE``; the account that said each chat line
(``chat_lines.speaker``, a number: the game store knows no account); and a notification may name no
table (``notifications.table_code`` nullable: a challenge's, whose table is made when it is accepted).

Revision ID: 0019_social
Revises: 0018_moderation
"""

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0019_social"
down_revision: str | None = "0018_moderation"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def account(table: str, name: str, *, primary_key: bool = False, nullable: bool = False) -> sa.Column[int]:
    key = sa.ForeignKey("accounts.id", ondelete="CASCADE", name=f"fk_{table}_{name}")
    return sa.Column(name, sa.Integer, key, primary_key=primary_key, nullable=nullable)


def when(name: str, *, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("speaker", sa.Integer, nullable=True))
    for table, one, other in (
        ("social_follows", "follower_id", "followed_id"),
        ("social_blocks", "blocker_id", "blocked_id"),
    ):
        op.create_table(
            table,
            account(table, one, primary_key=True),
            account(table, other, primary_key=True),
            when("created_at"),
        )
        op.create_index(f"ix_{table}_{other}", table, [other])
    op.create_table(
        "social_privacy",
        account("social_privacy", "account_id", primary_key=True),
        sa.Column("challenges", sa.String(8), nullable=False, server_default="everyone"),
        sa.Column("status", sa.String(8), nullable=False, server_default="everyone"),
    )
    op.create_table(
        "social_presence",
        account("social_presence", "account_id", primary_key=True),
        when("seen_at"),
    )
    op.create_index("ix_social_presence_seen_at", "social_presence", ["seen_at"])
    op.create_table(
        "social_challenges",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        account("social_challenges", "challenger_id"),
        account("social_challenges", "challenged_id"),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        when("created_at"),
        when("expires_at"),
        when("answered_at", nullable=True),
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE", name="fk_social_challenges_table_code"),
            nullable=True,
        ),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("seat_taken", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    for column in ("challenger_id", "challenged_id", "status", "expires_at"):
        op.create_index(f"ix_social_challenges_{column}", "social_challenges", [column])
    op.create_table(
        "social_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        account("social_reports", "reporter_id"),
        account("social_reports", "reported_id", nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=False, server_default=""),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("line", sa.Integer, nullable=True),
        sa.Column("evidence", sa.Text, nullable=False),
        when("created_at"),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column(
            "handled_by",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="SET NULL", name="fk_social_reports_handled_by"),
            nullable=True,
        ),
        when("handled_at", nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
    )
    for column in ("reporter_id", "reported_id", "table_code", "created_at", "status"):
        op.create_index(f"ix_social_reports_{column}", "social_reports", [column])
    with op.batch_alter_table("notifications") as batch:
        batch.alter_column("table_code", existing_type=sa.String(16), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM notifications WHERE table_code IS NULL")
    with op.batch_alter_table("notifications") as batch:
        batch.alter_column("table_code", existing_type=sa.String(16), nullable=False)
    for table in (
        "social_reports",
        "social_challenges",
        "social_presence",
        "social_privacy",
        "social_blocks",
        "social_follows",
    ):
        op.drop_table(table)
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("speaker")

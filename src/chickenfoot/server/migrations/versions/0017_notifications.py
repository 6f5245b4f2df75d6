"""Notifications: each account's choices and e-mail address, its list of notices, the devices that allowed
push, the outbox of what is to be sent, and the server's own keys (VAPID, unsubscribe links).

Revision ID: 0017_notifications
Revises: 0016_seat_sessions
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_notifications"
down_revision: str | None = "0016_seat_sessions"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

UNFINISHED_DIGEST = sa.text("purpose = 'digest' AND finished_at IS NULL")


def account_id(table: str, *, primary_key: bool = False) -> sa.Column[int]:
    key = sa.ForeignKey("accounts.id", ondelete="CASCADE", name=f"fk_{table}_account_id")
    return sa.Column("account_id", sa.Integer, key, primary_key=primary_key, nullable=False)


def upgrade() -> None:
    op.create_table(
        "notification_settings",
        account_id("notification_settings", primary_key=True),
        sa.Column("choices", sa.Text, nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("time_zone", sa.String(64), nullable=False),
        sa.Column("quiet_from", sa.Integer, nullable=True),
        sa.Column("quiet_until", sa.Integer, nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("pending_email", sa.String(254), nullable=True),
        sa.Column("pending_digest", sa.String(64), nullable=True),
        sa.Column("pending_expires_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        account_id("notifications"),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE", name="fk_notifications_table_code"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("account_id", "key", name="uq_notifications_account_key"),
    )
    op.create_index("ix_notifications_account_at", "notifications", ["account_id", "at"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        account_id("push_subscriptions"),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "notification_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        account_id("notification_outbox"),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column(
            "notification_id",
            sa.Integer,
            sa.ForeignKey("notifications.id", ondelete="CASCADE", name="fk_notification_outbox_notification_id"),
            nullable=True,
        ),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE", name="fk_notification_outbox_subscription_id"),
            nullable=True,
        ),
        sa.Column("payload", sa.Text, nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_notification_outbox_account_id", "notification_outbox", ["account_id"])
    op.create_index("ix_notification_outbox_due_at", "notification_outbox", ["due_at"])
    op.create_index(
        "uq_notification_outbox_digest",
        "notification_outbox",
        ["account_id"],
        unique=True,
        sqlite_where=UNFINISHED_DIGEST,
        postgresql_where=UNFINISHED_DIGEST,
    )
    op.create_table(
        "notification_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notification_keys")
    op.drop_index("uq_notification_outbox_digest", "notification_outbox")
    op.drop_table("notification_outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("notifications")
    op.drop_table("notification_settings")

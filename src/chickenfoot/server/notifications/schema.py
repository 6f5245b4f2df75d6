"""The notifications' tables (created by migration 0017_notifications), on the server's one ``MetaData``.

Every row belongs to an account and goes with it (``ON DELETE CASCADE``, and at an account's deletion);
a notice also belongs to its table and goes with it. No secret is stored: a confirmation link is kept
as its SHA-256 digest, a recovery link lives in the accounts' challenges the same way, and both are
made when their e-mail is sent, never kept in the outbox.
"""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code


def account_id(*, primary_key: bool = False) -> sa.Column[int]:
    """A column naming an account: the row goes when the account's row goes."""
    return sa.Column(
        "account_id",
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


notification_settings = sa.Table(
    "notification_settings",
    metadata,
    account_id(primary_key=True),
    # JSON: each kind of notice (server/notices.py Kind) and the channels it goes to.
    sa.Column("choices", sa.Text, nullable=False),
    sa.Column("language", sa.String(8), nullable=False),
    sa.Column("time_zone", sa.String(64), nullable=False),
    # Minutes after midnight in ``time_zone``; both ``None``: no quiet hours.
    sa.Column("quiet_from", sa.Integer, nullable=True),
    sa.Column("quiet_until", sa.Integer, nullable=True),
    sa.Column("email", sa.String(254), nullable=True),  # the confirmed address: e-mails go there
    sa.Column("pending_email", sa.String(254), nullable=True),
    sa.Column("pending_digest", sa.String(64), nullable=True),
    sa.Column("pending_expires_at", sa.DateTime(timezone=True), nullable=True),
)
"""An account's choices; an account without a row has the defaults (preferences.py)."""

notifications = sa.Table(
    "notifications",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    account_id(),
    sa.Column("key", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    table_code(nullable=True),  # ``None``: a challenge, whose table is made when it is accepted (0019_social)
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),  # how often it was told since it was last read
    # JSON: the notice's parameters (names chosen by players, counts, a rating change) and nothing else.
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True),
    sa.UniqueConstraint("account_id", "key", name="uq_notifications_account_key"),
    sa.Index("ix_notifications_account_at", "account_id", "at"),
)
"""The account's list (the bell): one row per key, updated in place by later news of the same thing."""

push_subscriptions = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    account_id(),
    sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
    # The browser's P-256 public key and auth secret (base64url): what a push is encrypted to (RFC 8291).
    sa.Column("p256dh", sa.String(128), nullable=False),
    sa.Column("auth", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_push_subscriptions_account_id", "account_id"),
)
"""A device that allowed notifications: a push service's endpoint and the keys to encrypt to."""

notification_outbox = sa.Table(
    "notification_outbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    account_id(),
    # ``push`` (one notice to one device), ``digest``, ``verify`` (an address's confirmation link) or
    # ``recover`` (a sign-in link): the last three are e-mails.
    sa.Column("purpose", sa.String(8), nullable=False),
    sa.Column("notification_id", sa.Integer, sa.ForeignKey("notifications.id", ondelete="CASCADE"), nullable=True),
    sa.Column("subscription_id", sa.Integer, sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"), nullable=True),
    # JSON: what is sent (a push's payload; a digest's notices, composed when it is first claimed).
    sa.Column("payload", sa.Text, nullable=True),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("claimed_by", sa.String(32), nullable=True),
    sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    # ``sent``, ``skipped`` (nothing left to say), ``dropped`` (the device is gone) or ``failed``.
    sa.Column("outcome", sa.String(8), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_notification_outbox_account_id", "account_id"),
    sa.Index("ix_notification_outbox_due_at", "due_at"),
    sa.Index(
        "uq_notification_outbox_digest",
        "account_id",
        unique=True,
        sqlite_where=sa.text("purpose = 'digest' AND finished_at IS NULL"),
        postgresql_where=sa.text("purpose = 'digest' AND finished_at IS NULL"),
    ),
)
"""What is to be sent, and what was: a row is claimed by one process for a lease, sent, then finished;
a process killed meanwhile leaves it to be claimed again once the lease runs out."""

notification_keys = sa.Table(
    "notification_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""The server's own keys, made by the first process to start and shared by all: ``vapid`` (the push
services' signing key, PEM) and ``unsubscribe`` (signs the e-mails' unsubscribe links)."""

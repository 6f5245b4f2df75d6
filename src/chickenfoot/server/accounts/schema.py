"""The accounts' tables (created by migration 0007_accounts), on the server's one ``MetaData``.

Secrets are never stored: a session id, a WebAuthn ceremony handle or a one-time sign-in link is kept
as its SHA-256 digest only, a password as its argon2id hash.
"""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # ``None`` once the account is deleted.
    sa.Column("username", sa.String(32), nullable=True),
    # The username's confusable skeleton (names.py): two names with one skeleton cannot coexist.
    sa.Column("skeleton", sa.String(128), nullable=True, unique=True),
    # The WebAuthn user handle (random, base64url): passkeys name the account by it, never by its name.
    sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    # A bot account (migration 0013_bot_api) plays through the Bot API only, never through a page's session.
    sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
    # An operator (migration 0018_moderation) reaches the moderation pages (server/moderation); granted and
    # revoked by ``chickenfoot account op NAME [--revoke]`` only.
    sa.Column("operator", sa.Boolean, nullable=False, server_default=sa.false()),
)
passwords = sa.Table(
    "account_passwords",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("hash", sa.String(255), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
passkeys = sa.Table(
    "account_passkeys",
    metadata,
    # base64url, as the browser names it (at most 1023 bytes by the WebAuthn spec).
    sa.Column("credential_id", sa.String(1400), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    # JSON list of the authenticator's transports (``["internal", "hybrid"]``).
    sa.Column("transports", sa.String(200), nullable=False),
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
)
sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    sa.Column("idle_expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("user_agent", sa.String(120), nullable=False),
)
challenges = sa.Table(
    "account_challenges",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    # ``register``, ``sign_in`` (WebAuthn ceremonies), ``reset`` (an operator's one-time sign-in link) or
    # ``device`` (a device the account signed in from: its cookie's digest, server/accounts/devices.py).
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    # JSON: the ceremony's challenge, and for a sign-up the name and user handle asked for.
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
)
DEVICE_PURPOSE = "device"
name_keys = sa.Table(
    "account_name_keys",
    metadata,
    sa.Column("key", sa.String(128), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    # ``None`` while the account has the name; once it is deleted, when the name is free again
    # (names.NAME_HELD; migration 0015_name_folding).
    sa.Column("held_until", sa.DateTime(timezone=True), nullable=True, index=True),
)
"""Every look-alike key of every name (names.keys), and of every name deleted lately: two accounts never
share one."""
account_seats = sa.Table(
    "account_seats",
    metadata,
    table_code(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    # The account's signed-in devices open the seat (migration 0016_seat_sessions); false once the seat
    # was handed to another device, until a device holding its credential keeps it for the account again.
    sa.Column("by_session", sa.Boolean, nullable=False, server_default=sa.true()),
)
"""Which account sat in which seat of which table (kept after the account is deleted: "deleted player";
gone with the table)."""

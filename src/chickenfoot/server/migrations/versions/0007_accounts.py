"""Accounts: the account, its password and passkeys, its sessions, its pending WebAuthn ceremonies and
one-time sign-in links, and which account sat in which seat of which table.

Revision ID: 0007_accounts
Revises: 0006_default_names
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_accounts"
down_revision: str | None = "0006_default_names"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=True),
        sa.Column("skeleton", sa.String(128), nullable=True, unique=True),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "account_passwords",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("hash", sa.String(255), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "account_sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idle_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_agent", sa.String(120), nullable=False),
    )
    op.create_table(
        "account_challenges",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "account_name_keys",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    )
    op.create_table(
        "account_seats",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    )


def downgrade() -> None:
    for name in (
        "account_seats",
        "account_name_keys",
        "account_challenges",
        "account_sessions",
        "account_passkeys",
        "account_passwords",
        "accounts",
    ):
        op.drop_table(name)

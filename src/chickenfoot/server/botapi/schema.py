"""The Bot API's tables (created by migration 0013_bot_api, which also marks bot accounts in ``accounts``):
personal API tokens and invitations of bot accounts to seats."""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code

api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # SHA-256 of the token (a 32-byte secret): the token itself is shown once, when it is minted.
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("label", sa.String(64), nullable=False),
    # Space-separated scopes (botapi/store.py SCOPES).
    sa.Column("scopes", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
bot_invitations = sa.Table(
    "bot_invitations",
    metadata,
    table_code(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("inviter", sa.String(64), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""A bot account invited to a free seat of a table, until it accepts (takes the seat) or declines."""

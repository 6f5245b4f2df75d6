"""The tables of friends and blocks (created by migration 0019_social), on the server's one ``MetaData``.

Every row names its accounts by foreign keys with ``ON DELETE CASCADE``; an account deleted by its
player (a row kept nameless, server/accounts) has its follows, blocks, settings and challenges deleted
by :meth:`~chickenfoot.server.social.store.SocialStore.forget`. A report stays: it is the
operators' evidence, and names its table by code only (no key), so the report outlives the table.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code


def account(name: str, *, primary_key: bool = False, nullable: bool = False, index: bool = False) -> sa.Column[int]:
    """A column naming an account: its rows go when the account's row goes."""
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=nullable,
        index=index,
    )


def when(name: str, *, nullable: bool = False, index: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable, index=index)


follows = sa.Table(
    "social_follows",
    metadata,
    account("follower_id", primary_key=True),
    account("followed_id", primary_key=True, index=True),
    when("created_at"),
)
"""Who follows whom: a player's friends list is the players they follow."""
blocks = sa.Table(
    "social_blocks",
    metadata,
    account("blocker_id", primary_key=True),
    account("blocked_id", primary_key=True, index=True),
    when("created_at"),
)
"""Who blocks whom: the blocked player is never told."""
privacy = sa.Table(
    "social_privacy",
    metadata,
    account("account_id", primary_key=True),
    # ``everyone``, ``friends`` (the players the account follows) or ``nobody``.
    sa.Column("challenges", sa.String(8), nullable=False, server_default="everyone"),
    sa.Column("status", sa.String(8), nullable=False, server_default="everyone"),
)
"""An account's choices; an account without a row has the defaults."""
presence = sa.Table(
    "social_presence",
    metadata,
    account("account_id", primary_key=True),
    when("seen_at", index=True),
)
"""When each account's lobby or friends page last asked for its news (at most one write a minute)."""
challenges = sa.Table(
    "social_challenges",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    account("challenger_id", index=True),
    account("challenged_id", index=True),
    # JSON: the table asked for, as ``POST /api/tables`` takes it (preset, rounds, seats, rated, ...).
    sa.Column("options", sa.Text, nullable=False),
    # ``pending``, then ``accepted``, ``declined``, ``expired`` or ``withdrawn``.
    sa.Column("status", sa.String(10), nullable=False, index=True),
    when("created_at"),
    when("expires_at", index=True),
    when("answered_at", nullable=True),
    # The table an accepted challenge made (its rows go with the table).
    table_code(nullable=True),
    # The challenger's seat there, and whether its credential has been handed to them (once).
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("seat_taken", sa.Boolean, nullable=False, server_default=sa.false()),
)
reports = sa.Table(
    "social_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    account("reporter_id", index=True),
    # ``None``: a chat line said by a guest (the table and the lines are the evidence).
    account("reported_id", nullable=True, index=True),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("note", sa.String(500), nullable=False, server_default=""),
    # The table and the chat line reported (by number), if any: a code, not a key, so the report outlives it.
    sa.Column("table_code", sa.String(16), nullable=True, index=True),
    sa.Column("line", sa.Integer, nullable=True),
    # JSON: the evidence kept when the report was made (the chat lines around the one reported).
    sa.Column("evidence", sa.Text, nullable=False),
    when("created_at", index=True),
    # ``open`` until an operator handles it: ``actioned`` or ``dismissed``.
    sa.Column("status", sa.String(10), nullable=False, index=True),
    sa.Column("handled_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    when("handled_at", nullable=True),
    sa.Column("resolution", sa.String(500), nullable=True),
)
"""Players reported to the operators, with the evidence kept at the time (server/social/reports.py)."""

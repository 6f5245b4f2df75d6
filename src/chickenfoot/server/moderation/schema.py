"""The moderation's tables (created by migration 0018_moderation), on the server's one ``MetaData``.

A restriction (a mute, a suspension) cannot outlive its account: its key cascades. The audit log
outlives everything it names: it keeps the names as they were when the line was written, and its
keys to accounts are set to ``NULL`` if an account's row ever goes; a table is named by its code only.
"""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata

REASON_LENGTH = 500
NAME_LENGTH = 32
"""A username as the accounts store it."""


def account(name: str, *, cascade: bool, primary_key: bool = False) -> sa.Column[int]:
    """A column naming an account: its rows go with the account's (``cascade``), or forget it (``NULL``)."""
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE" if cascade else "SET NULL"),
        primary_key=primary_key,
        nullable=not cascade,
    )


restrictions = sa.Table(
    "moderation_restrictions",
    metadata,
    account("account_id", cascade=True, primary_key=True),
    # ``mute`` (no chat line is taken) or ``suspend`` (no sign-in, no session).
    sa.Column("kind", sa.String(8), primary_key=True),
    sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    sa.Column("reason", sa.String(REASON_LENGTH), nullable=False),
    account("set_by", cascade=False),
    sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
)
"""What an operator restricted, per account and kind, until when (a row past its time restricts nothing)."""
audit = sa.Table(
    "moderation_audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # Who did it: an operator's account and name; both ``NULL``: the command line.
    account("operator_id", cascade=False),
    sa.Column("operator_name", sa.String(NAME_LENGTH), nullable=True),
    # What was done (service.Action): mute, unmute, suspend, unsuspend, close, rename, end_table, report,
    # word_add, word_remove, grant, revoke.
    sa.Column("action", sa.String(16), nullable=False),
    account("subject_id", cascade=False),
    sa.Column("subject_name", sa.String(NAME_LENGTH), nullable=True),
    sa.Column("table_code", sa.String(16), nullable=True),
    sa.Column("reason", sa.String(REASON_LENGTH), nullable=False),
    # JSON: what else the line says (until when, the new name, the report handled and how, a word).
    sa.Column("details", sa.Text, nullable=False),
    sa.Index("ix_moderation_audit_at", "at"),
    sa.Index("ix_moderation_audit_subject_id", "subject_id"),
)
"""Every moderation action, appended and never changed: nothing in the server updates or deletes a line."""
words = sa.Table(
    "moderation_words",
    metadata,
    sa.Column("word", sa.String(64), primary_key=True),
    account("added_by", cascade=False),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
)
"""The chat filter's words the operators added on the moderation page (words.py: the same notation as the lists)."""

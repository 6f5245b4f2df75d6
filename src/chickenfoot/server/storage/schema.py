"""Every table of the server's database on one :class:`~sqlalchemy.MetaData`, and the game store's own tables.

Each feature declares its tables in its own ``schema`` module on :data:`metadata`, so one ``MetaData``
knows every table and every foreign key between them. A row that cannot outlive its table (its
actions, secrets, chat lines, a seat followed by an account, an invitation, a handover link, a
match's results) names it by a foreign key with ``ON DELETE CASCADE``: deleting a table deletes them
all, in the database, and the game store need not know who else keeps rows of a table
(migration ``0014_foreign_keys``).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData(naming_convention={"fk": "fk_%(table_name)s_%(column_0_name)s"})
"""Every table of the server. A foreign key is named as migration ``0014_foreign_keys`` named it."""


def table_code(*, primary_key: bool = False, nullable: bool = False, index: bool = False) -> sa.Column[str]:
    """A column naming a table of ``game_tables``: its rows go when the table goes."""
    return sa.Column(
        "table_code",
        sa.String(16),
        sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=nullable,
        index=index,
    )


game_tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("over", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("rematch", sa.String(16), nullable=True),
)
actions = sa.Table(
    "actions",
    metadata,
    table_code(primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=True),
)
seat_secrets = sa.Table(
    "seat_secrets",
    metadata,
    table_code(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("purpose", sa.String(8), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False),
)
chat_lines = sa.Table(
    "chat_lines",
    metadata,
    table_code(primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(200), nullable=True),
    sa.Column("reaction", sa.String(32), nullable=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # The account that said it (a seated player's or a signed-in spectator's; ``None``: a guest): kept on
    # the server, never sent, so a listener who blocks it is spared the line and a report names who said
    # it (migration 0019_social). A number, not a key: the game store knows no account.
    sa.Column("speaker", sa.Integer, nullable=True),
)
rematch_votes = sa.Table(
    "rematch_votes",
    metadata,
    table_code(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
)
archived_actions = sa.Table(
    "archived_actions",
    metadata,
    table_code(primary_key=True),
    # A JSON list: the table's actions from version 1 on, moved here from ``actions`` (one row, not thousands).
    sa.Column("actions", sa.Text, nullable=False),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=True),
)
reviews = sa.Table(
    "reviews",
    metadata,
    table_code(primary_key=True),
    sa.Column("review", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
turn_deadlines = sa.Table(
    "turn_deadlines",
    metadata,
    table_code(primary_key=True),
    # What the turn-based table waits for next (a move's time running out, a bot's move, the next
    # round) at its ``version``: any process finds it due, and one claims it (``claimed_until``).
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # The seat whose player's time runs out at ``due_at`` (``None``: a bot's move, the next round):
    # the tables that wait for an account, ordered by the time left, are read from here.
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
)

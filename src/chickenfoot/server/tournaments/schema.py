"""The tournaments' tables (created by migration 0021_tournaments), on the server's one ``MetaData``.

An event's state is three kinds of row: the event itself, its entrants, and its tables (each one a
table of the game store, with its result once its match is over). Everything the organiser decides is
a function of those rows and the time (:mod:`chickenfoot.tournament`), so a process that takes the
organiser's lease rebuilds it from them. Entrants and tables go with their event; a table's row also
goes with its game table (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code


def tournament_id(*, primary_key: bool = False, index: bool = False) -> sa.Column[int]:
    """A column naming an event: the row goes when the event goes."""
    return sa.Column(
        "tournament_id",
        sa.Integer,
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
        index=index,
    )


tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # In the event's address (/tournaments/CODE): random, so a private event's address is its invitation.
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("format", sa.String(12), nullable=False),
    # JSON: the event's settings (settings.py), as they were when it was created.
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    # ``None``: an operator's event.
    sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    # scheduled, running, finished or cancelled.
    sa.Column("status", sa.String(12), nullable=False),
    # When it starts by itself (``None``: when its creator starts it); when it started; when an arena ends.
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
    # The round in play of a Swiss or a round-robin (0 before the first).
    sa.Column("round", sa.Integer, nullable=False, server_default="0"),
    # Deals every duplicate deal and the round-robin's schedule.
    sa.Column("seed", sa.BigInteger, nullable=False),
    # JSON: a round-robin's whole schedule, made once when it starts (each seat an account id or null).
    sa.Column("schedule", sa.Text, nullable=True),
    # daily or weekly: the next one is scheduled when this one starts (``next_made``).
    sa.Column("repeat", sa.String(8), nullable=True),
    sa.Column("next_made", sa.Boolean, nullable=False, server_default=sa.false()),
    # The fencing token of the organiser's lease that last paired it: an older holder pairs it no more.
    sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"),
    # Results written so far (each table's result takes the next number), and the standings made from them.
    sa.Column("results", sa.Integer, nullable=False, server_default="0"),
    sa.Column("standings", sa.Text, nullable=True),
    sa.Column("standings_of", sa.Integer, nullable=False, server_default="0"),
    # One more at every change a watcher sees (an entrant, a table, a result, the standings, the status).
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_tournaments_listed", "public", "status", "starts_at"),
)
"""One event: its settings, where it stands, and the standings its organiser last computed."""

tournament_entrants = sa.Table(
    "tournament_entrants",
    metadata,
    tournament_id(primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    # The order of entry: the seeding among equal ratings.
    sa.Column("number", sa.Integer, nullable=False),
    # in, paused (an arena's: not seated, points kept) or left (not seated again).
    sa.Column("state", sa.String(8), nullable=False),
    # When they joined, or came back from a pause: an arena seats the longest-waiting first.
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    # Their rating when they joined, for the seeding.
    sa.Column("rating", sa.Float, nullable=False),
)
"""Who entered an event (accounts only: a person's, or a bot account's through the Bot API)."""

tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    table_code(primary_key=True),
    tournament_id(),
    # The round of a Swiss or round-robin (``None`` in an arena), and the duplicate deal it played.
    sa.Column("round", sa.Integer, nullable=True),
    sa.Column("deal", sa.Integer, nullable=True),
    # JSON: who sat in each seat, an account id, or null for a bot.
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    # The result, written once when the match is over: when it ended (its last move), each seat's
    # points and place (JSON), and its number among the event's results.
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("points", sa.Text, nullable=True),
    sa.Column("places", sa.Text, nullable=True),
    sa.Column("number", sa.Integer, nullable=True),
    sa.Index("ix_tournament_tables_playing", "tournament_id", "finished_at"),
)
"""Every table an event made, and its result once its match is over: what is in play is what has none."""

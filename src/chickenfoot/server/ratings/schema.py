"""The ratings' tables (created by migration 0012_ratings).

``rated_matches`` is the once-only guard: a finished match is rated by whoever inserts its row, in the
same transaction as the ratings it changes, so a match seen by two processes (or finished twice) counts once.
``account_id`` names an account (``accounts.id``) without a foreign key: an account's deletion keeps its
history, as ``account_seats`` keeps its seats.
"""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("family", sa.String(8), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("last_played", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_ratings_family_mu", "family", "mu"),
)
rated_matches = sa.Table(
    "rated_matches",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("family", sa.String(8), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
)
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("family", sa.String(8), nullable=False),
    # The rank the rating counted (an abandoned seat is last).
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rating_changes_account", "account_id", "family", "at"),
)
"""Every rated seat's change: the history a profile draws, and what the match-over results show."""

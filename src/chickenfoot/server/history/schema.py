"""The match results' table (created by migration 0010_profiles), on the server's one ``MetaData``."""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code

match_results = sa.Table(
    "match_results",
    metadata,
    table_code(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # The seat's accuracy in the stored review (``None``: not reviewed yet, or a seat the review skipped).
    sa.Column("accuracy", sa.Float, nullable=True),
    sa.Column("reviewed", sa.Boolean, nullable=False, server_default=sa.false()),
)
"""One row per seat of every finished match: what a history lists without replaying it."""

"""Quick play's queue table (created by migration 0009_quick_play), on the server's one ``MetaData``."""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code

queue = sa.Table(
    "quick_play_queue",
    metadata,
    # The ticket's SHA-256 digest: the ticket itself (it claims the seat) stays with its browser.
    sa.Column("ticket", sa.String(64), primary_key=True),
    # ``account:ID`` or ``guest:DIGEST`` (a browser cookie's): one entry each.
    sa.Column("owner", sa.String(80), nullable=False, unique=True),
    sa.Column("address", sa.String(64), nullable=False, index=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("bots_after", sa.Float, nullable=True),
    # At one's own pace: seconds per move (migration 0020_turn_based); ``None``: real-time.
    sa.Column("move_seconds", sa.Integer, nullable=True),
    sa.Column("name", sa.String(160), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False, index=True),
    # Set when a pass seats the player: the new table and their seat, until they claim it.
    table_code(nullable=True, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
)

"""The handover links' table (created by migration 0011_handover), on the server's one ``MetaData``."""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata, table_code

handovers = sa.Table(
    "seat_handovers",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    table_code(),
    sa.Column("seat", sa.Integer, nullable=False),
    # The digest of the seat credential the link replaces: once spent, that credential only watches.
    sa.Column("from_digest", sa.String(64), nullable=False, index=True),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
)

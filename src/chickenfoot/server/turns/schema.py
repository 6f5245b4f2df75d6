"""The vacations' table (created by migration 0020_turn_based), on the server's one ``MetaData``."""

from __future__ import annotations

import sqlalchemy as sa

from chickenfoot.server.storage.schema import metadata

vacations = sa.Table(
    "vacations",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each vacation an account took: its turn-based clocks stood from ``starts_at`` to ``ends_at``."""

"""Tournaments: events (arena, Swiss, round-robin, duplicate), their entrants, and the tables they made
with each one's result.

Revision ID: 0021_tournaments
Revises: 0020_turn_based
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_tournaments"
down_revision: str | None = "0020_turn_based"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def tournament_id(table: str, *, primary_key: bool = False) -> sa.Column[int]:
    key = sa.ForeignKey("tournaments.id", ondelete="CASCADE", name=f"fk_{table}_tournament_id")
    return sa.Column("tournament_id", sa.Integer, key, primary_key=primary_key, nullable=False)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column(
            "creator_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="SET NULL", name="fk_tournaments_creator_id"),
            nullable=True,
        ),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("schedule", sa.Text, nullable=True),
        sa.Column("repeat", sa.String(8), nullable=True),
        sa.Column("next_made", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("results", sa.Integer, nullable=False, server_default="0"),
        sa.Column("standings", sa.Text, nullable=True),
        sa.Column("standings_of", sa.Integer, nullable=False, server_default="0"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_listed", "tournaments", ["public", "status", "starts_at"])
    op.create_table(
        "tournament_entrants",
        tournament_id("tournament_entrants", primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE", name="fk_tournament_entrants_account_id"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE", name="fk_tournament_tables_table_code"),
            primary_key=True,
        ),
        tournament_id("tournament_tables"),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("deal", sa.Integer, nullable=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("points", sa.Text, nullable=True),
        sa.Column("places", sa.Text, nullable=True),
        sa.Column("number", sa.Integer, nullable=True),
    )
    op.create_index("ix_tournament_tables_playing", "tournament_tables", ["tournament_id", "finished_at"])


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")

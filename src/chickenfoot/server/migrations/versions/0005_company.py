"""Company at the table: chat lines, public tables in the lobby, rematch acceptances.

Revision ID: 0005_company
Revises: 0004_created_at_index
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_company"
down_revision: str | None = "0004_created_at_index"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(200), nullable=True),
        sa.Column("reaction", sa.String(32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rematch_votes",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("over", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rematch", sa.String(16), nullable=True))
    op.create_index("ix_game_tables_listed", "game_tables", ["public", "over", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_listed", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rematch")
        batch.drop_column("over")
        batch.drop_column("public")
    op.drop_table("rematch_votes")
    op.drop_table("chat_lines")

"""Foreign keys from every row that belongs to a table to its table, deleted with it (``ON DELETE CASCADE``).

Until now the sweep of unplayed tables deleted their rows by hand, table by table, and missed some
(a bot account's invitation, a handover link). Rows left behind by it are deleted first, then each
table gets its key. On SQLite the tables are rebuilt (batch mode), with foreign keys unenforced
meanwhile (``Storage.migrate``); the server enforces them on every connection from now on.

Revision ID: 0014_foreign_keys
Revises: 0013_bot_api
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_foreign_keys"
down_revision: str | None = "0013_bot_api"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

CHILDREN = (
    "actions",
    "archived_actions",
    "seat_secrets",
    "chat_lines",
    "rematch_votes",
    "reviews",
    "account_seats",
    "bot_invitations",
    "seat_handovers",
    "match_results",
    "quick_play_queue",
)
"""Every table with a ``table_code`` naming a row of ``game_tables`` (``quick_play_queue``'s may be null)."""
KEYED_BEFORE = ("actions", "archived_actions", "seat_secrets", "reviews")
"""Tables whose key to ``game_tables`` was made without ``ON DELETE CASCADE`` (enforced by PostgreSQL only)."""
NAMING = {"fk": "fk_%(table_name)s_%(column_0_name)s"}
"""SQLite's keys have no names: reflected, they are named so, and so is every key made here."""


def name(child: str) -> str:
    return f"fk_{child}_table_code"


def upgrade() -> None:
    tables = sa.table("game_tables", sa.column("code"))
    inspector = sa.inspect(op.get_bind())
    for child in CHILDREN:
        code: sa.ColumnClause[str] = sa.column("table_code", sa.String)
        orphan = code.is_not(None) & code.not_in(sa.select(tables.c.code))
        op.execute(sa.table(child, code).delete().where(orphan))
        keys = [
            key["name"] or name(child)
            for key in inspector.get_foreign_keys(child)
            if key["referred_table"] == "game_tables"
        ]
        with op.batch_alter_table(child, naming_convention=NAMING) as batch:
            for key in keys:
                batch.drop_constraint(key, type_="foreignkey")
            batch.create_foreign_key(name(child), "game_tables", ["table_code"], ["code"], ondelete="CASCADE")


def downgrade() -> None:
    for child in reversed(CHILDREN):
        with op.batch_alter_table(child, naming_convention=NAMING) as batch:
            batch.drop_constraint(name(child), type_="foreignkey")
            if child in KEYED_BEFORE:
                batch.create_foreign_key(f"{child}_table_code_fkey", "game_tables", ["table_code"], ["code"])

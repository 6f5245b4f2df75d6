"""Seats keep only names people chose: the English default names stored before ("Player 2",
"Easy bot 3") are cleared, so every reader sees them in their own language.

Revision ID: 0006_default_names
Revises: 0005_company
"""

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006_default_names"
down_revision: str | None = "0005_company"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

BATCH = 500
tables = sa.table("game_tables", sa.column("code", sa.String), sa.column("config", sa.Text))


def english_default(number: int, seat: dict[str, Any]) -> str:
    """The name the server used to store for a seat nobody named (``number`` counts from 1)."""
    if seat.get("kind") == "bot":
        return f"{str(seat.get('bot') or 'medium').capitalize()} bot {number}"
    return f"Player {number}"


def seats(config: Any) -> list[tuple[int, dict[str, Any]]]:
    """The seats of a stored configuration, numbered from 1 (a row some other program left has none)."""
    listed = config.get("seats") if isinstance(config, dict) else None
    if not isinstance(listed, list):
        return []
    return [(number, seat) for number, seat in enumerate(listed, start=1) if isinstance(seat, dict)]


def cleared(config: Any) -> bool:
    changed = False
    for number, seat in seats(config):
        if seat.get("name") == english_default(number, seat):
            seat["name"] = None
            changed = True
    return changed


def filled(config: Any) -> bool:
    changed = False
    for number, seat in seats(config):
        if seat.get("name") is None:
            seat["name"] = english_default(number, seat)
            changed = True
    return changed


def rewrite(change: Callable[[Any], bool]) -> None:
    """Apply ``change`` to every stored configuration, a batch of rows at a time (by code)."""
    connection = op.get_bind()
    after = ""
    while True:
        rows = connection.execute(
            sa.select(tables.c.code, tables.c.config).where(tables.c.code > after).order_by(tables.c.code).limit(BATCH)
        ).all()
        if not rows:
            return
        for code, text in rows:
            config = json.loads(text)
            if change(config):
                connection.execute(tables.update().where(tables.c.code == code).values(config=json.dumps(config)))
        after = rows[-1][0]


def upgrade() -> None:
    rewrite(cleared)


def downgrade() -> None:
    rewrite(filled)

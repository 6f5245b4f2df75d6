"""The insert of a batch of new actions, said to the database driver itself: every stored action goes
through it, so it is the game store's hottest statement.

SQLAlchemy's way there (its execution context and the driver adapter's cursor: open, execute, fetch,
close, each a turn of aiosqlite's thread) cost far more than the statement itself
(docs/operators/capacity.md). Here the batch is one statement in one call to the driver: on SQLite one
``INSERT … VALUES (…), (…) … RETURNING`` and its commit, on PostgreSQL one prepared ``INSERT … SELECT
FROM unnest(…)`` (a statement by itself, committed as it runs). The rows are the schema's
(:data:`~chickenfoot.server.storage.schema.actions`) and their times are written as SQLAlchemy writes
them, so every reader reads them as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.engine import Dialect

from chickenfoot.server.storage.schema import actions

ActionRow = dict[str, Any]
"""One action to store: ``table_code``, ``version``, ``action`` and ``at`` (its time, in UTC)."""
Inserted = list[tuple[str, int, str]]
"""The (table, version, action) of each row stored; a version stored already is left out."""

COLUMNS = ("table_code", "version", "action", "at")
RETURNED = "RETURNING table_code, version, action"
CONFLICT = "ON CONFLICT (table_code, version) DO NOTHING"


class NewActions(Protocol):
    async def insert(self, driver: Any, rows: Sequence[ActionRow]) -> Inserted:
        """Store ``rows`` through ``driver`` (the connection of the database's driver), committed."""
        ...


class SqliteNewActions:
    """One ``INSERT`` of every row (aiosqlite: one turn of its thread) and the commit (another)."""

    def __init__(self, dialect: Dialect) -> None:
        # The time as SQLAlchemy's DateTime writes it on SQLite (text, without the zone).
        writes = actions.c.at.type.dialect_impl(dialect).bind_processor(dialect)
        assert writes is not None, "SQLAlchemy writes a time on SQLite as text"
        self._at: Callable[[datetime], Any] = writes

    async def insert(self, driver: Any, rows: Sequence[ActionRow]) -> Inserted:
        values = ", ".join(["(?, ?, ?, ?)"] * len(rows))
        statement = f"INSERT INTO {actions.name} ({', '.join(COLUMNS)}) VALUES {values} {CONFLICT} {RETURNED}"
        at = self._at
        parameters = [
            value for row in rows for value in (row["table_code"], row["version"], row["action"], at(row["at"]))
        ]
        stored = await driver.execute_fetchall(statement, parameters)
        await driver.commit()
        return [(code, version, action) for code, version, action in stored]


class PostgresNewActions:
    """One prepared statement for any number of rows (asyncpg keeps it prepared per connection)."""

    STATEMENT = (
        f"INSERT INTO {actions.name} ({', '.join(COLUMNS)}) "
        "SELECT * FROM unnest($1::varchar[], $2::integer[], $3::varchar[], $4::timestamptz[]) "
        f"{CONFLICT} {RETURNED}"
    )

    async def insert(self, driver: Any, rows: Sequence[ActionRow]) -> Inserted:
        columns = [[row[column] for row in rows] for column in COLUMNS]
        stored = await driver.fetch(self.STATEMENT, *columns)
        return [(record[0], record[1], record[2]) for record in stored]


def new_actions_for(dialect: Dialect) -> NewActions:
    """The insert of new actions for the database of ``dialect`` (SQLite or PostgreSQL)."""
    return SqliteNewActions(dialect) if dialect.name == "sqlite" else PostgresNewActions()

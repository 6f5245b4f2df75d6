"""Migration 0020_turn_based makes exactly the tables the one MetaData declares (SQLite and PostgreSQL):
the turn-based tables' deadlines, gone with their table, and the vacations, gone with their account."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import chickenfoot.server.app  # noqa: F401  # every feature declares its tables on the one MetaData
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.storage import Storage, metadata, turn_deadlines
from chickenfoot.server.turns.schema import vacations

TABLES = {"turn_deadlines", "vacations"}


def differences(database_url: str) -> list[Any]:
    async def compare() -> list[Any]:
        storage = Storage(database_url, SystemClock())
        try:
            await storage.migrate()
            async with storage.engine.connect() as conn:
                return await conn.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
        finally:
            await storage.close()

    return asyncio.run(compare())


def about(difference: Any) -> str:
    return next((table for table in TABLES if f"'{table}'" in repr(difference) or f"<{table}>" in repr(difference)), "")


def test_the_migration_makes_the_tables_the_metadata_declares(database_url: str) -> None:
    assert {table.name for table in metadata.sorted_tables} >= TABLES
    mine = [difference for difference in differences(database_url) if about(difference)]
    # SQLite reflects an index's DateTime(timezone=True) column as DATETIME: the same index removed and added.
    removed = {d[1].name for d in mine if d[0] == "remove_index"}
    added = {d[1].name for d in mine if d[0] == "add_index"}
    assert [d for d in mine if not (d[0] in ("remove_index", "add_index") and d[1].name in removed & added)] == []


def test_each_row_goes_with_its_table_or_its_account() -> None:
    [table_key] = turn_deadlines.foreign_keys
    [account_key] = vacations.foreign_keys
    assert (table_key.column.table.name, table_key.ondelete) == ("game_tables", "CASCADE")
    assert (account_key.column.table.name, account_key.ondelete) == ("accounts", "CASCADE")

"""Migration 0017_notifications makes exactly the tables the one MetaData declares (SQLite and PostgreSQL),
and every row of them goes with its account."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import chickenfoot.server.app  # noqa: F401  # every feature declares its tables on the one MetaData
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.notifications import schema
from chickenfoot.server.storage import Storage, metadata

TABLES = {"notification_settings", "notifications", "push_subscriptions", "notification_outbox", "notification_keys"}


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
    """The table a difference of alembic's comparison is about (its text names it)."""
    return next((table for table in TABLES if f"'{table}'" in repr(difference) or f"<{table}>" in repr(difference)), "")


def test_the_migration_makes_the_tables_the_metadata_declares(database_url: str) -> None:
    assert {table.name for table in metadata.sorted_tables} >= TABLES
    mine = [difference for difference in differences(database_url) if about(difference)]
    # SQLite reflects an index's column as DATETIME where the metadata says DateTime(timezone=True): alembic
    # then reports the same index removed and added back. Only an index on one side alone is a difference.
    removed = {d[1].name for d in mine if d[0] == "remove_index"}
    added = {d[1].name for d in mine if d[0] == "add_index"}
    assert [d for d in mine if not (d[0] in ("remove_index", "add_index") and d[1].name in removed & added)] == []


def test_every_table_names_its_account_with_a_cascading_key() -> None:
    for table in (
        schema.notification_settings,
        schema.notifications,
        schema.push_subscriptions,
        schema.notification_outbox,
    ):
        [key] = [key for key in table.foreign_keys if key.column.table.name == "accounts"]
        assert key.ondelete == "CASCADE", table.name

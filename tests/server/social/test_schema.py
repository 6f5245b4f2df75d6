"""The tables of friends and blocks: migration 0019_social makes them as the schema declares them, every
account they name is a key with ``ON DELETE CASCADE``, and an account deleted by its player takes its
follows, blocks, choices and challenges with it (its reports stay, for the operators)."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.social import schema
from chickenfoot.server.storage import Storage, metadata

from .conftest import Person

SOCIAL = [table for table in metadata.sorted_tables if table.name.startswith("social_")]


def shape(table: sa.Table) -> dict[str, Any]:
    """A table's columns (name, nullable), keys (columns, the table named, what a delete there does) and
    indexed column sets, as the schema declares them."""
    return {
        "columns": sorted((c.name, c.nullable) for c in table.columns),
        "keys": sorted(
            ((k.parent.name,), k.column.table.name, (k.ondelete or "").upper() or None) for k in table.foreign_keys
        ),
        "indexes": sorted(tuple(c.name for c in index.columns) for index in table.indexes),
    }


def reflected(inspector: Any, name: str) -> dict[str, Any]:
    """The same, as the migrated database holds it."""
    return {
        "columns": sorted((c["name"], c["nullable"]) for c in inspector.get_columns(name)),
        "keys": sorted(
            (tuple(k["constrained_columns"]), k["referred_table"], (k.get("options") or {}).get("ondelete"))
            for k in inspector.get_foreign_keys(name)
        ),
        "indexes": sorted(tuple(index["column_names"]) for index in inspector.get_indexes(name)),
    }


def test_the_migration_makes_the_tables_the_schema_declares(social_client: TestClient, database_url: str) -> None:
    def found(conn: sa.Connection) -> dict[str, Any]:
        inspector = sa.inspect(conn)
        return {table.name: reflected(inspector, table.name) for table in SOCIAL} | {
            "speaker": [c for c in inspector.get_columns("chat_lines") if c["name"] == "speaker"]
        }

    async def migrated() -> dict[str, Any]:
        storage = Storage(database_url, SystemClock())
        async with storage.engine.connect() as conn:
            tables = await conn.run_sync(found)
        await storage.close()
        return tables

    tables = asyncio.run(migrated())
    assert len(SOCIAL) == 6
    for table in SOCIAL:
        assert tables[table.name] == shape(table), table.name
    [speaker] = tables["speaker"]
    assert speaker["nullable"] is True and isinstance(speaker["type"], sa.Integer)


def test_every_account_named_is_a_cascading_key() -> None:
    for table in SOCIAL:
        for key in table.foreign_keys:
            if key.column.table.name == "accounts":
                expected = "SET NULL" if key.parent.name == "handled_by" else "CASCADE"
                assert key.ondelete == expected, (table.name, key.parent.name)
    assert schema.reports.c.table_code.foreign_keys == set()  # a report outlives its table


def test_a_deleted_account_takes_its_friends_and_blocks_with_it(social_client: TestClient, database_url: str) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    ann.follow("bob")
    bob.follow("ann")
    ann.ok("post", "/api/social/challenges", {"to": "bob"})
    bob.block("ann")  # the challenge is declined: ann has a notice
    ann.choose(challenges="friends", status="nobody")
    ann.news()
    bob.ok("post", "/api/social/reports", {"name": "ann", "reason": "name"})
    data = ann.ok("get", "/api/account/data")
    assert data["friends"]["following"][0]["name"] == "bob"
    assert data["friends"]["privacy"] == {"challenges": "friends", "status": "nobody"}
    ann.ok("delete", "/api/account")

    async def rows() -> dict[str, int]:
        storage = Storage(database_url, SystemClock())
        async with storage.reading() as conn:
            counts = {
                table.name: int((await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one())
                for table in SOCIAL
            }
        await storage.close()
        return counts

    assert asyncio.run(rows()) == {
        "social_follows": 0,
        "social_blocks": 0,
        "social_privacy": 0,
        "social_presence": 0,
        "social_challenges": 0,
        "social_reports": 1,
    }
    assert bob.friends() == {}

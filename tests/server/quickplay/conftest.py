"""Fixtures of quick play's server tests: a queue emptied before each test (PostgreSQL's outlives a test)."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.quickplay.schema import queue
from chickenfoot.server.storage import Storage


@pytest.fixture
def empty_queue(database_url: str) -> str:
    """The database's URL, its quick play queue empty."""

    async def empty() -> None:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        async with storage.transaction() as conn:
            await conn.execute(sa.delete(queue))
        await storage.close()

    asyncio.run(empty())
    return database_url

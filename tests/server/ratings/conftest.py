"""Fixtures of the ratings tests: an app with accounts, over a database emptied of accounts and ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.ratings import schema as rating_schema
from chickenfoot.server.storage import Storage

from ..accounts.conftest import ACCOUNT_TABLES, GENEROUS


@pytest.fixture
def empty_ratings(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without accounts and ratings."""
    if database_url.startswith("sqlite"):
        return

    async def empty() -> None:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        async with storage.transaction() as conn:
            for table in (rating_schema.ratings, rating_schema.rated_matches, rating_schema.rating_changes):
                await conn.execute(table.delete())
            for table in ACCOUNT_TABLES:
                await conn.execute(table.delete())
        await storage.close()

    asyncio.run(empty())


@pytest.fixture
def ratings_client(make_client: Callable[..., TestClient], empty_ratings: None) -> TestClient:
    return make_client(addresses=GENEROUS)

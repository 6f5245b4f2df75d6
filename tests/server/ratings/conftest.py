"""Fixtures of the ratings tests: an app with accounts, over a database emptied of accounts and ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.accounts import schema as account_schema
from chickenfoot.server.ratings import schema as rating_schema
from chickenfoot.testing.stores import emptied

from ..accounts.conftest import GENEROUS


@pytest.fixture
def empty_ratings(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without accounts and ratings."""
    if not database_url.startswith("sqlite"):
        tables = [*reversed(rating_schema.metadata.sorted_tables), *reversed(account_schema.metadata.sorted_tables)]
        asyncio.run(emptied(database_url, tables))


@pytest.fixture
def ratings_client(make_client: Callable[..., TestClient], empty_ratings: None) -> TestClient:
    return make_client(addresses=GENEROUS)

"""Fixtures of the ratings tests: an app with accounts, over a database emptied of accounts and ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.ratings import schema as rating_schema
from chickenfoot.testing.stores import emptied

from ..accounts.conftest import ACCOUNT_TABLES, GENEROUS


@pytest.fixture
def empty_ratings(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without accounts and ratings."""
    if not database_url.startswith("sqlite"):
        tables = [rating_schema.ratings, rating_schema.rated_matches, rating_schema.rating_changes, *ACCOUNT_TABLES]
        asyncio.run(emptied(database_url, tables))


@pytest.fixture
def ratings_client(make_client: Callable[..., TestClient], empty_ratings: None) -> TestClient:
    return make_client(addresses=GENEROUS)

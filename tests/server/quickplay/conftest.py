"""Fixtures of quick play's server tests: a queue emptied before each test (PostgreSQL's outlives a test)."""

from __future__ import annotations

import asyncio

import pytest

from chickenfoot.server.quickplay.schema import queue
from chickenfoot.testing.stores import emptied


@pytest.fixture
def empty_queue(database_url: str) -> str:
    """The database's URL, its quick play queue empty."""
    asyncio.run(emptied(database_url, [queue]))
    return database_url

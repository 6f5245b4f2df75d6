"""Fixtures of the operators' tests: the server tests' in-process apps over SQLite and PostgreSQL, and
PostgreSQL databases of a test's own (made and dropped by the test role, which may create databases)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator

import pytest

from chickenfoot.testing.stores import database_of, drop_database, fresh_database
from server.conftest import client, database_url, make_client
from services import unavailable

__all__ = ["client", "database_url", "fresh_postgres", "make_client"]


@pytest.fixture
def fresh_postgres(pg_url: str) -> Iterator[Callable[[], str]]:
    """Makes empty PostgreSQL databases beside the test database (their URLs), dropped after the test."""
    made: list[str] = []

    def make() -> str:
        name = f"{database_of(pg_url)}_{secrets.token_hex(4)}"
        try:
            url = asyncio.run(fresh_database(pg_url, name))
        except Exception as exc:  # asyncpg's InsufficientPrivilegeError and the like
            unavailable("a PostgreSQL role that may create databases", exc)
        made.append(name)
        return url

    yield make
    for name in made:
        asyncio.run(drop_database(pg_url, name))

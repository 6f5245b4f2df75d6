"""Fixtures of the operators' tests: the server tests' in-process apps over SQLite and PostgreSQL, and
PostgreSQL databases of a test's own (made and dropped by the test role, which may create databases)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.engine import make_url

from scale.conftest import unavailable
from server.conftest import client, database_url, make_client, pg_url

__all__ = ["client", "database_url", "fresh_postgres", "libpq", "make_client", "pg_url"]


def libpq(url: str, *, password: bool = True) -> str:
    """A SQLAlchemy URL as PostgreSQL's own tools take it (``postgresql://``), with or without its password."""
    parsed = make_url(url).set(drivername="postgresql")
    return (parsed if password else parsed._replace(password=None)).render_as_string(hide_password=False)


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(libpq(url), timeout=5)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture
def fresh_postgres(pg_url: str) -> Iterator[Callable[[], str]]:
    """Makes empty PostgreSQL databases beside the test database (their URLs), dropped after the test."""
    made: list[str] = []

    def make() -> str:
        name = f"{make_url(pg_url).database}_{secrets.token_hex(4)}"
        try:
            asyncio.run(_admin(pg_url, f'CREATE DATABASE "{name}"'))
        except Exception as exc:  # asyncpg's InsufficientPrivilegeError and the like
            unavailable("a PostgreSQL role that may create databases", exc)
        made.append(name)
        return make_url(pg_url).set(database=name).render_as_string(hide_password=False)

    yield make
    for name in made:
        asyncio.run(_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

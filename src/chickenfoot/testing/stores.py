"""Stores for the tests, migrated once and then copied or reused: a test that needs a fresh store
does not pay the migrations again (a server's start-up still runs them, finding nothing to do).

- :func:`migrated` brings a store to the newest schema, as a server's start-up does.
- :func:`copy_of` gives a test its own SQLite file, a copy of one migrated once.
- :func:`emptied` deletes every row of some tables: a store a session's tests share starts a test
  without accounts, ratings or waiting players.
- :func:`fresh_database` creates a PostgreSQL database afresh beside another (``CREATEDB``), and
  :func:`drop_database` drops it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

import asyncpg
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.storage import Storage


async def migrated(url: str) -> str:
    """Migrate the store at ``url`` to the newest schema; returns ``url``."""
    storage = Storage(url, SystemClock())
    try:
        await storage.migrate()
    finally:
        await storage.close()
    return url


async def emptied(url: str, tables: Iterable[sa.Table]) -> None:
    """Delete every row of ``tables``, in the order given (children before parents), in one transaction."""
    storage = Storage(url, SystemClock())
    try:
        async with storage.transaction() as conn:
            for table in tables:
                await conn.execute(table.delete())
    finally:
        await storage.close()


def copy_of(template: Path, directory: Path) -> str:
    """The URL of ``directory/games.db``, a copy of the SQLite file ``template``."""
    path = directory / "games.db"
    shutil.copyfile(template, path)
    return f"sqlite+aiosqlite:///{path}"


def database_of(url: str) -> str:
    """The name of the database ``url`` names."""
    return str(make_url(url).database)


def libpq(url: str, *, password: bool = True) -> str:
    """``url`` (SQLAlchemy's ``postgresql+asyncpg://…``) as asyncpg's own ``connect`` and PostgreSQL's own
    tools take it, with or without its password."""
    parsed = make_url(url).set(drivername="postgresql")
    return (parsed if password else parsed._replace(password=None)).render_as_string(hide_password=False)


async def fresh_database(url: str, name: str) -> str:
    """Create the PostgreSQL database ``name`` empty (dropping any of that name first) on the server
    of ``url``, connected as its user to its database; returns its URL.

    Raises ``asyncpg.InsufficientPrivilegeError`` when the user may not create databases.
    """
    conn = await asyncpg.connect(libpq(url), timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
        # A test's commits need not outlast a crash of PostgreSQL itself: none waits for the disk (the
        # order, isolation and visibility of transactions are the same; only a crash could lose the last).
        await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit TO off')
    finally:
        await conn.close()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


async def drop_database(url: str, name: str) -> None:
    """Drop the database ``name`` on the server of ``url`` (whoever is still connected to it)."""
    conn = await asyncpg.connect(libpq(url), timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()

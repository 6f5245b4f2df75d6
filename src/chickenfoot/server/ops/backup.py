"""Backups of an SQLite game store (``chickenfoot storage backup`` and ``restore``).

A backup is taken while servers play on: SQLite's online backup API copies the whole file in one
step, inside one read transaction, so the copy is the database as it stood at one instant (every
action committed before it, none after), and in WAL mode the servers' writes go on meanwhile. The
copy is made beside the target and renamed into place once checked, so a backup interrupted halfway
leaves no file that looks whole. A restore checks the backup (its integrity and its schema) and
copies it into a new games file for servers to start on; it refuses to overwrite a file that holds
games unless told to (``--replace``, with the servers stopped).

A PostgreSQL database is backed up with PostgreSQL's own tools, ``pg_dump`` and ``pg_restore``
(docs/operators/backups.md); asked to, these commands say so in one line.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from chickenfoot.server.ops.health import migration_heads

POSTGRES_TOOLS = {
    "backed up": "pg_dump --format=custom --dbname=postgresql://USER@HOST/DATABASE --file=PATH",
    "restored": "pg_restore --no-owner --dbname=postgresql://USER@HOST/NEW_DATABASE PATH",
}
"""What each command would have done, and the PostgreSQL tool that does it (docs/operators/backups.md)."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or a restore copied."""

    path: Path
    tables: int
    """Game tables (matches, finished or not) in the copy."""
    revision: str
    """The schema's migration."""
    size: int
    """Bytes."""

    def __str__(self) -> str:
        return f"{self.tables} tables, schema {self.revision}, {self.size / 1e6:.1f} MB"


def sqlite_file(url: str, done: str) -> Path:
    """The SQLite file of ``url``, to be ``done`` (``backed up``, ``restored``); raises ``ValueError`` in
    one line for any other database, naming the tool that does it.

    >>> sqlite_file("postgresql+asyncpg://user:pw@db/games", "backed up")
    Traceback (most recent call last):
    ValueError: a postgresql database is backed up with its own tools: pg_dump --format=custom ...
    """
    database = make_url(url)
    if database.get_backend_name() != "sqlite":
        raise ValueError(
            f"a {database.get_backend_name()} database is {done} with its own tools: {POSTGRES_TOOLS[done]}"
        )
    if database.database in (None, "", ":memory:"):
        raise ValueError("an in-memory database has nothing to keep")
    return Path(database.database)


def backup(url: str, target: Path) -> Copied:
    """Copy the SQLite game store of ``url`` to ``target`` (a new file), consistently, while servers write to it.

    Raises ``ValueError`` in one line: no games file, ``target`` exists, or the copy fails its check.
    """
    source = sqlite_file(url, "backed up")
    if not source.is_file():
        raise ValueError(f"no games file at {source}")
    if target.exists():
        raise ValueError(f"{target} exists already: name a new file")
    partial = target.with_name(f"{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source, timeout=30)) as live, closing(sqlite3.connect(partial)) as copy:
            live.backup(copy)  # every page in one step: one read transaction, one instant of the database
            copy.execute("PRAGMA journal_mode=DELETE")  # the copy is one file, with no write-ahead log beside it
            copied = _checked(copy, partial)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise ValueError(f"cannot back up {source}: {exc}") from None
    except ValueError:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(target)
    return Copied(target, copied.tables, copied.revision, target.stat().st_size)


def restore(source: Path, url: str, *, replace: bool = False) -> Copied:
    """Copy the backup ``source`` into the SQLite game store of ``url`` for servers to start on.

    Raises ``ValueError`` in one line: the backup is missing, damaged, not a game store or from a
    newer release; or the target holds games and ``replace`` is not given.
    """
    target = sqlite_file(url, "restored")
    if not source.is_file():
        raise ValueError(f"no backup at {source}")
    try:
        with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as backed_up:
            found = _checked(backed_up, source)
            _, known = migration_heads()
            if found.revision not in known:
                raise ValueError(
                    f"{source} has schema {found.revision}, newer than this release knows: restore it with a newer one"
                )
            if target.exists() and not replace and _holds_games(target):
                raise ValueError(
                    f"{target} holds games already: restore into a new file, or stop the servers and --replace"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(target, timeout=30)) as restored:
                backed_up.backup(restored)
    except sqlite3.Error as exc:
        raise ValueError(f"cannot restore {source}: {exc}") from None
    return Copied(target, found.tables, found.revision, target.stat().st_size)


def _checked(connection: sqlite3.Connection, path: Path) -> Copied:
    """What ``connection`` holds; ``ValueError`` when it is damaged or not a game store."""
    verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise ValueError(f"{path} is damaged: {verdict}")
    try:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = connection.execute("SELECT count(*) FROM game_tables").fetchone()[0]
    except sqlite3.DatabaseError:
        raise ValueError(f"{path} is not a game store") from None
    if revision is None:
        raise ValueError(f"{path} is not a game store")
    return Copied(path, int(tables), str(revision[0]), 0)


def _holds_games(path: Path) -> bool:
    with closing(sqlite3.connect(path, timeout=30)) as existing:
        found = existing.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'game_tables'")
        return found.fetchone() is not None and existing.execute("SELECT 1 FROM game_tables").fetchone() is not None

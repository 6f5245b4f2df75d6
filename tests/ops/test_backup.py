"""``chickenfoot storage backup`` and ``restore`` of an SQLite game store, and what they refuse."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.ops.backup import backup, restore
from chickenfoot.server.ops.health import migration_heads
from chickenfoot.server.storage import Storage

ACTIONS = ["9-9", "9-5@9-9", "draw", "9-1@9-9"]


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def stored(url: str, actions: list[str]) -> None:
    storage = Storage(url, SystemClock())
    await storage.migrate()
    assert await storage.create_table("AB12CD", {"rules": {}, "seats": [], "seed": 1})
    for version, action in enumerate(actions, 1):
        await storage.append_action("AB12CD", version, action)
    await storage.close()


async def read_back(url: str) -> tuple[dict[str, object], list[str]] | None:
    storage = Storage(url, SystemClock())
    try:
        return await storage.load_table("AB12CD")
    finally:
        await storage.close()


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "live" / "games.db"
    path.parent.mkdir()
    asyncio.run(stored(sqlite_url(path), ACTIONS))
    return path


def test_a_backup_restored_into_a_new_file_holds_the_same_games(games: Path, tmp_path: Path) -> None:
    copy = tmp_path / "backup.db"
    made = backup(sqlite_url(games), copy)
    assert (made.tables, made.revision) == (1, migration_heads()[0])
    assert not (tmp_path / "backup.db-wal").exists() and not (tmp_path / "backup.db.partial").exists()
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    fresh = tmp_path / "fresh" / "games.db"
    restored = restore(copy, sqlite_url(fresh))
    assert restored.path == fresh and restored.tables == 1
    assert asyncio.run(read_back(sqlite_url(fresh))) == asyncio.run(read_back(sqlite_url(games)))


def test_a_restore_refuses_to_overwrite_games_unless_told_to(games: Path, tmp_path: Path) -> None:
    copy = tmp_path / "backup.db"
    backup(sqlite_url(games), copy)
    other = tmp_path / "other.db"
    asyncio.run(stored(sqlite_url(other), ["9-9"]))
    with pytest.raises(ValueError, match="holds games already: restore into a new file, or stop the servers"):
        restore(copy, sqlite_url(other))
    assert asyncio.run(read_back(sqlite_url(other))) == ({"rules": {}, "seats": [], "seed": 1}, ["9-9"])
    restore(copy, sqlite_url(other), replace=True)
    assert asyncio.run(read_back(sqlite_url(other))) == asyncio.run(read_back(sqlite_url(games)))


def test_what_backup_and_restore_refuse(games: Path, tmp_path: Path) -> None:
    copy = tmp_path / "backup.db"
    backup(sqlite_url(games), copy)
    with pytest.raises(ValueError, match="exists already: name a new file"):
        backup(sqlite_url(games), copy)
    with pytest.raises(ValueError, match=r"^no games file at "):
        backup(sqlite_url(tmp_path / "none.db"), tmp_path / "b2.db")
    with pytest.raises(ValueError, match=r"^a postgresql database is backed up with its own tools: pg_dump "):
        backup("postgresql+asyncpg://chickenfoot:secret@db/chickenfoot", tmp_path / "b3.db")
    with pytest.raises(ValueError, match=r"^a postgresql database is restored with its own tools: pg_restore "):
        restore(copy, "postgresql+asyncpg://chickenfoot:secret@db/chickenfoot")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ValueError, match=r"^cannot restore .*junk.db: file is not a database$"):
        restore(junk, sqlite_url(tmp_path / "r1.db"))
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(ValueError, match=r"foreign.db is not a game store$"):
        restore(foreign, sqlite_url(tmp_path / "r2.db"))
    newer = tmp_path / "newer.db"
    newer.write_bytes(copy.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099_a_later_release'")
    with pytest.raises(ValueError, match="has schema 0099_a_later_release, newer than this release knows"):
        restore(newer, sqlite_url(tmp_path / "r3.db"))
    assert not (tmp_path / "r1.db").exists() and not (tmp_path / "r3.db").exists()


def test_the_commands_say_what_they_copied_or_why_not_in_one_line(games: Path, tmp_path: Path) -> None:
    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "chickenfoot", "storage", *args], capture_output=True, text=True)

    made = command("backup", str(tmp_path / "b.db"), "--database-url", sqlite_url(games))
    assert made.returncode == 0 and made.stdout.startswith("backed up 1 tables, schema ")
    again = command("backup", str(tmp_path / "b.db"), "--database-url", sqlite_url(games))
    assert again.returncode == 1
    assert again.stderr == f"chickenfoot: error: {tmp_path / 'b.db'} exists already: name a new file\n"
    back = command("restore", str(tmp_path / "b.db"), "--database-url", sqlite_url(tmp_path / "new" / "games.db"))
    assert back.returncode == 0 and back.stdout.endswith(f"into {tmp_path / 'new' / 'games.db'}\n")

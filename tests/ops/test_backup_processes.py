"""A backup taken while scripted players play, restored into a new database, and the match played on
from exactly where the backup stopped: ``chickenfoot storage backup``/``restore`` for SQLite, and
``pg_dump``/``pg_restore`` for PostgreSQL, as docs/operators/backups.md gives them."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sys
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.storage import Storage
from chickenfoot.testing.clients import HonestPlayer, Measure, create_table
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.stores import libpq

BEFORE_BACKUP = 12
"""Versions every player has seen before the backup starts."""
AFTER_BACKUP = 15
"""Versions played on the first server after the backup, so the backup was taken with play going on."""

Copy = Callable[[str, str, Path], Awaitable[None]]
"""Backs up the database at the first URL into the file, and restores it into the second URL."""


async def run(*command: str, env: dict[str, str] | None = None) -> None:
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env
    )
    _, err = await process.communicate()
    assert process.returncode == 0, (command[:3], err.decode())


async def stored_actions(url: str, code: str) -> list[str]:
    storage = Storage(url, SystemClock())
    try:
        loaded = await storage.load_table(code)
    finally:
        await storage.close()
    assert loaded is not None
    return loaded[1]


async def first_version(base: str, path: str) -> int:
    async with connect(base.replace("http://", "ws://") + path) as ws:
        first = json.loads(await ws.recv())
    assert first["type"] == "state"
    return int(first["version"])


async def play_until(players: list[HonestPlayer], version: int) -> None:
    async with asyncio.timeout(120):
        await asyncio.gather(*(player.reached(version) for player in players))


async def scenario(source: str, target: str, backup_file: Path, copy: Copy, stack: ExitStack) -> None:
    """Play on ``source``, copy it while playing, play the rest of the match on ``target``."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = stack.enter_context(served(port, source, options=OPEN_LIMITS))
    # Ten rounds at a steady pace: the match is still being played when the copy is taken, however long
    # the backup command takes to start on a busy machine.
    body = {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}], "rounds": 10}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await create_table(http, body)
    rng, measure, stop = random.Random(5), Measure(), asyncio.Event()

    def seated(at: str) -> list[HonestPlayer]:
        return [
            HonestPlayer(at, path, seat, 0.03, random.Random(rng.random()), measure, seat == min(table.seats))
            for seat, path in table.seats.items()
        ]

    players = seated(base)
    playing = [asyncio.create_task(player.play(stop)) for player in players]
    await play_until(players, BEFORE_BACKUP)
    await copy(source, target, backup_file)
    await play_until(players, min(player.version for player in players) + AFTER_BACKUP)
    stop.set()
    await asyncio.gather(*playing)
    first.kill()
    first.wait()

    backed_up = await stored_actions(target, table.code)
    played_first = await stored_actions(source, table.code)
    assert BEFORE_BACKUP <= len(backed_up) < len(played_first)
    assert played_first[: len(backed_up)] == backed_up  # one instant of the game store: every action before it

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    stack.enter_context(served(port, target, options=OPEN_LIMITS))
    # The seats' credentials came back with the backup. The first socket wakes the table where the backup
    # stopped; a bot or forced move may follow at once, so the later seats see that version or a newer one.
    versions = [await first_version(base, path) for path in table.seats.values()]
    assert versions[0] == len(backed_up) and all(version >= len(backed_up) for version in versions), versions
    stop = asyncio.Event()
    players = seated(base)
    playing = [asyncio.create_task(player.play(stop)) for player in players]
    async with asyncio.timeout(300):
        await asyncio.gather(*playing)
    assert all(player.over() for player in players)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        assert (await http.get(f"/api/tables/{table.code}/record")).status_code == 200
    assert (await stored_actions(target, table.code))[: len(backed_up)] == backed_up


def test_an_sqlite_backup_taken_during_play_resumes_the_match_where_it_stopped(tmp_path: Path) -> None:
    async def copy(source: str, target: str, backup_file: Path) -> None:
        chickenfoot = [sys.executable, "-m", "chickenfoot", "storage"]
        await run(*chickenfoot, "backup", str(backup_file), "--database-url", source)
        await run(*chickenfoot, "restore", str(backup_file), "--database-url", target)

    (tmp_path / "live").mkdir()
    source = f"sqlite+aiosqlite:///{tmp_path / 'live' / 'games.db'}"
    target = f"sqlite+aiosqlite:///{tmp_path / 'fresh' / 'games.db'}"  # a directory that does not exist yet
    with ExitStack() as stack:
        asyncio.run(scenario(source, target, tmp_path / "games.backup", copy, stack))


def test_a_pg_dump_taken_during_play_restored_by_pg_restore_resumes_the_match(
    fresh_postgres: Callable[[], str], tmp_path: Path
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed; run scripts/test-services.sh")
    source, target = fresh_postgres(), fresh_postgres()

    async def copy(source: str, target: str, backup_file: Path) -> None:
        # The password from the environment (or ~/.pgpass), never on a command line others can read.
        env = {**os.environ, "PGPASSWORD": str(make_url(source).password)}
        without_password = [libpq(url, password=False) for url in (source, target)]
        await run("pg_dump", "--format=custom", f"--dbname={without_password[0]}", f"--file={backup_file}", env=env)
        await run("pg_restore", "--no-owner", f"--dbname={without_password[1]}", str(backup_file), env=env)

    with ExitStack() as stack:
        asyncio.run(scenario(source, target, tmp_path / "games.dump", copy, stack))

"""PostgreSQL stopped and started under a running server: clients are told, moves refused, then play resumes.

The test runs its own PostgreSQL cluster (initdb in a temporary directory, a free port), so stopping
it disturbs nobody; it is skipped, with the reason, where it cannot run one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import asyncpg
import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from chickenfoot.server.table.protocol import whole_log
from chickenfoot.testing.clients import create_table
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]  # real server processes


class Cluster:
    """A throwaway PostgreSQL cluster that the test may stop and start."""

    def __init__(self, bindir: Path, directory: Path, port: int, user: str | None) -> None:
        self.bindir, self.data, self.port, self.user = bindir, directory / "data", port, user
        self.log = directory / "postgres.log"

    def run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.user is not None:  # root may not run PostgreSQL: its own user does
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


def cannot(reason: str) -> NoReturn:
    """Skip, with the reason; on CI (which runs as root, with PostgreSQL installed) fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"the outage test must run on CI: {reason}")
    pytest.skip(reason)


def postgres_bindir() -> Path | None:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").is_file():
            return candidate
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    bindir = postgres_bindir()
    if bindir is None:
        cannot("no PostgreSQL server programs (initdb, pg_ctl) to run a cluster of the test's own")
    user = None
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres").pw_name
        except KeyError:
            cannot("running as root without a postgres user to run a cluster as")
    directory = Path(tempfile.mkdtemp(prefix="chickenfoot-pg-"))
    if user is not None:
        shutil.chown(directory, user)
    directory.chmod(0o755)
    cluster = Cluster(bindir, directory, free_port(), user)
    try:
        cluster.run("initdb", "-D", str(cluster.data), "-U", "chickenfoot", "--auth=trust", "--no-sync")
        cluster.start()
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(directory, ignore_errors=True)
        cannot(f"cannot run a PostgreSQL cluster of the test's own: {exc}")
    try:
        yield cluster
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)


class Client:
    """A WebSocket client that keeps every message it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.version = -1
        self.state: dict[str, Any] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "state":
                self.version, self.state = message["version"], whole_log(message["state"], self.state or None)
            await self.messages.put(message)

    async def until(self, kind: str, seconds: float = 20) -> dict[str, Any]:
        async with asyncio.timeout(seconds):
            while (message := await self.messages.get())["type"] != kind:
                pass
        return message


async def move(clients: dict[int, Client]) -> dict[str, Any]:
    """The seat to move plays its first legal move; returns the answer (a new state, or an error).

    A stale answer (the server made a forced draw or pass first) is tried again on the new state.
    """
    async with asyncio.timeout(20):
        while True:
            latest = max(clients.values(), key=lambda c: c.version)
            mover = clients[latest.state["to_move"]]
            while mover.version < latest.version:
                await mover.until("state")
            version, legal = mover.version, mover.state["legal"]
            # A forced draw or pass is sent too: the server would make it, but not while it cannot store it.
            await mover.ws.send(json.dumps({"type": "move", "move": legal[0], "version": version}))
            while True:
                message = await mover.messages.get()
                if message["type"] == "error" or (message["type"] == "state" and message["version"] > version):
                    break
            if message["type"] == "error" and message["message"].startswith("stale version"):
                continue
            return message


def test_postgres_restarted_under_the_server(cluster: Cluster) -> None:
    url = f"postgresql+asyncpg://chickenfoot@127.0.0.1:{cluster.port}/postgres"
    port = free_port()

    async def scenario() -> tuple[int, int, list[str]]:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base) as http:
            table = await create_table(http, {"seats": [{"kind": "human"}, {"kind": "human"}], "rounds": 1})
        async with (
            connect(base.replace("http", "ws") + table.seats[0]) as a,
            connect(base.replace("http", "ws") + table.seats[1]) as b,
        ):
            clients = {0: Client(a), 1: Client(b)}
            for client in clients.values():
                await client.until("state")
            for _ in range(3):
                answer = await move(clients)
                assert answer["type"] == "state", answer
            cluster.stop()
            notices = [(await client.until("service"))["storage"] for client in clients.values()]
            acknowledged = clients[0].version  # nothing can be stored from now on: the table stands still
            refused = await move(clients)
            assert refused["type"] == "error" and clients[0].version == acknowledged
            errors = [refused["message"]]
            async with httpx.AsyncClient(base_url=base) as http:
                lookup = await http.get("/api/tables/NOSUCH")
                errors.append(f"{lookup.status_code} {lookup.json()['detail']}")
            cluster.start()
            notices += [(await client.until("service"))["storage"] for client in clients.values()]
            assert notices == ["down", "down", "up", "up"]
            for _ in range(3):
                answer = await move(clients)
                assert answer["type"] == "state", answer
            final = clients[0].version
        conn = await asyncpg.connect(f"postgresql://chickenfoot@127.0.0.1:{cluster.port}/postgres")
        stored = await conn.fetchval("SELECT count(*) FROM actions WHERE table_code = $1", table.code)
        await conn.close()
        return final, stored, errors

    with served(port, url, options=OPEN_LIMITS):
        final, stored, errors = asyncio.run(scenario())
    assert stored >= final >= 6  # every acknowledged move is stored (a forced move may follow the last one)
    assert errors == [
        "moves are refused while the game store is unavailable; try again shortly",
        "503 the game store is unavailable; try again shortly",
    ]

"""``/healthz`` and ``/readyz``: alive, ready, and each way of not being ready."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.ops.health import FRESH_SECONDS, Readiness
from chickenfoot.server.storage import Storage
from chickenfoot.testing.launch import free_port
from scale.conftest import DEFAULT_REDIS_URL


def test_healthz_and_readyz_answer_any_host_without_credentials(make_client: Callable[..., TestClient]) -> None:
    client = make_client(allowed_hosts=("play.example.org",))
    assert client.get("/api/presets").status_code == 400  # any other request names the public host
    alive = client.get("/healthz")
    assert (alive.status_code, alive.json()) == (200, {"alive": True})
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "storage": "up", "schema": "head", "draining": False}
    assert ready.headers["cache-control"] == "no-store"
    assert client.post("/readyz").status_code == 405


def test_readyz_is_never_refused_by_the_rate_limits(make_client: Callable[..., TestClient]) -> None:
    strict = AddressLimits("1/minute", "1/minute", cutoff="1/minute", chat="1/minute", profiles="1/minute")
    client = make_client(addresses=strict)
    answers = {client.get(path).status_code for path in ("/readyz", "/healthz") * 50}
    assert answers == {200}


def test_a_draining_process_is_alive_but_not_ready(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    client.app.state.readiness.draining = True  # type: ignore[attr-defined]
    assert client.get("/healthz").status_code == 200
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["draining"] is True and answer.json()["ready"] is False


async def probe(readiness: Readiness) -> dict[str, object]:
    readiness.start()
    try:
        return (await readiness.findings()).json()
    finally:
        await readiness.close()


def test_an_unreachable_database_or_redis_is_not_ready(tmp_path: Path) -> None:
    nowhere = f"postgresql+asyncpg://chickenfoot:x@127.0.0.1:{free_port()}/chickenfoot"
    assert asyncio.run(probe(Readiness(nowhere, None))) == {
        "ready": False,
        "storage": "down",
        "schema": "unknown",
        "draining": False,
    }
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    asyncio.run(migrated(url))
    found = asyncio.run(probe(Readiness(url, f"redis://127.0.0.1:{free_port()}/0")))
    assert found == {"ready": False, "storage": "up", "redis": "down", "schema": "head", "draining": False}


def test_a_shared_redis_that_answers_is_ready(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    asyncio.run(migrated(url))
    redis_url = os.environ.get("CHICKENFOOT_TEST_REDIS_URL", DEFAULT_REDIS_URL)
    found = asyncio.run(probe(Readiness(url, redis_url)))
    if found["redis"] == "down" and not os.environ.get("CI"):
        pytest.skip("Redis is not available; run scripts/test-services.sh")
    assert found["ready"] is True and found["redis"] == "up"


async def migrated(url: str) -> None:
    storage = Storage(url, SystemClock())
    await storage.migrate()
    await storage.close()


def test_a_schema_behind_this_code_is_not_ready_and_one_ahead_is(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    url = f"sqlite+aiosqlite:///{path}"
    asyncio.run(migrated(url))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0012_ratings'")
    behind = asyncio.run(probe(Readiness(url, None)))
    assert (behind["schema"], behind["ready"]) == ("behind", False)
    with sqlite3.connect(path) as db:  # a newer release migrated it: a rolling upgrade runs old code beside it
        db.execute("UPDATE alembic_version SET version_num = '0099_a_later_release'")
    ahead = asyncio.run(probe(Readiness(url, None)))
    assert (ahead["schema"], ahead["ready"]) == ("ahead", True)


def test_a_flood_that_holds_every_connection_of_the_game_store_does_not_starve_the_probe(database_url: str) -> None:
    async def run() -> dict[str, object]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        pool = storage.engine.pool
        size = pool.size() + storage.engine.pool._max_overflow  # type: ignore[attr-defined]
        held = [await storage.engine.connect() for _ in range(size)]
        try:
            assert pool.checkedout() == size  # a read now would wait for one of them
            return await probe(Readiness(database_url, None))
        finally:
            for connection in held:
                await connection.close()
            await storage.close()

    assert asyncio.run(run())["storage"] == "up"


def test_one_probe_serves_every_request_of_a_second() -> None:
    clock = FakeClock()
    readiness = Readiness("sqlite+aiosqlite://", None, clock)
    probes = 0

    async def database() -> tuple[bool, str | None]:
        nonlocal probes
        probes += 1
        await asyncio.sleep(0)
        return True, readiness.head

    readiness._database = database  # type: ignore[method-assign]

    async def run() -> None:
        found = await asyncio.gather(*(readiness.findings() for _ in range(100)))
        assert all(f.ready for f in found) and probes == 1
        clock.advance(FRESH_SECONDS / 2)
        await readiness.findings()
        assert probes == 1
        clock.advance(FRESH_SECONDS / 2)
        await readiness.findings()
        assert probes == 2

    asyncio.run(run())

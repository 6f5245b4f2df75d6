"""Quick play across processes: 20 players join the queue through two server processes over one
PostgreSQL (and one Redis); every one is seated, none twice, two to a table, and each seat's
credential opens it on either process."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

from chickenfoot.server.quickplay.schema import queue
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import RedisDaemon

PLAYERS = 20
DEADLINE = 120.0
"""Seconds the whole run may take at most on a loaded machine (it takes a few)."""


@pytest.fixture
def two_servers(scale_database: str, redis_daemon: RedisDaemon) -> Iterator[list[str]]:
    """Two processes over a Redis of their own (what they keep there by account is by this database's ids)."""

    async def empty() -> None:  # the database outlives other runs: their waiting players are not ours
        engine = create_async_engine(scale_database)
        async with engine.begin() as conn:
            if await conn.run_sync(lambda sync: sa.inspect(sync).has_table("quick_play_queue")):
                await conn.execute(sa.delete(queue))
        await engine.dispose()

    asyncio.run(empty())
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for port in ports:
            stack.enter_context(
                served(port, scale_database, redis_url=redis_daemon.url, options=OPEN_LIMITS, timeout=60)
            )
        yield [f"http://127.0.0.1:{port}" for port in ports]


async def player(number: int, bases: list[str]) -> dict[str, Any]:
    """One browser: joins through one process, sends its heartbeats to both in turn until seated."""
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    try:
        joined = await clients[number % 2].post("/api/quickplay", json={"players": 2, "name": f"P{number}"})
        assert joined.status_code == 201, joined.text
        ticket, beats = joined.json()["ticket"], 0
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            beats += 1
            answer = await clients[(number + beats) % 2].post("/api/quickplay/beat", json={"ticket": ticket})
            assert answer.status_code == 200, answer.text
            heard = dict(answer.json())
            if heard["status"] == "seated":
                return heard | {"player": number, "via": (number + beats) % 2}
            await asyncio.sleep(0.05)  # a browser's heartbeat period, shortened: not a wait for an outcome
        raise AssertionError(f"player {number} was never seated")
    finally:
        for client in clients:
            await client.aclose()


async def opens(base: str, code: str, token: str) -> int:
    """The seat a credential opens at the table, through the server at ``base``."""
    async with connect(f"{base.replace('http', 'ws')}/ws/{code}?token={token}", open_timeout=30) as ws:
        state = json.loads(await ws.recv())
        return int(state["state"]["seat"])


def test_twenty_players_through_two_processes_are_paired_none_left_out_none_seated_twice(
    two_servers: list[str],
) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[int]]:
        seated = await asyncio.gather(*(player(n, two_servers) for n in range(PLAYERS)))
        # Each credential opens its seat, through the other process than the one that handed it out.
        opened = [await opens(two_servers[1 - s["via"]], s["code"], s["token"]) for s in seated]
        return seated, opened

    seated, opened = asyncio.run(scenario())
    assert sorted(s["player"] for s in seated) == list(range(PLAYERS))  # none left out
    seats = [(s["code"], s["seat"]) for s in seated]
    assert len(set(seats)) == PLAYERS  # none seated twice, no seat given twice
    tables: dict[str, list[int]] = {}
    for code, seat in seats:
        tables.setdefault(code, []).append(seat)
    assert sorted(sorted(s) for s in tables.values()) == [[0, 1]] * (PLAYERS // 2)
    assert opened == [s["seat"] for s in seated]

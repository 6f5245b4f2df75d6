"""A flooding bot beside honest tables: does a runaway token slow anyone else's game?

Starts ``chickenfoot serve`` (SQLite, loopback) and four honest bot accounts, each playing random legal
moves at a table of its own against a bot level, through the Bot API (table stream + move requests).
Their move latency (request to answer) is measured for ``--seconds`` alone, then as long again while
a fifth bot account floods the API from ``--flooders`` concurrent connections of another process
(moves and seat views, as fast as the answers come). Prints the honest tables' p50/p95/max and what
the flood was answered.

With ``--pin`` (Linux, two cores or more) the server and its children run on the first core and every
client on the others, the flood's at the lowest priority: neither client's own work takes the server's
core or delays the honest clients, so what moves the honest figures is the server's cost of answering
the flood.

With ``--proxy`` the clients reach the server through nginx with the deployment's site file
(deploy/nginx.conf.template), which limits the Bot API per token and per address at the edge; the flood
then comes from another loopback address (127.0.0.2), as a runaway bot on another machine would.

    python benchmarks/bot_flood.py            # about 50 s
    python benchmarks/bot_flood.py --seconds 15 --pin --proxy
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from multiprocessing import Process, Queue
from pathlib import Path
from typing import Any

import httpx
from attack import quantiles, server_core

from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.clock import SystemClock
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, proxied, served

TEMPLATE = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf.template"
FLOOD_ADDRESS = "127.0.0.2"
"""Where the flood comes from: behind nginx, another address than the honest bots' (nginx limits per address)."""

PASSWORD = "tile hub toe chicken"
STREAM = httpx.Timeout(10, read=None)


async def bot_account(server: str, database_url: str, name: str) -> str:
    """A new bot account's token."""
    async with httpx.AsyncClient() as anonymous:
        signed_up = await anonymous.post(f"{server}/api/account/signup", json={"username": name, "password": PASSWORD})
        signed_up.raise_for_status()
    token = await make_bot_account(database_url, name, mint=True, clock=SystemClock())
    assert isinstance(token, str)
    return token


def api(server: str, token: str, address: str | None = None) -> httpx.AsyncClient:
    """A bot's client; ``address``: the local address its connections come from."""
    transport = httpx.AsyncHTTPTransport(local_address=address) if address else None
    return httpx.AsyncClient(
        base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=30, transport=transport
    )


async def honest(client: httpx.AsyncClient, latencies: list[float], stop: asyncio.Event, seed: int) -> None:
    """Play random legal moves at a new table (a whole match) until ``stop``, timing each move's request."""
    rng = random.Random(seed)
    created = await client.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}], "rounds": 10})
    assert created.status_code == 201, created.text
    code = created.json()["table"]
    moved = -1
    async with client.stream("GET", f"/api/bot/tables/{code}/stream", timeout=STREAM) as response:
        async for line in response.aiter_lines():
            if stop.is_set():
                return
            if not line:
                continue
            message = json.loads(line)
            if message["type"] != "state":
                continue
            state, version = message["state"], message["version"]
            if state["status"] != "playing" or state["to_move"] != state["seat"] or state["forced"] is not None:
                continue
            if not state["legal"] or version <= moved:
                continue
            started = time.perf_counter()
            answer = await client.post(
                f"/api/bot/tables/{code}/move", json={"move": rng.choice(state["legal"]), "version": version}
            )
            latencies.append(time.perf_counter() - started)
            if answer.status_code == 200:
                moved = version


async def flood(
    server: str, token: str, code: str, seconds: float, connections: int, address: str | None
) -> Counter[str]:
    """Moves and seat views as fast as they are answered, ignoring every 429; the views' answers by refusal."""
    answers: Counter[str] = Counter()
    deadline = time.monotonic() + seconds

    async def hammer(client: httpx.AsyncClient) -> None:
        while time.monotonic() < deadline:
            await client.post(f"/api/bot/tables/{code}/move", json={"move": "draw", "version": 0})
            view = await client.get(f"/api/bot/tables/{code}")
            answers["answered" if view.status_code == 200 else f"{view.status_code} {view.json()['code']}"] += 1

    async with api(server, token, address) as client:
        await asyncio.gather(*(hammer(client) for _ in range(connections)))
    return answers


def flood_process(
    server: str,
    token: str,
    code: str,
    seconds: float,
    connections: int,
    out: Queue[Any],
    yielding: bool,
    address: str | None,
) -> None:
    """The flood in a process of its own: its client's work never delays the honest clients' measurement.

    ``yielding``: at the lowest priority, so that on the clients' shared core the honest clients run as
    soon as they have work (the flood still takes every cycle they leave).
    """
    if yielding:
        os.nice(19)
    out.put(dict(asyncio.run(flood(server, token, code, seconds, connections, address))))


def figures(latencies: list[float]) -> str:
    ms = quantiles([x * 1000 for x in latencies])
    return f"moves {ms['n']:5.0f}  p50 {ms['p50']:6.1f} ms  p95 {ms['p95']:6.1f} ms  max {ms['max']:6.1f} ms"


async def measure(
    server: str, database_url: str, seconds: float, flooders: int, pinned: bool, address: str | None
) -> None:
    players = [api(server, await bot_account(server, database_url, f"honest{i}")) for i in range(4)]
    flooder = await bot_account(server, database_url, "flooder")
    async with api(server, flooder) as client:
        flood_table = (await client.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}]})).json()["table"]
    for phase, flooding in (("alone", False), ("beside the flood", True)):
        latencies: list[float] = []
        stop = asyncio.Event()
        tasks = [asyncio.create_task(honest(p, latencies, stop, i)) for i, p in enumerate(players)]
        answers: Queue[Any] = Queue()
        arguments = (server, flooder, flood_table, seconds, flooders, answers, pinned, address)
        flood = Process(target=flood_process, args=arguments)
        if flooding:
            flood.start()
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise RuntimeError("a bot of the benchmark failed") from task.exception()
            task.cancel()
        print(f"honest tables {phase:17s}: {figures(latencies)}")
        if flooding:
            views = await asyncio.to_thread(answers.get, timeout=30)
            flood.join()
            rate = sum(views.values()) * 2 / seconds  # a move and a view per round trip
            print(f"flood: {rate:.0f} requests/s from {flooders} connections; views answered {views}")
    for player in players:
        await player.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--flooders", type=int, default=8, help="the flooding bot's concurrent connections")
    parser.add_argument("--pin", action="store_true", help="the server on the first core, the clients on the others")
    parser.add_argument("--proxy", action="store_true", help="through nginx with the deployment's site file")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        database_url = f"sqlite+aiosqlite:///{Path(folder) / 'games.db'}"
        backend = free_port()
        with server_core(arguments.pin):  # the server and its children on the first core; later ones not
            stack.enter_context(served(backend, database_url, options=OPEN_LIMITS))
        port, address = backend, None
        if arguments.proxy:
            port, address = free_port(), FLOOD_ADDRESS
            stack.enter_context(proxied(port, [backend], TEMPLATE))
        flooders, pinned = arguments.flooders, arguments.pin
        asyncio.run(measure(f"http://127.0.0.1:{port}", database_url, arguments.seconds, flooders, pinned, address))


if __name__ == "__main__":
    main()

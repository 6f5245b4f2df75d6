"""Load test of the browser game's server: N tables of 4 scripted WebSocket players on 127.0.0.1.

Starts ``chickenfoot serve`` (temporary SQLite file, automatic pauses off so the server makes the
forced draws and passes at once), opens 4 sockets per table, lets every player answer its turn
after a think time, and measures each move's round trip: from sending the move to receiving the
state with the new version. Stops by itself after ``--seconds``.

    python benchmarks/load.py --tables 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chickenfoot.server.launch import free_port, served


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    measuring: bool = False


async def play_seat(url: str, seat: int, think: float, stats: Stats, rng: random.Random, stop: asyncio.Event) -> None:
    """One scripted player: answer each of its turns after a think time; seat 0 deals new rounds."""
    async with connect(url, max_size=2**22, ping_interval=None) as ws:
        reader = asyncio.create_task(_read(ws, seat, think, stats, rng))
        await stop.wait()
        reader.cancel()


async def _read(ws: ClientConnection, seat: int, think: float, stats: Stats, rng: random.Random) -> None:
    sent_at: float | None = None
    sent_version = -1
    pending: asyncio.Task[None] | None = None
    async for text in ws:
        message = json.loads(text)
        stats.messages += 1
        if message["type"] == "error":
            if stats.measuring:
                stats.errors.append(message["message"])
            sent_at = None
            continue
        if message["type"] != "state":
            continue
        version, state = message["version"], message["state"]
        if sent_at is not None and version > sent_version:
            if stats.measuring:
                stats.round_trips.append(time.perf_counter() - sent_at)
            sent_at = None
        if pending is not None and not pending.done():
            continue
        legal = state["legal"]
        if state["status"] != "playing" or state["match_over"] is not None:
            continue
        if state["round_over"] is not None:
            if seat == 0 and version > sent_version:
                sent_version = version
                pending = asyncio.create_task(_send_later(ws, think, {"type": "next_round"}))
            continue
        forced = len(legal) == 1 and legal[0] in ("draw", "pass")
        if state["to_move"] != seat or not legal or forced or version <= sent_version:
            continue

        async def move(v: int = version, choice: str = rng.choice(legal)) -> None:
            nonlocal sent_at
            await asyncio.sleep(think * (0.5 + rng.random()))
            sent_at = time.perf_counter()
            with suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "move", "move": choice, "version": v}))

        sent_version = version
        pending = asyncio.create_task(move())


async def _send_later(ws: ClientConnection, delay: float, message: dict[str, Any]) -> None:
    await asyncio.sleep(delay)
    with suppress(ConnectionClosed):
        await ws.send(json.dumps(message))


def cpu_seconds(pid: int | None) -> float:
    """CPU time used so far by process ``pid`` (user + system; 0 when unknown)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    base: str, tables: int, seconds: float, warmup: float, think: float, seed: int, server_pid: int | None = None
) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(seed)
    seats = [{"kind": "human"} for _ in range(4)]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = [(await http.post("/api/tables", json={"seats": seats})).json() for _ in range(tables)]
        for table in created:  # every player's own credential: the creator's, and each friend's claimed invite
            for s in table["seats"]:
                if s["seat"] == table["seat"]:
                    s["token"] = table["token"]
                else:
                    claim = {"invite": s["invite"].split("?invite=")[1]}
                    s["token"] = (await http.post(f"/api/tables/{table['code']}/claim", json=claim)).json()["token"]
    ws_base = base.replace("http://", "ws://")
    players = []
    for table in created:
        for s in table["seats"]:
            url = f"{ws_base}/ws/{table['code']}?token={s['token']}"
            players.append(
                asyncio.create_task(play_seat(url, s["seat"], think, stats, random.Random(rng.random()), stop))
            )
            await asyncio.sleep(0.002)  # a gentle connection ramp
    await asyncio.sleep(warmup)
    stats.measuring = True
    started, server_cpu, own_cpu = time.perf_counter(), cpu_seconds(server_pid), time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    server_cpu, own_cpu = cpu_seconds(server_pid) - server_cpu, time.process_time() - own_cpu
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    trips = sorted(stats.round_trips)
    if not trips:
        raise SystemExit("no move was measured")
    return {
        "tables": tables,
        "sockets": 4 * tables,
        "seconds": round(elapsed, 1),
        "moves": len(trips),
        "moves_per_second": round(len(trips) / elapsed, 1),
        "p50_ms": round(1000 * trips[len(trips) // 2], 1),
        "p90_ms": round(1000 * trips[int(len(trips) * 0.9)], 1),
        "p99_ms": round(1000 * trips[int(len(trips) * 0.99)], 1),
        "max_ms": round(1000 * trips[-1], 1),
        "mean_ms": round(1000 * statistics.fmean(trips), 1),
        "errors": len(stats.errors),
        "messages": stats.messages,
        "server_cpu_percent": round(100 * server_cpu / elapsed) if server_pid else None,
        "clients_cpu_percent": round(100 * own_cpu / elapsed),
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (4 sockets each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="an already running server (default: start one)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("--tables must be 1..2000 and --seconds 0..600")
    # The same collector settings as the server: a full collection in this process would show up
    # as a slow round trip that the server did not cause.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    if args.url:
        print(json.dumps(asyncio.run(run(args.url, args.tables, args.seconds, args.warmup, args.think, args.seed))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        with served(port, f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}") as server:
            base = f"http://127.0.0.1:{port}"
            result = asyncio.run(run(base, args.tables, args.seconds, args.warmup, args.think, args.seed, server.pid))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

"""Load test of the browser game's server: N tables of 4 scripted WebSocket players on 127.0.0.1.

Starts ``chickenfoot serve`` (a temporary SQLite file unless ``--database-url``, automatic pauses
off so the server makes the forced draws and passes at once), opens 4 sockets per table, lets every
player answer its turn after a think time, and measures each move's round trip: from sending the
move to receiving the state with the new version. Stops by itself.

Hostile clients (``--flooders``, ``--non-readers``, ``--storms``) join after a first measuring
period; the honest players' round trips are then measured again, beside them. With
``--addresses`` every table's players and every hostile client connect from an address of their
own (127.x.y.z), so the server's default limits per address apply as they would on a network. ``--chaos`` instead
SIGKILLs the server halfway, restarts it on the same port and database, lets every client
reconnect with ``since`` and play its match to the end, then checks every move a client saw
acknowledged against the stored match records.

``--processes N`` starts N servers over one PostgreSQL database (``--database-url``) and one Redis
(``--redis-url``) with nginx in front (deploy/nginx.conf.template); the players connect through
nginx, and afterwards every table is read back from every process and compared (``diverged``:
tables on which two processes disagree). nginx routes each table's sockets to one process, as the
template does; ``--round-robin`` spreads them over every process instead, to measure what that
routing saves. The CPU used by each part (the servers, PostgreSQL,
Redis, nginx, this load generator) is reported as percent of one core, and the pauses of the
garbage collections in the servers and in the load generator while measuring (``collector_pauses``).
``client_lag_ms`` is how late this process's event loop woke from 10 ms sleeps while measuring:
the part of a round trip that is the load generator's own wait for its loop and for a core.

    python benchmarks/load.py --tables 200 --seconds 60
    python benchmarks/load.py --processes 2 --tables 400 --seconds 30 --database-url postgresql+asyncpg://… --redis-url redis://…
    python benchmarks/load.py --tables 150 --seconds 30 --flooders 20 --non-readers 20 --storms 20
    python benchmarks/load.py --tables 100 --chaos --rounds 1
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

import httpx
import redis.asyncio as redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from chickenfoot.server import collector
from chickenfoot.server.cluster.bus import PREFIX
from chickenfoot.server.cluster.fanout import table_channel
from chickenfoot.testing.clients import (
    Attack,
    HonestPlayer,
    Measure,
    crash_and_resume,
    create_table,
    flood,
    honest_players,
    loopback,
    never_read,
    reconnect_storm,
)
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, proxied, served

TEMPLATE = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf.template"
TABLE_ROUTING = "    hash $uri consistent;\n"
"""The template's line that sends all sockets of one table to one process."""
SERVICES = ("postgres", "redis-server", "nginx")
T = TypeVar("T")
CONNECT_SECONDS = 120.0
"""How long the players may take to connect before the warm-up starts anyway."""
"""Programs whose CPU use is reported besides the servers' (every process of each, on this machine)."""


def cpu_seconds(pid: int | None) -> float:
    """CPU time used so far by process ``pid`` (user + system; 0 when unknown)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def program_pids(name: str) -> list[int]:
    """Every process of the program ``name`` on this machine."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def rss_mib(pid: int | None) -> float | None:
    """Resident memory of process ``pid`` in MiB."""
    if pid is None:
        return None
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except OSError:
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def summary(trips: list[float], elapsed: float) -> dict[str, Any]:
    trips = sorted(trips)
    if not trips:
        return {"moves": 0}
    return {
        "moves": len(trips),
        "moves_per_second": round(len(trips) / elapsed, 1),
        "p50_ms": round(1000 * trips[len(trips) // 2], 1),
        "p90_ms": round(1000 * trips[int(len(trips) * 0.9)], 1),
        "p99_ms": round(1000 * trips[int(len(trips) * 0.99)], 1),
        "max_ms": round(1000 * trips[-1], 1),
        "mean_ms": round(1000 * statistics.fmean(trips), 1),
    }


async def loop_lag(seconds: float, tick: float = 0.01) -> dict[str, float]:
    """How late this process's event loop wakes from ``tick``-second sleeps over ``seconds`` (ms)."""
    lags: list[float] = []
    end = time.perf_counter() + seconds  # the loop's own clock counts whole milliseconds under uvloop
    while (before := time.perf_counter()) < end:
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - before - tick)
    lags.sort()
    return {
        "p50": round(1000 * lags[len(lags) // 2], 1),
        "p99": round(1000 * lags[int(len(lags) * 0.99)], 1),
        "max": round(1000 * lags[-1], 1),
    }


async def measured(measure: Measure, seconds: float, pids: list[int], gc_logs: Sequence[Path]) -> dict[str, Any]:
    """The honest players' figures over the next ``seconds`` (``pids``: the servers'; ``gc_logs``:
    where the servers' collections and this process's are logged, the load generator's last)."""
    measure.round_trips.clear()
    measure.errors.clear()
    measure.measuring = True
    parts = {"servers": list(pids)} | ({name: program_pids(name) for name in SERVICES} if pids else {})

    def used() -> dict[int, float]:
        return {pid: cpu_seconds(pid) for found in parts.values() for pid in found}

    def percent(found: list[int]) -> int:
        # A process that ended meanwhile (a database backend) reads as 0 after: it counts for nothing.
        return round(100 * sum(max(0.0, after[pid] - before[pid]) for pid in found) / elapsed)

    # This process does not collect while it measures: its pauses (tens of milliseconds with 1,600
    # sockets open) would count as the servers' round trips. Its cyclic garbage waits for the end.
    gc.disable()
    started, before, own_cpu, since = time.perf_counter(), used(), time.process_time(), time.time()
    lag = await loop_lag(seconds)
    until = time.time()
    gc.enable()
    measure.measuring = False
    elapsed = time.perf_counter() - started
    after = used()
    figures = summary(measure.round_trips, elapsed)
    figures |= {
        "errors": len(measure.errors),
        "error_kinds": dict(Counter(re.sub(r"\d+", "N", error) for error in measure.errors).most_common(3)),
        "server_cpu_percent": percent(parts["servers"]) if pids else None,
        "each_server_cpu_percent": [percent([pid]) for pid in pids] if len(pids) > 1 else None,
        "clients_cpu_percent": round(100 * (time.process_time() - own_cpu) / elapsed),
        "client_lag_ms": lag,
        "server_rss_mib": [rss_mib(pid) for pid in pids] if len(pids) > 1 else rss_mib(pids[0] if pids else None),
        "load_average": os.getloadavg()[0],
    }
    if pids:
        figures["services_cpu_percent"] = {name: percent(parts[name]) for name in SERVICES}
    if gc_logs:
        figures["collector_pauses"] = {
            "servers": collector.pauses(gc_logs[:-1], since, until),
            "load_generator": collector.pauses(gc_logs[-1:], since, until),
        }
    return figures


async def connecting(players: list[HonestPlayer], started: float) -> dict[str, Any]:
    """Wait (at most ``CONNECT_SECONDS``) until every player has its first state: how long it took,
    how many were still without one, and how many connections were tried again meanwhile."""
    deadline = started + CONNECT_SECONDS
    while any(not player.state for player in players) and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    return {
        "seconds": round(time.perf_counter() - started, 1),
        "unconnected": sum(not player.state for player in players),
        "retried": sum(player.reconnects for player in players),
    }


def hostile(base: str, codes: list[str], args: argparse.Namespace, seconds: float) -> dict[str, Any]:
    """Run the hostile clients for ``seconds`` (in a process of their own); what the server did to them.

    Flooders and non-readers come back whenever the server cuts them off; each storm is a
    spectator connecting and leaving 5 times a second.
    """
    # Attackers are elsewhere in real life: here they share the cores, so they yield them first.
    os.nice(19)
    ws = base.replace("http://", "ws://")
    rng = random.Random(args.seed + 1)
    attack = {"flooders": Attack(), "non_readers": Attack(), "storms": Attack()}

    sources = (loopback(2, n) if args.addresses else None for n in range(10_000))

    async def again(kind: str, make: Any, stop: asyncio.Event, source: str | None) -> None:
        while not stop.is_set():
            await make(f"{ws}/ws/{rng.choice(codes)}", attack[kind], stop, source)
            await asyncio.sleep(0.5)

    async def attack_for_a_while() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(again("flooders", flood, stop, next(sources))) for _ in range(args.flooders)]
        tasks += [
            asyncio.create_task(again("non_readers", never_read, stop, next(sources))) for _ in range(args.non_readers)
        ]
        tasks += [
            asyncio.create_task(
                reconnect_storm(f"{ws}/ws/{rng.choice(codes)}", attack["storms"], stop, 5.0, next(sources))
            )
            for _ in range(args.storms)
        ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(attack_for_a_while())
    return {
        kind: {
            "connections": a.connections,
            "refused": a.refused,
            "cut_off": len(a.closes),
            "close_codes": sorted({code or 0 for code, _ in a.closes}),
            "final_errors": sorted({error for _, error in a.closes}),
        }
        for kind, a in attack.items()
        if a.connections
    }


async def run(base: str, args: argparse.Namespace, server_pids: Sequence[int] = ()) -> dict[str, Any]:
    measure, stop, rng = Measure(measuring=False), asyncio.Event(), random.Random(args.seed)
    body: dict[str, Any] = {"seats": [{"kind": "human"} for _ in range(4)], "rounds": args.rounds}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = [
            await create_table(http, body, loopback(1, n) if args.addresses else None) for n in range(args.tables)
        ]
    players = honest_players(base, tables, args.think, rng, measure)
    tasks, started = [], time.perf_counter()
    for player in players:
        tasks.append(asyncio.create_task(player.play(stop)))
        await asyncio.sleep(0.002)  # a gentle connection ramp
    result: dict[str, Any] = {"tables": args.tables, "sockets": 4 * args.tables}
    result["connecting"] = await connecting(players, started)
    await asyncio.sleep(args.warmup)
    result["honest"] = await measured(measure, args.seconds, list(server_pids), args.gc_logs)
    if args.backends:
        result["tables_held"] = await tables_held([table.code for table in tables], args.redis_url)
    if args.flooders or args.non_readers or args.storms:
        # Their own process: the hostile clients' work must not slow the honest ones' measurement here.
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            codes = [table.code for table in tables]
            attacked = asyncio.get_running_loop().run_in_executor(pool, hostile, base, codes, args, args.seconds + 4)
            await asyncio.sleep(2)  # let them get going
            result["with_hostile"] = await measured(measure, args.seconds, list(server_pids), args.gc_logs)
            result["hostile"] = await attacked
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    if args.backends:
        result["diverged"] = await diverged([table.code for table in tables], args.backends)
    return result


async def tables_held(codes: list[str], redis_url: str) -> dict[int, int]:
    """How many of the tables are held by 0, 1, 2… processes (each holder subscribes to the table)."""
    async with redis.Redis.from_url(redis_url) as client:
        channels = [PREFIX + table_channel(code) for code in codes]
        counts = await client.pubsub_numsub(*channels)
    return dict(sorted(Counter(int(count) for _channel, count in counts).items()))


async def diverged(codes: list[str], backends: Sequence[str]) -> dict[str, int]:
    """Tables on which the processes disagree (``diverged``), and those a process did not show within
    30 s (``unread``): each is read by a spectator at every process, again (a process may still be
    catching up) until they agree or a few seconds have passed."""
    await asyncio.sleep(1.0)  # the last automatic moves
    limit = asyncio.Semaphore(50)

    async def seen(code: str, base: str) -> tuple[int, list[str]]:
        url = f"{base.replace('http://', 'ws://')}/ws/{code}"
        async with limit, asyncio.timeout(30), connect(url, max_size=2**22, open_timeout=30) as ws:
            message = json.loads(await ws.recv())
            return message["version"], [entry["move"] for entry in message["state"]["log"]]

    async def verdict(code: str) -> str:
        for _ in range(10):
            try:
                views = await asyncio.gather(*(seen(code, base) for base in backends))
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
                return "unread"
            if all(view == views[0] for view in views):
                return "agree"
            await asyncio.sleep(0.5)
        return "diverged"

    tasks = [asyncio.create_task(verdict(code)) for code in codes]
    done, late = await asyncio.wait(tasks, timeout=120)  # a bounded check: what is not read by then is unread
    for task in late:
        task.cancel()
    verdicts = [task.result() for task in done] + ["unread"] * len(late)
    return {kind: verdicts.count(kind) for kind in ("diverged", "unread")}


def drive(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on uvloop, as uvicorn runs the server, when it is installed: the load
    generator shares the cores with the servers, and its own overhead is CPU they do not get."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def nginx_template(directory: Path, round_robin: bool) -> Path:
    """deploy/nginx.conf.template, or a copy in ``directory`` whose table sockets go round robin."""
    if not round_robin:
        return TEMPLATE
    text = TEMPLATE.read_text()
    if TABLE_ROUTING not in text:
        raise SystemExit(f"{TEMPLATE.name} no longer routes by table with {TABLE_ROUTING.strip()!r}")
    copy = directory / "round-robin.conf.template"
    copy.write_text(text.replace(TABLE_ROUTING, ""))
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (4 sockets each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring time (each period)")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before measuring, once every player is connected"
    )
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes per move")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per match (default: full matches)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flooders", type=int, default=0, help="clients sending messages as fast as they can")
    parser.add_argument("--non-readers", type=int, default=0, help="clients that never read what they are sent")
    parser.add_argument("--storms", type=int, default=0, help="spectators connecting and leaving 5 times a second")
    parser.add_argument(
        "--addresses",
        action="store_true",
        help="each table and each hostile client from its own loopback address, the server's limits per address on",
    )
    parser.add_argument("--chaos", action="store_true", help="SIGKILL and restart the server halfway; check storage")
    parser.add_argument("--database-url", help="the server's database (default: a temporary SQLite file)")
    parser.add_argument("--processes", type=int, default=0, help="server processes behind nginx (default: one, direct)")
    parser.add_argument(
        "--round-robin", action="store_true", help="with --processes: spread each table's sockets over the processes"
    )
    parser.add_argument("--redis-url", help="the Redis shared by the processes (needed with --processes over 1)")
    parser.add_argument("--url", help="an already running server (default: start one)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("--tables must be 1..2000 and --seconds 0..600")
    if args.processes > 1 and not (args.redis_url and (args.database_url or "").startswith("postgresql")):
        parser.error("several processes need --database-url postgresql+asyncpg://… and --redis-url redis://…")
    args.backends, args.gc_logs = [], []
    # The same collector settings as the server: a long collection in this process would show up
    # as a slow round trip that the server did not cause.
    collector.tune()
    if args.url:
        print(json.dumps(drive(run(args.url, args))))
        return
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        database_url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}"
        port = free_port()
        # Each server's collections are logged, then this process's.
        args.gc_logs = [Path(tmp) / f"gc-{n}.log" for n in range(max(args.processes, 1) + 1)]
        stack.callback(collector.log_pauses(stack.enter_context(args.gc_logs[-1].open("w", buffering=1))))
        if args.processes:
            ports = [free_port() for _ in range(args.processes)]
            # nginx in front: the servers believe its X-Forwarded-For, so --addresses counts each client's own.
            options = [*(() if args.addresses else OPEN_LIMITS), "--forwarded-allow-ips", "127.0.0.1"]
            servers = [
                stack.enter_context(
                    served(p, database_url, redis_url=args.redis_url, options=[*options, "--gc-log", str(log)])
                )
                for p, log in zip(ports, args.gc_logs[:-1], strict=True)
            ]
            stack.enter_context(proxied(port, ports, nginx_template(Path(tmp), args.round_robin)))
            args.backends = [f"http://127.0.0.1:{p}" for p in ports] if args.processes > 1 else []
            result = drive(run(f"http://127.0.0.1:{port}", args, [server.pid for server in servers]))
            result["routing"] = "round robin" if args.round_robin else "by table"
        elif args.chaos:
            result = drive(
                crash_and_resume(
                    database_url, port, stack, args.tables, args.rounds, args.think, args.seconds, args.seed
                )
            )
        else:
            options = [*(() if args.addresses else OPEN_LIMITS), "--gc-log", str(args.gc_logs[0])]
            server = stack.enter_context(served(port, database_url, options=options))
            result = drive(run(f"http://127.0.0.1:{port}", args, [server.pid]))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

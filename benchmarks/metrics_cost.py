"""What the Prometheus metrics cost a server at load: CPU per scrape, and honest players' move round
trips with and without a scrape every second, side by side in one run.

Starts ``chickenfoot serve --metrics-port`` on a temporary SQLite file (automatic pauses off), seats
``--tables`` tables of 4 scripted honest players (``chickenfoot.testing``, a move after a think time),
and after a warm-up alternates windows of ``--window`` seconds: one quiet, one scraped once a second,
``--windows`` of each, so a drift of the machine's load falls on both alike. The round trips of
each kind of window are pooled. Then ``--scrapes`` scrapes in ``--bursts`` bursts back to back, each
burst beside an equally long quiet stretch: the CPU of one scrape as the server counts it (its event
loop's thread writing the scrape: ``chickenfoot_metrics_scrape_cpu_seconds``), and as the server
process's extra CPU in the bursts (the HTTP exchange too, but also the play's ups and downs).

    python benchmarks/metrics_cost.py --tables 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import cpu_seconds, drive, summary
from prometheus_client.parser import text_string_to_metric_families

from chickenfoot.testing.clients import HonestPlayer, Measure, create_table, honest_players
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served


async def window(measure: Measure, seconds: float, pid: int, scrape: httpx.AsyncClient | None) -> dict[str, Any]:
    """``seconds`` of play, scraped once a second when ``scrape`` is given: the round trips and server CPU."""
    first, cpu, started = len(measure.round_trips), cpu_seconds(pid), time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        if scrape is not None:
            (await scrape.get("/metrics")).raise_for_status()
        await asyncio.sleep(min(1.0, seconds - elapsed))
    elapsed = time.perf_counter() - started
    return {"trips": measure.round_trips[first:], "cpu": cpu_seconds(pid) - cpu, "seconds": elapsed}


def scrape_cpu(text: str) -> tuple[float, float]:
    """The server's own account of its scrapes so far: CPU seconds of its event loop's thread, and scrapes."""
    found = {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name.startswith("chickenfoot_metrics_scrape_cpu_seconds")
    }
    return found["chickenfoot_metrics_scrape_cpu_seconds_sum"], found["chickenfoot_metrics_scrape_cpu_seconds_count"]


async def scrape_cost(scrape: httpx.AsyncClient, pid: int, count: int, bursts: int) -> dict[str, Any]:
    """``count`` scrapes in ``bursts`` bursts back to back, each beside an equally long quiet stretch.

    The CPU of a scrape twice: as the server counts it (its event loop's thread, writing the scrape),
    and as the server process's extra CPU in the bursts over the quiet stretches (which includes
    the HTTP exchange, but also the play's ups and downs: on a busy machine a rough figure).
    """
    walls, sizes, busy_cpu, quiet_cpu = [], [], 0.0, 0.0
    cpu_before, scrapes_before = scrape_cpu((await scrape.get("/metrics")).text)
    for _ in range(bursts):
        cpu, started = cpu_seconds(pid), time.perf_counter()
        for _ in range(count // bursts):
            before = time.perf_counter()
            answer = await scrape.get("/metrics")
            walls.append(time.perf_counter() - before)
            sizes.append(len(answer.content))
        busy_cpu += cpu_seconds(pid) - cpu
        cpu = cpu_seconds(pid)
        await asyncio.sleep(time.perf_counter() - started)
        quiet_cpu += cpu_seconds(pid) - cpu
    cpu_after, scrapes_after = scrape_cpu((await scrape.get("/metrics")).text)
    walls.sort()
    return {
        "scrapes": len(walls),
        "loop_cpu_ms_per_scrape": round(1000 * (cpu_after - cpu_before) / (scrapes_after - scrapes_before), 3),
        "process_cpu_ms_per_scrape": round(1000 * (busy_cpu - quiet_cpu) / len(walls), 2),
        "wall_ms_p50": round(1000 * walls[len(walls) // 2], 2),
        "wall_ms_p99": round(1000 * walls[int(len(walls) * 0.99)], 2),
        "bytes": round(statistics.fmean(sizes)),
        "series": sum(1 for line in answer.text.splitlines() if line and not line.startswith("#")),
    }


async def run(args: argparse.Namespace, base: str, metrics: str, pid: int) -> dict[str, Any]:
    rng, measure, stop = random.Random(args.seed), Measure(), asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        body = {"seats": [{"kind": "human"}] * 4}
        tables = [await create_table(http, body) for _ in range(args.tables)]
    players: list[HonestPlayer] = honest_players(base, tables, args.think, rng, measure)
    playing = [asyncio.create_task(player.play(stop)) for player in players]
    await asyncio.sleep(args.warmup)
    kinds: dict[str, list[dict[str, Any]]] = {"quiet": [], "scraped": []}
    async with httpx.AsyncClient(base_url=metrics, timeout=30) as scrape:
        for _ in range(args.windows):
            kinds["quiet"].append(await window(measure, args.window, pid, None))
            kinds["scraped"].append(await window(measure, args.window, pid, scrape))
        cost = await scrape_cost(scrape, pid, args.scrapes, args.bursts)
    stop.set()
    await asyncio.gather(*playing, return_exceptions=True)
    figures: dict[str, Any] = {}
    for kind, windows in kinds.items():
        seconds = sum(w["seconds"] for w in windows)
        figures[kind] = summary([trip for w in windows for trip in w["trips"]], seconds) | {
            "server_cpu_percent": round(100 * sum(w["cpu"] for w in windows) / seconds, 1)
        }
    return {
        "command": "python benchmarks/metrics_cost.py " + " ".join(ran_with(args)),
        "tables": args.tables,
        "sockets": 4 * args.tables,
        "think_seconds": args.think,
        "round_trips": figures,
        "scrape": cost,
        "errors": len(measure.errors),
        "load_average": os.getloadavg()[0],
        "cpus": os.cpu_count(),
    }


def ran_with(args: argparse.Namespace) -> list[str]:
    """The options that decide the figures (not where they are written)."""
    return [f"--{name}={value}" for name, value in vars(args).items() if name != "out"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0, help="Seconds a player thinks before a move (mean).")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--window", type=float, default=5.0, help="Seconds of each quiet or scraped window.")
    parser.add_argument("--windows", type=int, default=8, help="Windows of each kind, alternating.")
    parser.add_argument("--scrapes", type=int, default=400, help="Back-to-back scrapes for the CPU per scrape.")
    parser.add_argument("--bursts", type=int, default=20, help="Bursts the back-to-back scrapes come in.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="Also write the figures (JSON) here.")
    args = parser.parse_args()
    port, metrics_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as directory:
        database = f"sqlite+aiosqlite:///{Path(directory) / 'games.db'}"
        options = [*OPEN_LIMITS, "--metrics-port", str(metrics_port)]
        with served(port, database, options=options) as server:
            figures = drive(run(args, f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}", server.pid))
    text = json.dumps(figures, indent=1)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()

"""What the attack benchmarks share: a served server to attack, an honest player's pings, how a
series of times is summed up, the attackers' source addresses, and the machine's limits and cores.

Each attack starts one ``chickenfoot serve`` (SQLite in a temporary directory), measures honest play
quiet and under attack, and prints both; ``--source`` serves another checkout's server to the same
client, for a before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from websockets.asyncio.client import connect

from chickenfoot.testing.launch import free_port, served

T = TypeVar("T")
PING_SECONDS = 0.2
"""A person's pace: five pings a second."""


CORES = sorted(os.sched_getaffinity(0))
"""The cores this benchmark may use, as it started."""


def add_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", type=Path, help="serve this source tree's chickenfoot (PYTHONPATH)")


@contextmanager
def python_path(source: Path | None) -> Iterator[None]:
    """Processes started within import ``chickenfoot`` from ``source`` (a checkout's ``src``), if given."""
    before = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = str(source.resolve())
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before


@contextmanager
def server_core(pinned: bool) -> Iterator[None]:
    """With ``pinned``, processes started within run on the first core, and from then on this process (and
    what it starts later: clients, nginx) on the others, so that no client's work takes the server's core."""
    if pinned and len(CORES) < 2:
        raise RuntimeError("pinning needs two cores or more")
    if pinned:
        os.sched_setaffinity(0, CORES[:1])
    try:
        yield
    finally:
        if pinned:
            os.sched_setaffinity(0, CORES[1:])


def raise_open_files() -> int:
    """Raise this process's open-file limit to its hard limit (the servers and clients it starts inherit
    it: thousands of sockets are as many files); returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return max(soft, hard)


def attacker_addresses(count: int, skip: int = 0) -> list[str]:
    """``count`` source addresses from 127.0.0.2 on (after the first ``skip``), each standing for another
    machine: all of 127.0.0.0/8 reaches this one, and each address has its own ephemeral ports."""
    first = 2 + skip
    if count < 1 or first + count - 1 > 254:
        raise ValueError(f"127.0.0.{first} and the {count - 1} after it are not all in 127.0.0.2-254")
    return [f"127.0.0.{n}" for n in range(first, first + count)]


def attack(
    args: argparse.Namespace,
    options: Sequence[str],
    scenario: Callable[[str, argparse.Namespace], Coroutine[object, object, T]],
    pace: float = 0.0,
) -> T:
    """``scenario(base URL, args)`` against a server started with ``options`` (from ``args.source`` if
    given), its database in a temporary directory that is gone afterwards."""
    with tempfile.TemporaryDirectory() as directory, python_path(args.source):
        port = free_port()
        with served(port, f"sqlite+aiosqlite:///{directory}/games.db", pace=pace, options=list(options), timeout=60):
            return asyncio.run(scenario(f"http://127.0.0.1:{port}", args))


async def pings(url: str, stop: asyncio.Event, count: int = sys.maxsize) -> list[float]:
    """Round trips (ms) of pings over the websocket ``url`` at a person's pace, until ``stop`` or
    ``count`` pings (other messages are passed over)."""
    times: list[float] = []
    async with connect(url, ping_interval=None, max_size=2**22) as ws:
        while not stop.is_set() and len(times) < count:
            sent = time.perf_counter()
            await ws.send('{"type": "ping"}')
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            times.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(PING_SECONDS)  # the pace of a person, not a wait for something
    return times


def quantiles(values: Sequence[float], digits: int = 1) -> dict[str, float]:
    """``n``, ``p50``, ``p95`` and ``max`` of ``values`` (empty: ``n`` 0 alone)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), digits),
        "p95": round(p95, digits),
        "max": round(ordered[-1], digits),
    }


def summary(values: list[float], unit: str, digits: int = 2) -> str:
    """``p50 …, max … (count)``."""
    return f"p50 {statistics.median(values):.{digits}f} {unit}, max {max(values):.{digits}f} {unit} ({len(values)})"

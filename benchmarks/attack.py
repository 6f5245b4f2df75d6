"""What the attack benchmarks share: a served server to attack, an honest player's pings, and how a
series of times is printed.

Each attack starts one ``chickenfoot serve`` (SQLite in a temporary directory), measures honest play
quiet and under attack, and prints both; ``--source`` serves another checkout's server to the same
client, for a before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TypeVar

from websockets.asyncio.client import connect

from chickenfoot.testing.launch import free_port, served

T = TypeVar("T")
PING_SECONDS = 0.2
"""A person's pace: five pings a second."""


def add_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", type=Path, help="serve this source tree's chickenfoot (PYTHONPATH)")


def attack(
    args: argparse.Namespace,
    options: Sequence[str],
    scenario: Callable[[str, argparse.Namespace], Coroutine[object, object, T]],
    pace: float = 0.0,
) -> T:
    """``scenario(base URL, args)`` against a server started with ``options`` (from ``args.source`` if
    given), its database in a temporary directory that is gone afterwards."""
    if args.source is not None:
        os.environ["PYTHONPATH"] = str(args.source.resolve())
    with tempfile.TemporaryDirectory() as directory:
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


def summary(values: list[float], unit: str, digits: int = 2) -> str:
    """``p50 …, max … (count)``."""
    return f"p50 {statistics.median(values):.{digits}f} {unit}, max {max(values):.{digits}f} {unit} ({len(values)})"

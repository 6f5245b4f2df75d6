"""A rolling restart, as an operator upgrades a fleet: each of the three processes stopped by SIGTERM
and started again, one at a time, while scripted players play at tables with bots through nginx.

What must hold: every move acknowledged to a player is the stored one (nothing acknowledged is lost),
each process exits within its bound, every match plays on to its end, and no player waits longer
than a reconnect. ``CHICKENFOOT_ROLL_TABLES`` sets the load and ``CHICKENFOOT_ROLL_ROUNDS`` the length of
each match (docs/operators/upgrades.md measures 100 tables of six rounds); ``CHICKENFOOT_ROLL_RESULTS``
names a JSON file the figures are written to.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from chickenfoot.testing.waiting import until

from .conftest import Fleet
from .players import Recorder
from .test_processes import BOT, HUMAN, new_table, record_of

pytestmark = pytest.mark.timeout(600, func_only=True)

TABLES = int(os.environ.get("CHICKENFOOT_ROLL_TABLES", "12"))
THINK = 0.6
"""A player's longest thought (seconds)."""
ROUNDS = int(os.environ.get("CHICKENFOOT_ROLL_ROUNDS", "2"))
"""A round lasts half a minute with the server's bot delays: two are several times the roll of the test's
own load (about 6 s), so every match is played through the whole roll, and then to its end."""
EXIT_BOUND = 20.0
"""A stopping process's bound: its sockets told to reconnect at once, its requests given 10 s, then
its leases handed over and its stores closed."""
PAUSE_BOUND = 15.0
"""The longest a player may wait for the next state: a reconnect to another process, and that
process taking the table's lease over for its bot, on a machine shared with the whole fleet."""


def test_a_rolling_restart_keeps_every_acknowledged_move(fleet: Fleet) -> None:
    async def scenario() -> tuple[list[Recorder], list[dict[str, Any]], list[float], float, int]:
        tables = await asyncio.gather(*(new_table(fleet.base(), [HUMAN, BOT], rounds=ROUNDS) for _ in range(TABLES)))
        rng = random.Random(11)
        clients = [
            Recorder(fleet.base(), path, seat, random.Random(rng.random()), think=THINK)
            for table in tables
            for seat, path in table.seats.items()
        ]
        tasks = [asyncio.create_task(client.run()) for client in clients]
        await until(lambda: min(client.version for client in clients) >= 6, 120, "play under way at every table")
        began = time.monotonic()
        exits = []
        for port in list(fleet.ports):
            exits.append(await asyncio.to_thread(fleet.stop, port, EXIT_BOUND))
            await asyncio.to_thread(fleet.start, port)
        rolled = time.monotonic() - began
        playing = sum(not client.over() for client in clients)
        async with asyncio.timeout(300):
            await asyncio.gather(*tasks)  # every match played to its end
        records = [await record_of(fleet.base(), table.code) for table in tables]
        return clients, records, exits, rolled, playing

    clients, records, exits, rolled, playing = asyncio.run(scenario())
    for client, record in zip(clients, records, strict=True):
        assert client.versions == sorted(client.versions), "versions out of order"
        assert client.over() and [r["points"] for r in record["rounds"]] == client.state["scores"]
        for number, seen in client.seen.items():
            stored = record["rounds"][number - 1]["moves"]
            assert stored[: len(seen)] == seen, "a move acknowledged to a player is not the stored one"
    assert sum(client.connections for client in clients) > len(clients), "nobody was asked to reconnect"
    pauses = sorted(client.longest_pause() for client in clients)
    figures = {
        "tables": len(clients),
        "seconds_to_exit": [round(seconds, 2) for seconds in exits],
        "roll_seconds": round(rolled, 1),
        "playing_after_roll": playing,
        "reconnects": sum(client.connections for client in clients) - len(clients),
        "moves_checked": sum(len(seen) for client in clients for seen in client.seen.values()),
        "longest_pause": {
            "p50": round(statistics.median(pauses), 2),
            "p95": round(pauses[int(0.95 * (len(pauses) - 1))], 2),
            "max": round(pauses[-1], 2),
        },
    }
    print(json.dumps(figures))
    # A match over before the roll ends proves nothing of the later stops: most must outlast it (all do on
    # a quiet machine; a very short one may end first on a loaded one).
    assert playing >= len(clients) / 2, figures
    if results := os.environ.get("CHICKENFOOT_ROLL_RESULTS"):
        Path(results).write_text(json.dumps(figures, indent=2) + "\n")
    assert pauses[-1] < PAUSE_BOUND, figures

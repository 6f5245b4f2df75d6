"""A process of the several-process tests: ``publish`` a numbered stream, compete for a ``lease``,
or ``connect`` a socket to a table's seat.

Run as a script; every line it prints is flushed at once so the test reads it as it happens.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.cluster.bus import RedisBus
from chickenfoot.server.cluster.connections import RedisConnections
from chickenfoot.server.cluster.leases import Hold, LeaseKeeper, RedisLeases


async def publish(url: str, prefix: str, count: int, interval: float, record: Path) -> None:
    """Versions 1..count on channels ``a`` and ``b``; each is written to ``record`` (the storage) first."""
    bus = RedisBus(url, prefix=prefix, clock=SYSTEM_CLOCK)
    with record.open("a") as stored:
        for version in range(1, count + 1):
            stored.write(f"{version}\n")
            stored.flush()
            await bus.publish("a", {"version": version})
            await bus.publish("b", {"version": version})
            await asyncio.sleep(interval)
    await bus.close()
    print("done", flush=True)


async def lease(url: str, prefix: str, name: str, ttl: float) -> None:
    """Hold the lease whenever possible; prints ``held TOKEN TIME`` and ``lost TOKEN TIME``."""
    leases = RedisLeases(url, ttl=ttl, prefix=prefix, clock=SYSTEM_CLOCK)
    last: list[Hold] = []

    def changed(hold: Hold | None) -> None:
        if hold is not None:
            last[:] = [hold]
        print("held" if hold else "lost", (hold or last[0]).token, time.monotonic(), flush=True)

    await LeaseKeeper(leases, name, changed).run()


async def connect(url: str, prefix: str, code: str, seat: int, ttl: float) -> None:
    """Count one socket of ``seat`` at table ``code`` and keep the heartbeat; prints ``ready``."""
    connections = RedisConnections(url, ttl=ttl, prefix=prefix, clock=SYSTEM_CLOCK)
    await connections.arrive(code, seat)
    print("ready", flush=True)
    await connections.run()


def main() -> None:
    command, url, prefix, *rest = sys.argv[1:]
    if command == "publish":
        asyncio.run(publish(url, prefix, int(rest[0]), float(rest[1]), Path(rest[2])))
    elif command == "lease":
        asyncio.run(lease(url, prefix, rest[0], float(rest[1])))
    else:
        asyncio.run(connect(url, prefix, rest[0], int(rest[1]), float(rest[2])))


if __name__ == "__main__":
    main()

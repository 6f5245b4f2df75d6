"""The services a server process shares with the others serving the same tables.

One process alone (:func:`local`) needs none: in-process pub/sub, every lease held, its own
connection counts, rate-limit counters in memory. Several processes (:func:`shared`) share one
Redis for all four; PostgreSQL, the record, is the storage's business. Nothing else in the server
needs to know which of the two it runs with.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from contextlib import suppress
from dataclasses import dataclass, field

from chickenfoot.server.clock import Clock, deadline
from chickenfoot.server.cluster.bus import RedisBus
from chickenfoot.server.cluster.connections import Connections, LocalConnections, RedisConnections
from chickenfoot.server.cluster.fanout import Bus, LocalBus, table_channel
from chickenfoot.server.cluster.leases import Leases, LocalLeases, RedisLeases
from chickenfoot.server.cluster.messages import PresenceChanged, encode

CLOSE_SECONDS = 5.0
"""How long closing waits for the cluster's own tasks (the heartbeat) to stop."""


@dataclass(slots=True)
class Cluster:
    """Pub/sub between processes, table leases, connection counts and the rate limits' storage."""

    bus: Bus
    """Carries "table CODE has version v" (and presence and configuration changes) to every process."""
    leases: Leases
    connections: Connections
    limits_storage: str
    """A ``limits`` storage URI for the per-address counters."""
    clock: Clock
    process: str = field(default_factory=lambda: secrets.token_hex(8))
    """This process among the others: it ignores its own messages."""
    redis_url: str | None = None
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def alone(self) -> bool:
        """This process is the only one: nothing it does needs telling to another."""
        return self.redis_url is None

    def start(self) -> None:
        """Start the background work (the connection counts' heartbeat), once the event loop runs."""
        if isinstance(self.connections, RedisConnections):
            self._tasks.append(asyncio.create_task(self.connections.run()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Bounded: a task that does not stop (see redis_client.stop_if_cancelled) must not hold up the exit.
            with suppress(TimeoutError):
                async with deadline(self.clock, CLOSE_SECONDS):
                    await asyncio.wait(self._tasks)
        for service in (self.bus, self.leases, self.connections):
            if isinstance(service, RedisBus | RedisLeases | RedisConnections):
                await service.close()


def local(limits_storage: str, clock: Clock) -> Cluster:
    """The services of a process that serves alone."""
    return Cluster(LocalBus(), LocalLeases(clock), LocalConnections(), limits_storage, clock)


def shared(redis_url: str, limits_storage: str | None, clock: Clock) -> Cluster:
    """The services of one of several processes sharing the Redis at ``redis_url``.

    The rate-limit counters live in the same Redis unless ``limits_storage`` names another storage.
    """
    process = process_name()
    bus = RedisBus(redis_url, clock=clock)
    connections = RedisConnections(redis_url, process=process, clock=clock)

    async def recount(codes: list[str]) -> None:
        for code in codes:
            await bus.publish(table_channel(code), encode(PresenceChanged(None, []), process))

    connections.restored = recount
    return Cluster(
        bus,
        RedisLeases(redis_url, owner=process, clock=clock),
        connections,
        limits_storage or redis_url,
        clock,
        process=process,
        redis_url=redis_url,
    )


def process_name() -> str:
    """This process's name in Redis: its id on its machine (which an operator can look up) and a random part."""
    return f"{socket.gethostname()}.{os.getpid()}.{secrets.token_hex(4)}"

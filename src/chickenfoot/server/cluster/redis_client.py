"""Redis clients of a server process, each on a bounded pool that waits for a free connection.

redis-py's default pool refuses a command outright ("Too many connections") once 100 are in use,
which a burst of arrivals at many tables reaches; waiting a moment for a connection instead keeps
every command, and the bound keeps what one process asks of Redis fixed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as redis

MAX_CONNECTIONS = 32
"""Connections of one client (commands beyond them wait their turn)."""
WAIT_SECONDS = 5.0


def pool(
    url: str, *, wait: float = WAIT_SECONDS, connections: int = MAX_CONNECTIONS, **options: Any
) -> redis.BlockingConnectionPool:
    """A pool of at most ``connections``; a command waits up to ``wait`` seconds for one.

    ``options`` are the connections' (``retry``, ``socket_timeout``, ``decode_responses``, ...).
    """
    return redis.BlockingConnectionPool.from_url(url, max_connections=connections, timeout=wait, **options)


def client(url: str, *, wait: float = WAIT_SECONDS, connections: int = MAX_CONNECTIONS, **options: Any) -> redis.Redis:
    """A client that owns a :func:`pool` (closing the client closes it)."""
    return redis.Redis.from_pool(pool(url, wait=wait, connections=connections, **options))


def stop_if_cancelled() -> None:
    """Raise :class:`asyncio.CancelledError` when the running task has been asked to stop.

    redis-py can swallow a cancellation that arrives while a command is in flight (the command then
    returns or fails as usual), so a loop of Redis commands calls this on every turn: otherwise it
    would go on forever and hold up the server's shutdown.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError

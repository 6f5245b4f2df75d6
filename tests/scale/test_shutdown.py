"""Stopping: the loops around Redis end when cancelled, even when the cancellation is swallowed.

redis-py can swallow a cancellation that arrives while a command is in flight (the command then
returns as usual); a loop that did not notice went on forever and held a server's shutdown up.
Here the commands swallow every cancellation, so only the loops' own check can end them.
"""

from __future__ import annotations

import asyncio
import contextlib
import math

import pytest

from chickenfoot.server.clock import SYSTEM_CLOCK, Clock
from chickenfoot.server.cluster.connections import RedisConnections
from chickenfoot.server.cluster.leases import Hold, LeaseKeeper
from chickenfoot.server.cluster.redis_client import stop_if_cancelled

IN_FLIGHT = 0.2
"""How long each stand-in command takes; the cancellation always lands in one."""


class InFlight:
    """Set once a stand-in command is under way (one per test: an event belongs to one event loop)."""

    started: asyncio.Event | None = None


async def swallowing_command() -> None:
    """A command that finishes normally when cancelled, as redis-py sometimes does."""
    if InFlight.started is not None:
        InFlight.started.set()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(IN_FLIGHT)  # the command's own duration


class SwallowingLeases:
    ttl = 0.03  # renewals every 10 ms: the keeper spends nearly all its time in commands
    clock: Clock = SYSTEM_CLOCK

    async def acquire(self, name: str) -> Hold | None:
        await swallowing_command()
        return Hold(name, 1, math.inf)

    async def renew(self, hold: Hold) -> Hold | None:
        await swallowing_command()
        return hold

    async def release(self, hold: Hold) -> None:
        return None


async def stops_when_cancelled(task: asyncio.Task[None]) -> bool:
    InFlight.started = started = asyncio.Event()
    await started.wait()  # inside a command
    task.cancel()
    try:
        await asyncio.wait_for(asyncio.shield(task), timeout=5 * IN_FLIGHT)
    except asyncio.CancelledError:
        return True
    except TimeoutError:
        task.cancel()  # still looping: the regression this test is for
        return False
    return True


def test_the_lease_keeper_stops_when_a_command_swallows_its_cancellation() -> None:
    async def scenario() -> bool:
        keeper = LeaseKeeper(SwallowingLeases(), "table:ABC", lambda hold: None)
        return await stops_when_cancelled(asyncio.create_task(keeper.run()))

    assert asyncio.run(scenario())


def test_the_heartbeat_stops_when_a_command_swallows_its_cancellation(redis_url: str, prefix: str) -> None:
    async def scenario() -> bool:
        connections = RedisConnections(redis_url, prefix=prefix, clock=SYSTEM_CLOCK)
        connections.beat = swallowing_command  # type: ignore[method-assign]
        try:
            return await stops_when_cancelled(asyncio.create_task(connections.run()))
        finally:
            await connections.close()

    assert asyncio.run(scenario())


@pytest.mark.parametrize("cancelled", [False, True])
def test_the_check_raises_only_in_a_cancelled_task(cancelled: bool) -> None:
    async def body() -> str:
        await swallowing_command()
        stop_if_cancelled()
        return "went on"

    async def scenario() -> str:
        InFlight.started = started = asyncio.Event()
        task = asyncio.create_task(body())
        await started.wait()  # inside the command
        if cancelled:
            task.cancel()
        try:
            return await task
        except asyncio.CancelledError:
            return "stopped"

    assert asyncio.run(scenario()) == ("stopped" if cancelled else "went on")

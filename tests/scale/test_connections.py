"""Who is connected, counted over every process: added up, swept when a process dies, rebuilt after a restart."""

from __future__ import annotations

import asyncio
import time

from chickenfoot.server.clock import SYSTEM_CLOCK, FakeClock
from chickenfoot.server.cluster.connections import LocalConnections, RedisConnections

from .conftest import RedisDaemon, worker


def test_one_process_counts_its_own_sockets() -> None:
    async def scenario() -> list[list[int]]:
        connections = LocalConnections()
        await connections.arrive("ABC", 1)
        await connections.arrive("ABC", 1)
        seen = [await connections.counts("ABC", 3)]
        await connections.leave("ABC", 1)
        await connections.leave("ABC", 0)  # never arrived: nothing to take away
        seen.append(await connections.counts("ABC", 3))
        await connections.leave("ABC", 1)
        seen.append(await connections.counts("ABC", 3))
        assert connections.own == {}
        return seen

    assert asyncio.run(scenario()) == [[0, 2, 0], [0, 1, 0], [0, 0, 0]]


def test_two_processes_see_the_sum_of_their_sockets(redis_url: str, prefix: str) -> None:
    async def scenario() -> list[list[int]]:
        first, second = (RedisConnections(redis_url, prefix=prefix, clock=SYSTEM_CLOCK) for _ in range(2))
        await first.arrive("ABC", 0)
        await first.arrive("ABC", 0)
        await second.arrive("ABC", 0)
        await second.arrive("ABC", 1)
        await second.arrive("XYZ", 1)  # another table
        seen = [await first.counts("ABC", 3), await second.counts("ABC", 3)]
        await first.leave("ABC", 0)
        await second.leave("ABC", 1)
        seen += [await second.counts("ABC", 3), await first.counts("XYZ", 2)]
        for connections in (first, second):
            await connections.close()
        return seen

    assert asyncio.run(scenario()) == [[3, 1, 0], [3, 1, 0], [2, 0, 0], [0, 1]]


def test_a_tables_grace_deadlines_kept_by_one_process_are_read_by_another(redis_url: str, prefix: str) -> None:
    """The lease holder keeps them; whoever reads the table back next (here or elsewhere) continues them."""

    async def scenario() -> list[dict[int, float]]:
        holder, other = (RedisConnections(redis_url, prefix=prefix, clock=SYSTEM_CLOCK) for _ in range(2))
        local = LocalConnections()
        await holder.keep_graces("ABC", {1: 1_700_000_012.5, 3: 1_700_000_020.0})
        await local.keep_graces("ABC", {1: 1_700_000_012.5})
        seen = [await other.graces("ABC"), await other.graces("XYZ"), await local.graces("ABC")]
        await holder.keep_graces("ABC", {3: 1_700_000_020.0})  # seat 1's player came back
        seen.append(await other.graces("ABC"))
        await holder.keep_graces("ABC", {})
        await local.keep_graces("ABC", {})
        seen += [await other.graces("ABC"), await local.graces("ABC")]
        for connections in (holder, other):
            await connections.close()
        return seen

    assert asyncio.run(scenario()) == [
        {1: 1_700_000_012.5, 3: 1_700_000_020.0},
        {},
        {1: 1_700_000_012.5},
        {3: 1_700_000_020.0},
        {},
        {},
    ]


def test_the_sockets_of_a_killed_process_stop_counting_within_its_ttl(redis_url: str, prefix: str) -> None:
    ttl = 1.0
    process = worker("connect", redis_url, prefix, "ABC", "1", str(ttl))

    async def scenario() -> tuple[list[int], float, list[int]]:
        connections = RedisConnections(redis_url, ttl=ttl, prefix=prefix, clock=SYSTEM_CLOCK)
        assert process.stdout is not None
        assert (await asyncio.to_thread(process.stdout.readline)).strip() == "ready"
        before = await connections.counts("ABC", 2)
        process.kill()
        killed = time.monotonic()
        while (after := await connections.counts("ABC", 2)) != [0, 0] and time.monotonic() - killed < 5:
            await asyncio.sleep(0.05)
        gone = time.monotonic() - killed
        await connections.close()
        return before, gone, after

    try:
        before, gone, after = asyncio.run(scenario())
    finally:
        process.kill()
        process.wait()
    assert before == [0, 1] and after == [0, 0]
    assert gone < ttl + 0.5


def test_after_a_redis_restart_every_process_writes_its_counts_again(redis_daemon: RedisDaemon, prefix: str) -> None:
    async def scenario() -> list[list[int]]:
        # Beats on a fake clock; the heartbeat's key lives a real minute, so it never lapses meanwhile.
        clock, rewritten = FakeClock(), asyncio.Event()
        connections = RedisConnections(redis_daemon.url, ttl=60, prefix=prefix, clock=clock)
        other = RedisConnections(redis_daemon.url, ttl=60, prefix=prefix, clock=SYSTEM_CLOCK)  # another process reads

        async def restored(codes: list[str]) -> None:
            rewritten.set()

        connections.restored = restored
        heartbeat = asyncio.create_task(connections.run())
        await connections.arrive("ABC", 0)
        seen = [await other.counts("ABC", 2)]
        await asyncio.to_thread(redis_daemon.stop)
        await connections.arrive("ABC", 1)  # not shared while Redis is down...
        await asyncio.to_thread(redis_daemon.start)  # empty: it kept nothing
        clock.advance(20)  # the next heartbeat finds its key gone and writes everything again
        await asyncio.wait_for(rewritten.wait(), 20)  # a generous real-time bound: Redis is real
        seen.append(await other.counts("ABC", 2))
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)
        seen.append(await other.counts("ABC", 2))  # a process that stops takes its sockets out
        await connections.close()
        await other.close()
        return seen

    assert asyncio.run(scenario()) == [[1, 0], [1, 1], [0, 0]]


def test_a_process_swept_while_paused_writes_its_counts_again_and_asks_for_a_recount(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> tuple[list[list[int]], list[list[str]]]:
        connections = RedisConnections(redis_url, ttl=5, prefix=prefix, clock=SYSTEM_CLOCK)
        other = RedisConnections(redis_url, ttl=5, prefix=prefix, clock=SYSTEM_CLOCK)
        recounts: list[list[str]] = []

        async def restored(codes: list[str]) -> None:
            recounts.append(codes)

        connections.restored = restored
        await connections.arrive("ABC", 0)
        await connections.arrive("XYZ", 1)
        seen = [await other.counts("ABC", 2)]
        await connections.beat()  # the heartbeat is there: nothing to write again, nobody to tell
        # Its heartbeat expired meanwhile (the process was kept from the CPU): the others sweep its sockets.
        await other._redis.delete(f"{prefix}process:{connections.process}")
        seen.append(await other.counts("ABC", 2))
        await connections.beat()
        seen += [await other.counts("ABC", 2), await other.counts("XYZ", 2)]
        await connections.close()
        await other.close()
        return seen, recounts

    seen, recounts = asyncio.run(scenario())
    assert seen == [[1, 0], [0, 0], [1, 0], [0, 1]]
    assert recounts == [["ABC", "XYZ"]]

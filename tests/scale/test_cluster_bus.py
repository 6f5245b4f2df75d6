"""Redis pub/sub between processes: delivery, order, and the catch-up after a Redis restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis.asyncio as redis

from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.cluster.bus import RedisBus
from chickenfoot.server.cluster.fanout import Message
from chickenfoot.testing.waiting import until

from .conftest import RedisDaemon, worker


class Follower:
    """What a table does with its channel: applies each next version once, catching up from storage."""

    def __init__(self, bus: RedisBus, channel: str, record: Path) -> None:
        self.record = record
        self.delivered: list[Any] = []
        """Every message as the pub/sub handed it over, with ``"gap"`` where it reported one."""
        self.applied: list[int] = []
        self.live = asyncio.Event()
        bus.subscribe(channel, self.receive, self.catch_up)

    def receive(self, message: Message) -> None:
        version = message["version"]
        self.delivered.append(version)
        if version == self.version + 1:
            self.applied.append(version)
        elif version > self.version + 1:
            self.reload()  # a message went missing: the storage has it

    def catch_up(self) -> None:
        self.delivered.append("gap")
        self.reload()
        self.live.set()

    def reload(self) -> None:
        stored = [int(line) for line in self.record.read_text().split()] if self.record.exists() else []
        self.applied.extend(v for v in stored if v > self.version)

    @property
    def version(self) -> int:
        return self.applied[-1] if self.applied else 0


async def wait_done(process: Any) -> None:
    line = await asyncio.to_thread(process.stdout.readline)
    assert line.strip() == "done", line
    assert await asyncio.to_thread(process.wait, 30) == 0


def test_every_subscribing_process_gets_every_message_once_in_publish_order(
    redis_url: str, prefix: str, tmp_path: Path
) -> None:
    count = 300

    async def scenario() -> list[Follower]:
        first, second = (
            RedisBus(redis_url, prefix=prefix, clock=SYSTEM_CLOCK),
            RedisBus(redis_url, prefix=prefix, clock=SYSTEM_CLOCK),
        )
        followers = [Follower(bus, channel, tmp_path / "record") for bus in (first, second) for channel in "ab"]
        await asyncio.wait_for(asyncio.gather(*(f.live.wait() for f in followers)), 10)
        publisher = worker("publish", redis_url, prefix, str(count), "0", str(tmp_path / "record"))
        await wait_done(publisher)
        await until(lambda: all(f.version == count for f in followers), 30, f"every follower at version {count}")
        await first.close()
        await second.close()
        return followers

    for follower in asyncio.run(scenario()):
        # Subscribed before the first publish: nothing to catch up, every message in order.
        assert follower.delivered == ["gap", *range(1, count + 1)]
        assert follower.applied == list(range(1, count + 1))


def test_after_a_redis_restart_subscribers_resubscribe_and_catch_up_without_duplicates(
    redis_daemon: RedisDaemon, prefix: str, tmp_path: Path
) -> None:
    count, record = 300, tmp_path / "record"

    async def scenario() -> tuple[RedisBus, Follower]:
        bus = RedisBus(redis_daemon.url, prefix=prefix, backoff_cap=0.5, clock=SYSTEM_CLOCK)
        follower = Follower(bus, "a", record)
        await asyncio.wait_for(follower.live.wait(), 10)
        publisher = worker("publish", redis_daemon.url, prefix, str(count), "0.01", str(record))
        await until(lambda: follower.version >= 50, 30, "version 50 followed")  # the publisher starts first
        await asyncio.to_thread(redis_daemon.stop)
        await until(lambda: not bus._live, 30, "the subscriber sees its connection go")
        await asyncio.to_thread(redis_daemon.start)
        await wait_done(publisher)
        await until(lambda: follower.version == count, 30, f"version {count} followed")
        await bus.close()
        return bus, follower

    bus, follower = asyncio.run(scenario())
    assert bus.reconnections == 1
    gaps = [i for i, item in enumerate(follower.delivered) if item == "gap"]
    assert len(gaps) == 2 and gaps[0] == 0  # subscribed, and subscribed again after the restart
    versions = [item for item in follower.delivered if item != "gap"]
    assert versions == sorted(set(versions))  # never a message twice, never out of order
    assert versions[-1] == count  # delivery resumed after the restart
    assert follower.applied == list(range(1, count + 1))  # and storage filled the gap exactly


def test_subscribers_join_and_leave_a_live_channel(redis_url: str, prefix: str) -> None:
    async def scenario() -> tuple[list[str], list[int], list[int]]:
        bus = RedisBus(redis_url, prefix=prefix, clock=SYSTEM_CLOCK)
        caught: list[str] = []
        first: list[int] = []
        second: list[int] = []
        live = asyncio.Event()

        def catch_up(mark: str) -> Callable[[], None]:
            def note() -> None:
                caught.append(mark)
                live.set()

            return note

        leave_first = bus.subscribe("a", lambda m: first.append(m["version"]), catch_up("1"))
        await asyncio.wait_for(live.wait(), 10)
        await bus.publish("a", {"version": 1})
        await until(lambda: first == [1], 30, "version 1 delivered")
        # A second subscriber of a live channel is told to catch up at once (version 1 passed it by).
        leave_second = bus.subscribe("a", lambda m: second.append(m["version"]), catch_up("2"))
        await bus.publish("a", {"version": 2})
        await until(lambda: first[-1] == 2 and second[-1:] == [2], 30, "version 2 delivered to both")
        leave_first()
        await bus.publish("a", {"version": 3})
        await until(lambda: second[-1] == 3, 30, "version 3 delivered")
        leave_second()  # nobody left: the channel is dropped in Redis
        async with redis.Redis.from_url(redis_url) as observer, asyncio.timeout(30):
            while (await observer.pubsub_numsub(prefix + "a"))[0][1] > 0:  # Redis tells no one: ask it
                await asyncio.sleep(0.01)
        await bus.publish("a", {"version": 4})
        live.clear()
        bus.subscribe("a", lambda m: second.append(m["version"]), catch_up("3"))
        await asyncio.wait_for(live.wait(), 10)
        await bus.publish("a", {"version": 5})
        await until(lambda: second[-1] == 5, 30, "version 5 delivered")
        await bus.close()
        return caught, first, second

    caught, first, second = asyncio.run(scenario())
    assert caught == ["1", "2", "3"]
    assert first == [1, 2]
    assert second == [2, 3, 5]  # 4 was published while nobody listened: caught up from storage instead


def test_messages_published_together_go_in_one_round_trip_in_their_order(redis_url: str, prefix: str) -> None:
    async def scenario() -> tuple[list[tuple[str, int]], int]:
        bus = RedisBus(redis_url, prefix=prefix, clock=SYSTEM_CLOCK)
        received: list[tuple[str, int]] = []
        live = {channel: asyncio.Event() for channel in "ab"}

        def heard(channel: str) -> Callable[[Message], None]:
            return lambda message: received.append((channel, message["version"]))

        for channel in "ab":
            bus.subscribe(channel, heard(channel), live[channel].set)
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in live.values())), 10)  # both live
        pipelines = 0
        pipeline = bus._publisher.pipeline

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal pipelines
            pipelines += 1
            return pipeline(*args, **kwargs)

        bus._publisher.pipeline = counted  # type: ignore[method-assign]
        await asyncio.gather(*(bus.publish("ab"[v % 2], {"version": v}) for v in range(100)))
        await until(lambda: len(received) == 100, 30, "100 messages delivered")
        await bus.close()
        return received, pipelines

    received, pipelines = asyncio.run(scenario())
    assert received == [("ab"[v % 2], v) for v in range(100)]
    assert pipelines == 1

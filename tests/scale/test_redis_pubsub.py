"""Redis pub/sub between processes: delivery, order, and the catch-up after a Redis restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chickenfoot.server.pubsub import Message
from chickenfoot.server.redis_pubsub import RedisPubSub

from .conftest import RedisDaemon, worker


class Follower:
    """What a table does with its channel: applies each next version once, catching up from storage."""

    def __init__(self, pubsub: RedisPubSub, channel: str, record: Path) -> None:
        self.record = record
        self.delivered: list[Any] = []
        """Every message as the pub/sub handed it over, with ``"gap"`` where it reported one."""
        self.applied: list[int] = []
        self.live = asyncio.Event()
        pubsub.subscribe(channel, self.receive, self.catch_up)

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
        first, second = RedisPubSub(redis_url, prefix=prefix), RedisPubSub(redis_url, prefix=prefix)
        followers = [Follower(pubsub, channel, tmp_path / "record") for pubsub in (first, second) for channel in "ab"]
        await asyncio.wait_for(asyncio.gather(*(f.live.wait() for f in followers)), 10)
        publisher = worker("publish", redis_url, prefix, str(count), "0", str(tmp_path / "record"))
        await wait_done(publisher)
        for _ in range(100):
            if all(f.version == count for f in followers):
                break
            await asyncio.sleep(0.05)
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

    async def scenario() -> tuple[RedisPubSub, Follower]:
        pubsub = RedisPubSub(redis_daemon.url, prefix=prefix, backoff_cap=0.5)
        follower = Follower(pubsub, "a", record)
        await asyncio.wait_for(follower.live.wait(), 10)
        publisher = worker("publish", redis_daemon.url, prefix, str(count), "0.01", str(record))
        while follower.version < 50:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(redis_daemon.stop)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(redis_daemon.start)
        await wait_done(publisher)
        for _ in range(100):
            if follower.version == count:
                break
            await asyncio.sleep(0.05)
        await pubsub.close()
        return pubsub, follower

    pubsub, follower = asyncio.run(scenario())
    assert pubsub.reconnections == 1
    gaps = [i for i, item in enumerate(follower.delivered) if item == "gap"]
    assert len(gaps) == 2 and gaps[0] == 0  # subscribed, and subscribed again after the restart
    versions = [item for item in follower.delivered if item != "gap"]
    assert versions == sorted(set(versions))  # never a message twice, never out of order
    assert versions[-1] == count  # delivery resumed after the restart
    assert follower.applied == list(range(1, count + 1))  # and storage filled the gap exactly

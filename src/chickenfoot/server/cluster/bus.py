"""The cluster's bus: news of tables between several server processes, over Redis pub/sub (a
:class:`~chickenfoot.server.cluster.fanout.Bus`).

Each process publishes "table CODE has version v" (and presence changes) on the table's channel;
every process subscribed to it receives them in the one order Redis saw them and builds its own
per-recipient messages. Redis pub/sub delivers at most once and forgets what a disconnected
subscriber missed, so the database stays the record: whenever a subscription is (re)established
the subscriber's ``catch_up`` is called and it reloads what it lacks from storage.

One connection carries every subscription of the process and belongs to one reader task; when it
breaks (Redis restarted, network lost) the task reconnects with exponential backoff, subscribes
again to every channel still wanted and reports the gap through ``catch_up``. Publishing uses a
separate connection pool with a few quick retries; a message that still cannot be published is
dropped with a warning, because every subscriber that could have missed it lost its connection
too (and catches up), or sees the next message's version jump past its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass

import orjson
import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.exceptions import RedisError

from chickenfoot.server.clock import Clock
from chickenfoot.server.cluster.fanout import CatchUp, Message, Subscriber, Unsubscribe
from chickenfoot.server.cluster.redis_client import client, stop_if_cancelled

log = logging.getLogger(__name__)

PREFIX = "chickenfoot:"
"""What the channels' names start with in Redis."""

POLL_SECONDS = 0.05
"""How long the reader waits for a message before it applies new (un)subscriptions."""
HEALTH_CHECK_SECONDS = 5
"""A silent subscription is pinged this often, so a dead link is noticed without traffic."""


@dataclass(frozen=True, slots=True, eq=False)
class _Subscription:
    callback: Subscriber
    catch_up: CatchUp | None


class RedisBus:
    """Channels shared by every process connected to one Redis (names get ``prefix`` in front)."""

    def __init__(self, url: str, *, clock: Clock, prefix: str = PREFIX, backoff_cap: float = 2.0) -> None:
        self.prefix, self.clock = prefix, clock
        self._publisher = client(
            url, retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=backoff_cap), 4), socket_timeout=5
        )
        # The subscriber never retries inside redis-py: the reader task reconnects by itself, so it
        # knows when a gap happened and can report it.
        self._subscriber: redis.Redis = redis.Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), health_check_interval=HEALTH_CHECK_SECONDS
        )
        self._backoff = ExponentialWithJitterBackoff(base=0.05, cap=backoff_cap)
        self._subscriptions: dict[str, list[_Subscription]] = {}
        self._live: set[str] = set()
        self._reader: asyncio.Task[None] | None = None
        self._changed = False
        """Channels were added or dropped since the reader last subscribed."""
        self.reconnections = 0
        """Times the subscription connection was lost and made again."""
        self._outgoing: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: Message) -> None:
        """Send ``message`` once the messages published before it are sent (their order is kept)."""
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outgoing.append((self.prefix + channel, orjson.dumps(message), sent))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())
        await sent

    async def _send(self) -> None:
        """Send what is waiting, one pipeline at a time: the messages of many tables published in
        the same turn of the event loop cost one write and one round trip, not one each."""
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except RedisError as exc:
                log.warning("%d messages not published (%s); subscribers catch up from storage", len(batch), exc)
            finally:
                for _, _, sent in batch:
                    if not sent.done():  # its publisher may have been cancelled meanwhile
                        sent.set_result(None)

    def subscribe(self, channel: str, callback: Subscriber, catch_up: CatchUp | None = None) -> Unsubscribe:
        subscription = _Subscription(callback, catch_up)
        self._subscriptions.setdefault(channel, []).append(subscription)
        if channel in self._live and catch_up is not None:
            # Live already: messages reach this subscriber from now on, but not those just before.
            asyncio.get_running_loop().call_soon(_safely, catch_up)
        self._changed = True
        if self._reader is None:
            self._reader = asyncio.create_task(self._read())

        def unsubscribe() -> None:
            subscriptions = self._subscriptions.get(channel, [])
            if subscription in subscriptions:
                subscriptions.remove(subscription)
            if not subscriptions:
                self._subscriptions.pop(channel, None)
                self._changed = True

        return unsubscribe

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)  # what was published is sent
        await self._publisher.aclose()
        await self._subscriber.aclose()

    async def _read(self) -> None:
        failures = 0
        while True:
            try:
                async with aclosing(self._subscriber.pubsub()) as connection:
                    await self._listen(connection)
            except (RedisError, OSError) as exc:
                if self._live:
                    self.reconnections += 1
                    failures = 0
                    log.warning("lost the Redis subscription (%s); subscribing again", exc)
                self._live.clear()
            stop_if_cancelled()
            failures += 1
            await self.clock.sleep(self._backoff.compute(failures))

    async def _listen(self, connection: redis.client.PubSub) -> None:
        """Keep ``connection`` subscribed to the wanted channels and hand out its messages."""
        subscribed: set[str] = set()
        self._changed = True
        while True:
            if self._changed:
                self._changed = False
                wanted = set(self._subscriptions)
                if added := wanted - subscribed:
                    await connection.subscribe(*(self.prefix + channel for channel in added))
                if removed := subscribed - wanted:
                    await connection.unsubscribe(*(self.prefix + channel for channel in removed))
                    self._live -= removed
                subscribed = wanted
            message = await connection.get_message(timeout=POLL_SECONDS)
            stop_if_cancelled()
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict[str, object]) -> None:
        raw_channel = message["channel"]
        assert isinstance(raw_channel, bytes)
        channel = raw_channel.decode()[len(self.prefix) :]
        kind = message["type"]
        if kind == "subscribe":
            # Live from here on: what was published before may be missing, so everyone catches up.
            self._live.add(channel)
            for subscription in list(self._subscriptions.get(channel, ())):
                if subscription.catch_up is not None:
                    _safely(subscription.catch_up)
        elif kind == "message" and channel in self._live:
            data = message["data"]
            assert isinstance(data, bytes)
            try:
                payload: Message = orjson.loads(data)
            except ValueError:
                log.warning("a message on %s is not JSON; ignored", channel)
                return
            for subscription in list(self._subscriptions.get(channel, ())):
                _safely(subscription.callback, payload)


def _safely(function: Callable[..., None], *args: object) -> None:
    """Call a subscriber's function; its failure is its own, not the other subscribers'."""
    try:
        function(*args)
    except Exception:
        log.exception("a pub/sub subscriber failed")

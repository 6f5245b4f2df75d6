"""Fan-out of a table's news to this process's connections, and the :class:`Bus` interface it shares
with the cluster's bus.

A table publishes every change on its channel (:func:`table_channel`) through a :class:`LocalBus`:
each of its connections in this process is subscribed and queues what it must send. The same
interface carries news between processes (:class:`chickenfoot.server.cluster.bus.RedisBus`, the
``bus`` of :class:`chickenfoot.server.cluster.Cluster`). Messages are JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from chickenfoot.server.table.ports import Message, Subscriber, Unsubscribe, table_channel

__all__ = ["Bus", "CatchUp", "LocalBus", "Message", "Subscriber", "Unsubscribe", "table_channel"]

CatchUp = Callable[[], None]
"""Called when messages of a channel may have been missed: the subscriber reloads from storage."""


class Bus(Protocol):
    async def publish(self, channel: str, message: Message) -> None:
        """Deliver ``message`` to every current subscriber of ``channel``, in publish order."""

    def subscribe(self, channel: str, callback: Subscriber, catch_up: CatchUp | None = None) -> Unsubscribe:
        """Call ``callback`` with each message published on ``channel`` from now on.

        A pub/sub between processes cannot promise "from now on": it calls ``catch_up`` once the
        subscription is live and again after every reconnection, and messages published before
        that call may never arrive. After ``catch_up`` returns, every message arrives once, in
        publish order.
        """


class LocalBus:
    """Subscribers in this process, called synchronously (they must only enqueue work).

    Nothing is ever missed, so ``catch_up`` is never called.
    """

    def __init__(self) -> None:
        # By subscription, in the order they came: a crowd leaving costs one step each, not a search each.
        self._subscribers: dict[str, dict[object, Subscriber]] = {}

    async def publish(self, channel: str, message: Message) -> None:
        for callback in list(self._subscribers.get(channel, {}).values()):
            callback(message)

    def subscribe(self, channel: str, callback: Subscriber, catch_up: CatchUp | None = None) -> Unsubscribe:
        subscription = object()
        self._subscribers.setdefault(channel, {})[subscription] = callback

        def unsubscribe() -> None:
            callbacks = self._subscribers.get(channel)
            if callbacks is None:
                return
            callbacks.pop(subscription, None)
            if not callbacks:
                del self._subscribers[channel]

        return unsubscribe

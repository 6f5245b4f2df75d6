"""Fan-out of table changes to the connections watching a table.

The interface is what a Redis (or PostgreSQL LISTEN/NOTIFY) backend would implement to run several
server processes; :class:`LocalPubSub` is the in-process default. Messages are JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Message = dict[str, Any]
Subscriber = Callable[[Message], None]
Unsubscribe = Callable[[], None]


class PubSub(Protocol):
    async def publish(self, channel: str, message: Message) -> None:
        """Deliver ``message`` to every current subscriber of ``channel``, in publish order."""

    def subscribe(self, channel: str, callback: Subscriber) -> Unsubscribe:
        """Call ``callback`` with each message published on ``channel`` from now on."""


class LocalPubSub:
    """Subscribers in this process, called synchronously (they must only enqueue work)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, list[Subscriber]] = {}

    async def publish(self, channel: str, message: Message) -> None:
        for callback in list(self._subscribers.get(channel, ())):
            callback(message)

    def subscribe(self, channel: str, callback: Subscriber) -> Unsubscribe:
        self._subscribers.setdefault(channel, []).append(callback)

        def unsubscribe() -> None:
            callbacks = self._subscribers.get(channel, [])
            if callback in callbacks:
                callbacks.remove(callback)
            if not callbacks:
                self._subscribers.pop(channel, None)

        return unsubscribe

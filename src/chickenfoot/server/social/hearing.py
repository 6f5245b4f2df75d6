"""Who listens at each table connection of this process, kept up to date with the blocks.

A connection's :class:`~chickenfoot.server.chat.Listener` is made when it opens, with the accounts its
account blocks. A block or an unblock, made in any process, goes over the cluster's bus (one channel
for the whole server) with the account's whole list, and every process updates its listeners of that
account at once: a line said a moment after a block is not delivered, on any open page.
"""

from __future__ import annotations

import weakref
from collections.abc import Collection

from chickenfoot.server.cluster.fanout import Bus, Message, Unsubscribe
from chickenfoot.server.social.store import SocialStore
from chickenfoot.server.table.chat import Listener

CHANNEL = "social-blocks"


class Hearings:
    def __init__(self, store: SocialStore, bus: Bus) -> None:
        self.store, self.bus = store, bus
        self._live: dict[int, weakref.WeakSet[Listener]] = {}
        self._unsubscribe: Unsubscribe | None = None

    def start(self) -> None:
        self._unsubscribe = self.bus.subscribe(CHANNEL, self._heard)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def listener(self, account_id: int | None) -> Listener:
        """The listener of a connection whose account is ``account_id`` (``None``: a guest's)."""
        if account_id is None:
            return Listener()
        listener = Listener(account_id, await self.store.muted_by(account_id))
        live = self._live.setdefault(account_id, weakref.WeakSet())
        live.add(listener)
        return listener

    async def changed(self, account_id: int) -> None:
        """The account blocked or unblocked someone: its listeners hear so, in every process."""
        muted = await self.store.muted_by(account_id)
        await self.bus.publish(CHANNEL, {"account": account_id, "muted": sorted(muted)})

    def _heard(self, message: Message) -> None:
        account, muted = message.get("account"), message.get("muted")
        if not isinstance(account, int) or not isinstance(muted, list):
            return
        self.update(account, [blocked for blocked in muted if isinstance(blocked, int)])

    def update(self, account_id: int, muted: Collection[int]) -> None:
        live = self._live.get(account_id)
        if live is None:
            return
        for listener in list(live):
            listener.muted = frozenset(muted)
        if not live:
            del self._live[account_id]

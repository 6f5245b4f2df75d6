"""A muted player's own table connections know it, and until when, in every process.

A connection behind an account watches that account's mute (:meth:`LiveMutes.watch`): it is told at
once when the account is muted now, and again whenever an operator mutes it or lifts the mute, in
whichever process, by a typed message on the cluster's bus
(:class:`~chickenfoot.server.cluster.messages.MuteChanged`, on one channel for the whole server). Only
the account's own connections are told: nobody else learns of a mute. A mute that runs out needs no
message: its end was said with it.
"""

from __future__ import annotations

from collections.abc import Callable

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus, Message, Unsubscribe
from chickenfoot.server.cluster.messages import MuteChanged, decode, encode
from chickenfoot.server.moderation.gate import moment
from chickenfoot.server.moderation.store import ModerationStore, Restricted
from chickenfoot.server.storage import StorageUnavailable

CHANNEL = "moderation-mutes"
Tell = Callable[[str | None], None]
"""Told a mute's end (ISO 8601, a message's ``moment``), or ``None``: the operators lifted it."""


class LiveMutes:
    def __init__(self, store: ModerationStore, bus: Bus, clock: Clock) -> None:
        self.store, self.bus, self.clock = store, bus, clock
        self._tells: dict[int, set[Tell]] = {}
        self._unsubscribe: Unsubscribe | None = None

    def start(self) -> None:
        self._unsubscribe = self.bus.subscribe(CHANNEL, self._heard)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def watch(self, account_id: int, tell: Tell) -> Callable[[], None]:
        """Tell ``tell`` the account's mute now (if it is muted), then each change; returns the function
        that stops watching."""
        heard = False

        def told(until: str | None) -> None:
            nonlocal heard
            heard = True
            tell(until)

        tells = self._tells.setdefault(account_id, set())
        tells.add(told)

        def unwatch() -> None:
            tells.discard(told)
            if not tells and self._tells.get(account_id) is tells:
                del self._tells[account_id]

        try:
            until = await self.store.restricted_until(account_id, Restricted.MUTE, utc(self.clock))
        except StorageUnavailable:
            return unwatch  # no note now: the next change says it, as a refused line would
        except BaseException:
            unwatch()
            raise
        if until is not None and not heard:  # a change heard while reading is newer than what was read
            tell(moment(until))
        return unwatch

    async def changed(self, account_id: int, until: str | None) -> None:
        """The account was muted until ``until`` (``None``: its mute lifted): its connections are told, in
        every process."""
        await self.bus.publish(CHANNEL, encode(MuteChanged(account_id, until), ""))

    def _heard(self, wire: Message) -> None:
        heard = decode(wire)
        if heard is None or not isinstance(heard[1], MuteChanged):
            return
        change = heard[1]
        for tell in list(self._tells.get(change.account, ())):
            tell(change.until)

"""Keeps one table of this process in step with the other processes serving it.

What another process says on the table's shared channel (a typed message,
:mod:`.cluster_messages`) is a hint to read the truth again: the
actions after this table's version, the configuration (from storage), or the connection counts
(from Redis). A process announces each action it stored with its version, so the others apply it
without reading it back; only a gap (an announcement lost, or not yet arrived) is read from
storage. Hints that arrive while that work is pending are merged, so a burst costs one read. When
the subscription was broken (``catch_up``), everything is read again.
What the lease holder decided (who is covered, when each grace period ends) is kept nowhere but in
its memory: a process whose subscription is new or was broken asks for it, and the holder answers
with its presence message (it says it again, unasked, when its own subscription was broken).
The table's lease is kept here too: only its holder plans the table's timed work.

The sync room is the table's :class:`~.table_ports.Peers`: the table tells the other processes
through it, and asks it whether it drives. It drives the table only through its commands.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

from chickenfoot.server.clock import Clock
from chickenfoot.server.cluster import Cluster
from chickenfoot.server.cluster.leases import Hold, LeaseKeeper
from chickenfoot.server.cluster.messages import (
    ActionStored,
    AskCovering,
    ConfigChanged,
    Notice,
    PeerMessage,
    PresenceChanged,
    SeatMoved,
    decode,
    encode,
)
from chickenfoot.server.cluster.redis_client import stop_if_cancelled
from chickenfoot.server.storage import StoredAction
from chickenfoot.server.table.commands import CatchUp, Followed, LeaseChanged, Recount, Relay, ReloadConfig
from chickenfoot.server.table.ports import Covering, Events, Message, Unsubscribe, table_channel

log = logging.getLogger(__name__)

MAX_EVENTS = 16
"""Presence events kept for this process's connections while a recount is pending."""
MAX_HEARD = 64
"""Announced actions kept while this table's catch-up is pending; beyond them the rest is read back."""
RETRY_SECONDS = 1.0
"""Pause before reading again what could not be read (storage or Redis unavailable)."""


async def tell_config_changed(cluster: Cluster, code: str) -> None:
    """Tell the other processes that table ``code``'s stored configuration changed outside the table
    (:meth:`~chickenfoot.server.table.registry.TableRegistry.config_changed`): those holding it read it again."""
    await cluster.bus.publish(table_channel(code), encode(ConfigChanged(None, []), cluster.process))


class TableSync:
    """The shared channel's subscription and the lease of one table, while this process holds it."""

    def __init__(self, code: str, cluster: Cluster, clock: Clock) -> None:
        self.code, self.cluster, self.clock = code, cluster, clock
        self.channel = table_channel(code)
        self.keeper = LeaseKeeper(cluster.leases, f"table:{code}", self._lease_changed)
        self.table: Followed | None = None
        self._actions = self._config = self._presence = False
        self._ask = False
        """The holder's covering may have been missed: ask for it (or, holding the lease, say it again)."""
        self._asked = False
        """Another process asked for the holder's covering."""
        self._heard_actions: dict[int, StoredAction] = {}
        self._latest: int | None = 0
        """The highest version announced; ``None`` when unknown (read everything after this table's)."""
        self._events: list[dict[str, Any]] = []
        self._covered: list[int] | None = None
        self._grace: dict[int, float] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._keeping: asyncio.Task[None] | None = None
        self._unsubscribe: Unsubscribe | None = None

    @property
    def driving(self) -> bool:
        """This process holds the table's lease (checked at each call: a lease may lapse unseen)."""
        return self.keeper.hold is not None

    def follow(self, table: Followed) -> None:
        """Follow the other processes for ``table`` (built with this sync room as its peers)."""
        self.table = table
        self._unsubscribe = self.cluster.bus.subscribe(self.channel, self._heard, self._missed)
        self._keeping = asyncio.create_task(self.keeper.run())

    # --- telling the other processes (the table's peers) -----------------------------------------

    async def action_stored(self, version: int, action: str, at: float) -> None:
        await self._tell(ActionStored(version, action, at))

    async def config_changed(self, version: int, events: Events) -> None:
        await self._tell(ConfigChanged(version, events))

    async def presence(self, version: int, events: Events, covering: Covering | None) -> None:
        covered, grace = (None, None) if covering is None else covering
        await self._tell(PresenceChanged(version, events, covered, grace))

    async def notice(self, version: int, notice: dict[str, Any]) -> None:
        await self._tell(Notice(version, notice))

    async def seat_moved(self, version: int, seat: int, credential: str) -> None:
        await self._tell(SeatMoved(version, seat, credential))

    async def _tell(self, message: PeerMessage) -> None:
        """Tell the other processes (see docs/scale-out.md)."""
        await self.cluster.bus.publish(self.channel, encode(message, self.cluster.process))

    # --- hearing them -----------------------------------------------------------------------------

    async def stop(self) -> None:
        """Unsubscribe and give the lease up (another process takes it at once)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in (self._keeping, self._worker):
            if task is not None:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task

    def _heard(self, wire: Message) -> None:
        table, heard = self.table, decode(wire)
        if table is None or heard is None or heard[0] == self.cluster.process:
            return  # not for this table, not understood, or this process's own news
        message = heard[1]
        if message.version is not None and message.version > table.version:
            self._actions = True
            if self._latest is not None:
                self._latest = max(self._latest, message.version)
        match message:
            case Notice(_, notice):
                table.tell(
                    Relay({"notice": notice})
                )  # chat and rematch news: shown as they come, nothing to read again
            case SeatMoved(_, seat, credential):
                # A seat went to another device: its other sockets here end.
                table.tell(Relay({"moved": {"seat": seat, "to": credential}}))
            case ActionStored(version, action, at) if version > table.version and len(self._heard_actions) < MAX_HEARD:
                with suppress(OverflowError, OSError, ValueError):  # a time no date can hold: read it back
                    self._heard_actions[version] = StoredAction(version, action, datetime.fromtimestamp(at, UTC))
            case ConfigChanged():
                self._config = True
            case AskCovering():
                self._asked = True
            case PresenceChanged(_, events, covered, grace):
                self._presence = True
                # Bounded: they are only the "connected"/"disconnected" news shown beside the state.
                self._events = [*self._events, *events][-MAX_EVENTS:]
                if covered is not None:
                    self._covered = covered
                if grace is not None:
                    self._grace = dict(grace)
        self._wake()

    def _missed(self) -> None:
        """Messages may have been lost (the subscription is new or was broken): read everything again."""
        self._actions = self._config = self._presence = self._ask = True
        self._latest = None
        self._wake()

    def _pending(self) -> bool:
        return self._actions or self._config or self._presence or self._ask or self._asked

    def _wake(self) -> None:
        if self._pending() and (self._worker is None or self._worker.done()):
            self._worker = asyncio.create_task(self._work())

    async def _work(self) -> None:
        table = self.table
        while table is not None and not table.closed and self._pending():
            try:
                if self._config:
                    self._config = False
                    await table.submit(ReloadConfig())
                if self._actions:
                    self._actions = False
                    heard, self._heard_actions = self._heard_actions, {}
                    latest, self._latest = self._latest, 0
                    await table.submit(CatchUp(heard, latest))
                if self._presence:
                    self._presence = False
                    events, self._events = self._events, []
                    covered, self._covered = self._covered, None
                    grace, self._grace = self._grace, None
                    await table.submit(Recount(events, covered, grace))
                if self._ask or self._asked:
                    asking, self._ask, self._asked = self._ask, False, False
                    await self._share_covering(table, asking)
            except Exception as exc:
                log.warning("table %s not caught up (%s); trying again", table.code, exc)
                self._actions = self._config = self._presence = True
                self._latest = None
                stop_if_cancelled()
                await self.clock.sleep(RETRY_SECONDS)

    async def _share_covering(self, table: Followed, asking: bool) -> None:
        """What the lease holder decided (who is covered, when each grace ends) travels only in its
        presence messages: the holder says it (again, or because it was asked); another process
        that may have missed it (``asking``: its subscription is new or was broken) asks the holder."""
        if self.driving:
            await self.presence(table.version, [], table.covering())
        elif asking:
            await self._tell(AskCovering(table.version))

    def _lease_changed(self, hold: Hold | None) -> None:
        log.info("table %s: lease %s", self.code, "lost" if hold is None else f"won (token {hold.token})")
        if self.table is not None:
            self.table.tell(LeaseChanged(hold is not None))

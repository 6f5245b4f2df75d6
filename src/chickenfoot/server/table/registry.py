"""The tables this process holds in memory: loaded from storage on demand, released when idle, swept when abandoned.

The registry also hands every table its services (:class:`~chickenfoot.server.table.actor.Services`) and
says when a match finished: whoever cares (the reviews, the lobby) registers with
:meth:`TableRegistry.on_match_finished`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock, Timer, utc
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.storage import Storage, StorageUnavailable
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.commands import Close, End, Following, ReloadConfig, Wake
from chickenfoot.server.table.config import TableConfig, Timing
from chickenfoot.server.table.deadlines import DeadlineBook, DeadlineSweeper
from chickenfoot.server.table.ports import ALONE, Peers, Publisher, SocketCounts, TurnNews

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
OUTAGE = "the game store is unavailable: moves are refused until it is back"
RECOVERED = "the game store is back: play on"


@dataclass(frozen=True, slots=True)
class Expiry:
    """How long tables stay: in memory once nobody is connected, in storage when nobody ever played."""

    idle_seconds: float = 10.0
    """A table read here (a request, its creation) that nobody connects to here leaves memory this
    long after its last use; it is read back on demand. Short, because a process that holds a table
    follows all its moves: with several processes, a table stays only where its players are."""
    unjoined_seconds: float = 86_400.0
    """A table without a single move is deleted from storage this long after its creation."""
    sweep_seconds: float = 60.0
    sweep_batch: int = 500
    """Tables deleted per sweep at most: each sweep's work is bounded."""
    deadline_seconds: float = 5.0
    """How often the turn-based tables' stored deadlines are swept for those due."""


def service_notice(available: bool) -> dict[str, Any]:
    """The ``service`` message of docs/protocol.md."""
    said = Said.of(Code.SERVICE_UP if available else Code.SERVICE_DOWN)
    return {
        "type": "service",
        "storage": "up" if available else "down",
        "message": RECOVERED if available else OUTAGE,
    } | said.wire()


def possible_code(code: str) -> bool:
    """Whether some table could have ``code`` (in any case): the others are refused without a look."""
    return code.isascii() and code.isalnum() and len(code) <= 16


def new_code() -> str:
    """A random table code (storing it fails in the rare case it is taken already)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def random_seed() -> int:
    """A new table's seed: unpredictable, so nobody can know the deal before it is dealt."""
    return secrets.randbits(62)


Follow = Callable[[str], Following]
"""The peers that follow the other processes for a table (by its code) while it is in memory."""
TellConfigChanged = Callable[[str], Awaitable[None]]
"""Tells the other processes that the stored configuration of a table (by its code) changed: those
holding it read it again."""


class TableRegistry:
    """The tables of this process, loaded from storage on first use.

    ``counts``: the sockets of each seat over every process; ``follow``: how a table follows the other
    processes serving it, and ``tell_config_changed`` how they hear of a configuration changed outside
    every table (``None``: this process serves alone).
    """

    def __init__(
        self,
        storage: Storage,
        fanout: Publisher,
        timing: Timing,
        counts: SocketCounts,
        clock: Clock,
        *,
        expiry: Expiry | None = None,
        seeds: Callable[[], int] = random_seed,
        follow: Follow | None = None,
        tell_config_changed: TellConfigChanged | None = None,
    ) -> None:
        self.storage, self.fanout, self.clock = storage, fanout, clock
        self.seeds = seeds
        """Deals a new table's seed: random, or fixed by a test that needs a particular deal."""
        self.expiry = expiry or Expiry()
        self.deadlines = DeadlineBook(storage, clock)
        """Where turn-based tables keep what they wait for next; swept by :attr:`deadline_sweeper`."""
        self.services = Services(
            storage, fanout, timing, counts, clock, self._match_finished, self._table_ended, self.deadlines
        )
        self.deadline_sweeper = DeadlineSweeper(self.deadlines, self.get, clock, self.expiry.deadline_seconds)
        self._follow = follow
        self._elsewhere = tell_config_changed
        self._finish_hooks: list[Callable[[str], object]] = []
        self.credentials = Credentials(storage)
        self.tables: dict[str, Table] = {}
        self._syncs: dict[str, Following] = {}
        """How each table follows the other processes (none when this process is alone)."""
        self._lingering: dict[str, Timer] = {}
        """Each table's release, due ``idle_seconds`` after its last use unless someone is connected here."""
        self._closing: dict[str, asyncio.Task[None]] = {}
        self._unplayed_due: dict[str, float] = {}
        """Tables to delete at the first sweep past their time (on :attr:`clock`) if nobody has played them."""
        self._lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        storage.on_availability(self._availability_changed)

    async def get(self, code: str) -> Table | None:
        """The table (read from storage when not in memory); raises ``StorageUnavailable`` during an outage."""
        code = code.upper()
        if not possible_code(code):
            return None  # no table was ever given such a code (and storage need not see it)
        table = self.tables.get(code)
        if table is not None:
            self._linger(table)
            return table
        async with self._lock:
            if (closing := self._closing.get(code)) is not None:
                await closing  # its last action must be stored before the table is read back
            table = self.tables.get(code)
            if table is None:
                loaded = await self.storage.load_table(code)
                if loaded is None:
                    return None
                config, actions = loaded
                last_action = await self.storage.last_action_time(code)
                peers, sync = self._peers(code)
                # Replaying a long match takes hundreds of milliseconds: in a thread (one at a time,
                # under the lock), so the event loop keeps serving the other tables meanwhile.
                read = functools.partial(Table.read_back, code, TableConfig.from_json(config), actions, last_action)
                table = await asyncio.to_thread(read, self.services, peers)
                self._add(table, sync)
                log.info("table %s: read from storage at version %d", code, table.version)
        return table

    async def create(self, config: TableConfig) -> Table:
        while True:
            code = new_code()
            if await self.storage.create_table(code, config.to_json()):
                break
        async with self._lock:
            peers, sync = self._peers(code)
            table = Table.restore(code, config, [], self.services, peers)
            self._add(table, sync)
        return table

    async def end(self, code: str) -> Literal["ended", "missing", "finished"]:
        """An operator ends table ``code`` (server/moderation, :class:`~.commands.End`): its match stops
        where it is, it is deleted with everything of it, its people are told in every process.
        ``finished``: its match is over, and a finished match is history, not ended."""
        table = await self.get(code)
        if table is None:
            return "missing"
        return "ended" if await table.submit(End()) else "finished"

    def _table_ended(self, code: str) -> None:
        """Table ``code`` was ended (here or in another process): it leaves memory, whoever is connected."""
        if (table := self.tables.get(code)) is not None:
            self._drop(table)
            log.info("table %s: ended by an operator", code)

    async def config_changed(self, code: str) -> None:
        """The stored configuration of table ``code`` was changed outside the table (a deleted player's
        name erased): the table reads it again, in this process if it holds it and in every other one."""
        async with self._lock:  # a table being read from storage meanwhile has the change once this is free
            table = self.tables.get(code)
        if table is not None:
            await table.submit(ReloadConfig())
        if self._elsewhere is not None:
            await self._elsewhere(code)

    def tell_turns_by(self, news: TurnNews) -> None:
        """Turn-based tables tell their players of their turn, and of chat lines, through ``news``
        (set once, before any table is read)."""
        self.services = dataclasses.replace(self.services, news=news)

    def on_match_finished(self, hook: Callable[[str], object]) -> None:
        """Call ``hook`` with a table's code whenever this process applies the action ending its match."""
        self._finish_hooks.append(hook)

    def _match_finished(self, code: str) -> None:
        if (table := self.tables.get(code)) is not None:
            self._linger(table)  # a match played on unwatched leaves memory after its end
        for hook in self._finish_hooks:
            try:
                hook(code)
            except Exception:
                log.exception("a hook for the end of table %s's match failed", code)

    def _peers(self, code: str) -> tuple[Peers, Following | None]:
        """The peers of a new table ``code``: its sync room with the other processes, or none."""
        if self._follow is None:
            return ALONE, None
        sync = self._follow(code)
        return sync, sync

    def _add(self, table: Table, sync: Following | None) -> None:
        self.tables[table.code] = table
        if sync is not None:
            self._syncs[table.code] = sync
            sync.follow(table)
        table.tell(Wake())
        self._linger(table)

    def _linger(self, table: Table) -> None:
        """``table`` was used: release it ``idle_seconds`` from now unless someone is connected here
        then (a table in use is released by its last connection: :meth:`left`)."""
        if (due := self._lingering.pop(table.code, None)) is not None:
            due.cancel()
        self._lingering[table.code] = self.clock.call_later(self.expiry.idle_seconds, self.release, table)

    def left(self, table: Table) -> None:
        """A connection of ``table`` ended: release it if it was this process's last one."""
        if not table.watched_here():
            self.release(table)

    def release(self, table: Table) -> None:
        """Drop a table nobody is connected to here from memory (storage holds all of it)."""
        if table.closed or table.watched_here() or self.tables.get(table.code) is not table:
            return
        if table.plays_unwatched():  # played to its end first; released once it is over (_match_finished)
            return
        self._drop(table)
        log.info("table %s: released from memory", table.code)

    def _drop(self, table: Table) -> None:
        """Let ``table`` go from memory now; it closes in the background."""
        table.tell(Close())  # at once: a connection arriving from now on loads the table afresh
        del self.tables[table.code]
        if (due := self._lingering.pop(table.code, None)) is not None:
            due.cancel()
        self._closing[table.code] = asyncio.create_task(self._close(table))

    async def _close(self, table: Table) -> None:
        try:
            if (sync := self._syncs.pop(table.code, None)) is not None:
                await sync.stop()
            await table.settled()
        finally:
            self._closing.pop(table.code, None)

    # --- expiry -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the periodic sweeps (once the event loop runs): unplayed tables, due deadlines."""
        self._sweeper = asyncio.create_task(self._sweep_forever())
        self.deadline_sweeper.start()

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(self.expiry.sweep_seconds)
            try:
                await self.sweep()
            except StorageUnavailable:
                pass  # the outage is reported already; the next sweep tries again
            except Exception:
                log.exception("sweeping tables failed")

    def sweep_unplayed_after(self, code: str, seconds: float) -> None:
        """Table ``code`` is deleted at the first sweep ``seconds`` from now unless it has been played by then
        or someone is at it (it is looked at again at the next sweep); otherwise at the sweep of every table
        nobody played (:attr:`Expiry.unjoined_seconds`)."""
        self._unplayed_due[code] = self.clock.monotonic() + seconds

    async def sweep(self) -> int:
        """Delete from storage the tables nobody played; returns the deletions."""
        if not self.storage.available:
            return 0
        now = utc(self.clock)
        cutoff = now - timedelta(seconds=self.expiry.unjoined_seconds)
        moment = self.clock.monotonic()
        due = [code for code, at in self._unplayed_due.items() if at <= moment][: self.expiry.sweep_batch]
        async with self._lock:  # no table is read back while its row may go
            in_use = {code for code, table in self.tables.items() if not table.idle()}
            deleted = await self.storage.delete_unplayed(cutoff, self.expiry.sweep_batch, keep=in_use)
            if due:
                deleted += await self.storage.delete_unplayed(now, len(due), keep=in_use, among=due)
                for code in set(due) - in_use:  # deleted, or played: either way not to be looked at again
                    del self._unplayed_due[code]
            for code in deleted:
                if (table := self.tables.get(code)) is not None:
                    self.release(table)
            return len(deleted)

    # --- the game store's outages -------------------------------------------------------------

    def _availability_changed(self, available: bool) -> None:
        asyncio.get_running_loop().create_task(self._announce(available))

    async def _announce(self, available: bool) -> None:
        notice = service_notice(available)
        for table in list(self.tables.values()):
            await self.fanout.publish(table.channel(), {"notice": notice})
            if available:
                table.tell(Wake())  # automatic play refused during the outage is planned again

    def notice(self) -> dict[str, Any] | None:
        """What a client connecting now should be told about the service (nothing when all is well)."""
        return None if self.storage.available else service_notice(False)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.deadline_sweeper.stop()
        for table in list(self.tables.values()):
            if (sync := self._syncs.pop(table.code, None)) is not None:
                await sync.stop()
            table.tell(Close())
            await table.settled()
        await asyncio.gather(*self._closing.values(), return_exceptions=True)

"""Turn-based tables' deadlines, stored: what each waits for next survives restarts and hand-overs.

A turn-based table that nobody has open is in no process's memory, yet its clock runs: when a
player's time runs out, or a bot is to move after them, someone must act. Each turn-based table keeps
one row (:data:`~chickenfoot.server.storage.turn_deadlines`): its version and when its next automatic
action is due. The process driving the table writes it with every change, before the change is told
(:meth:`DeadlineBook.keep`): whoever hears of a move reads the table waiting for the right seat.
Every process sweeps the rows due (:class:`DeadlineSweeper`); of several, one claims a row (a
conditional update: the claim is the row's, for a while) and reads the table into memory, where the
table's lease holder acts as on any table's timer. A row behind its table's latest action (its writer
was killed between storing the action and the row) counts as due, so nothing is lost; storing an
action by its version makes acting twice impossible anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Protocol

import sqlalchemy as sa

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.storage import Storage, StorageUnavailable, actions, turn_deadlines
from chickenfoot.server.table.commands import Command, Wake

log = logging.getLogger(__name__)

CLAIM_SECONDS = 60.0
"""How long a claimed row is left to its claimer before another process may claim it."""
BEHIND_SECONDS = 30.0
"""How long a row may stay behind its table's latest action before it is taken for one a killed process
left (the process driving the table stores the action, then the row: a moment, unless it died between)."""


def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


class DeadlineBook:
    """The stored deadlines of turn-based tables."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage, self.clock = storage, clock

    async def keep(self, code: str, version: int, due: float | None, seat: int | None) -> None:
        """Table ``code`` waits, at ``version``, for what is due at ``due`` (``None``: for nothing): the
        time of ``seat``'s player running out, or (``seat`` ``None``) an automatic action."""
        row = turn_deadlines.c.table_code == code
        async with self.storage.transaction() as conn:
            stored = (await conn.execute(sa.select(turn_deadlines).where(row))).first()
            if stored is not None and due is not None and (stored.version, stored.seat) == (version, seat):
                same = abs(_aware(stored.due_at).timestamp() - due) < 0.001
                if same:
                    return  # a process that loads the table keeps what the row says: its claim stays
            await conn.execute(turn_deadlines.delete().where(row))
            if due is not None:
                values = {"table_code": code, "version": version, "due_at": _at(due), "seat": seat}
                await conn.execute(turn_deadlines.insert().values(**values))

    async def due_at(self, code: str) -> tuple[int, float] | None:
        """Table ``code``'s stored version and deadline, if it keeps one."""
        query = sa.select(turn_deadlines.c.version, turn_deadlines.c.due_at).where(turn_deadlines.c.table_code == code)
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row[0]), _aware(row[1]).timestamp())

    async def claim(self, limit: int) -> list[str]:
        """Claim up to ``limit`` rows due now (or behind their table's latest action) that nobody holds;
        returns their tables' codes."""
        now = utc(self.clock)
        stored_before = _at(now.timestamp() - BEHIND_SECONDS)
        newer = sa.exists().where(
            actions.c.table_code == turn_deadlines.c.table_code,
            actions.c.version > turn_deadlines.c.version,
            sa.or_(actions.c.at.is_(None), actions.c.at <= stored_before),
        )
        free = sa.or_(turn_deadlines.c.claimed_until.is_(None), turn_deadlines.c.claimed_until < now)
        query = (
            sa.select(turn_deadlines.c.table_code, turn_deadlines.c.version)
            .where(free, sa.or_(turn_deadlines.c.due_at <= now, newer))
            .order_by(turn_deadlines.c.due_at)
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            candidates = [(str(code), int(version)) for code, version in await conn.execute(query)]
        claimed = []
        until = _at(now.timestamp() + CLAIM_SECONDS)
        for code, version in candidates:
            mine = (turn_deadlines.c.table_code == code) & (turn_deadlines.c.version == version) & free
            async with self.storage.transaction() as conn:
                taken = await conn.execute(turn_deadlines.update().where(mine).values(claimed_until=until))
            if taken.rowcount == 1:
                claimed.append(code)
        return claimed


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class Wakeable(Protocol):
    """What the sweeper needs of a table: to be woken (it plans what is due, and its lease holder acts)."""

    def tell(self, command: Command[Any]) -> None: ...


class DeadlineSweeper:
    """Claims the due deadlines every ``every`` seconds and wakes their tables (read into memory)."""

    def __init__(
        self,
        book: DeadlineBook,
        tables: Callable[[str], Awaitable[Wakeable | None]],
        clock: Clock,
        every: float = 5.0,
        batch: int = 50,
    ) -> None:
        self.book, self.tables, self.clock, self.every, self.batch = book, tables, clock, every, batch
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except StorageUnavailable:
                pass  # the outage is reported already; the next sweep tries again
            except Exception:
                log.exception("sweeping turn deadlines failed")
            await self.clock.sleep(self.every)

    async def sweep(self) -> list[str]:
        """Claim what is due and wake those tables; returns their codes."""
        codes = await self.book.claim(self.batch)
        for code in codes:
            table = await self.tables(code)
            if table is not None:
                table.tell(Wake())
                log.info("table %s: a turn deadline is due", code)
        return codes

"""The tables that wait for an account, and its vacations. Every refusal is a
:class:`~chickenfoot.server.refusals.Refusal`.

A vacation stands the account's clocks at every turn-based table it plays, from now for a number of
whole days, within :data:`VACATION_DAYS` a calendar year (UTC), as on Lichess and Board Game Arena.
Each table keeps the vacation of its seat in its configuration (so every process, after any restart,
reads the same deadline) and shows it to everyone there.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import SetAway
from chickenfoot.server.turns.store import TurnStore, Vacation

log = logging.getLogger(__name__)

VACATION_DAYS = 30
"""Days of vacation an account may take per calendar year."""
WAITING_SHOWN = 100
"""Tables listed as waiting for an account at most (the count shows as many)."""
DAY = timedelta(days=1)


TableGetter = Callable[[str], Awaitable[Table | None]]


def days_used(vacations: list[Vacation], year_start: datetime, now: datetime) -> int:
    """Whole days of vacation taken in the year from ``year_start`` (a running one counted to its end).

    >>> start = datetime(2026, 1, 1, tzinfo=UTC)
    >>> days_used([Vacation(start - DAY, start + 2.5 * DAY)], start, start + DAY)
    3
    """
    used = 0.0
    for vacation in vacations:
        used += max(0.0, (vacation.ends - max(vacation.starts, year_start)) / DAY)
    return math.ceil(used - 1e-9)


class Turns:
    def __init__(self, store: TurnStore, tables: TableGetter, clock: Clock) -> None:
        self.store, self.tables, self.clock = store, tables, clock

    async def waiting(self, account_id: int) -> dict[str, Any]:
        """The turn-based tables waiting for the account's move, the least time left first."""
        waiting = await self.store.waiting(account_id, WAITING_SHOWN)
        return {
            "count": len(waiting),
            "tables": [{"table": w.table, "seat": w.seat, "due": w.due.timestamp()} for w in waiting],
        }

    async def vacation(self, account_id: int) -> dict[str, Any]:
        """The account's vacation: the days left this year, and until when it is away (if it is)."""
        now = utc(self.clock)
        year_start = datetime(now.year, 1, 1, tzinfo=UTC)
        taken = await self.store.vacations_since(account_id, year_start)
        running = [v for v in taken if v.starts <= now < v.ends]
        return {
            "days_a_year": VACATION_DAYS,
            "left": max(0, VACATION_DAYS - days_used(taken, year_start, now)),
            "until": running[-1].ends.timestamp() if running else None,
        }

    async def go_away(self, account_id: int, days: int) -> dict[str, Any]:
        """Start a vacation of ``days`` days now; refused past the days left this year, or while on one."""
        facts = await self.vacation(account_id)
        if facts["until"] is not None or days > facts["left"]:
            raise Refusal.conflict(Said.of(Code.ERROR_VACATION_DAYS, count=int(facts["left"])))
        now = utc(self.clock)
        ends = now + days * DAY
        await self.store.take(account_id, now, ends)
        await self._tell_tables(account_id, now.timestamp(), ends.timestamp())
        return await self.vacation(account_id)

    async def come_back(self, account_id: int) -> dict[str, Any]:
        """End the running vacation now (the days not used are kept; the clocks stood until now)."""
        now = utc(self.clock)
        started = await self.store.end(account_id, now)
        if started is not None:
            await self._tell_tables(account_id, started.timestamp(), now.timestamp())
        return await self.vacation(account_id)

    async def _tell_tables(self, account_id: int, since: float, until: float) -> None:
        """Every turn-based table the account plays keeps its vacation, from ``since`` to ``until``."""
        for code, seat in await self.store.playing(account_id):
            table = await self.tables(code)
            if table is not None:
                await table.submit(SetAway(seat, since, until))

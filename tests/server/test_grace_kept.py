"""An absent player's grace survives the table being read back: a flaky client of another seat, or a
watcher, that reconnects every 8 s (the table leaving memory between its visits) never restarts it,
and the seat is covered 12 s after its player went, on a fake clock."""

from __future__ import annotations

import asyncio

from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.commands import Attach, Detach
from chickenfoot.server.table.config import Seat, TableConfig, Timing
from chickenfoot.server.table.ports import Message
from chickenfoot.server.table.protocol import LogSent
from chickenfoot.server.table.registry import TableRegistry

GRACE = 12.0
TIMING = Timing(bot_delay=60, forced_delay=60, next_round_delay=60, grace=GRACE)
"""Only the grace is short: no automatic move happens while the test looks."""
EVERY, STAYS = 8.0, 5.0
"""The flaky client comes back every 8 s and stays 5 s (gone at 5, back at 8, gone at 13, ...)."""
STEP = 0.125
"""The fake clock's step while the visitor looks (exact in binary: the moments add up exactly)."""


class Page:
    def attached(self, first: str, log_sent: LogSent) -> None:
        pass

    def on_change(self, message: Message) -> None:
        pass


async def covered_over_time(database_url: str, seat: int | None) -> dict[float, list[bool]]:
    """Seat 1's player is gone from the start; ``seat`` (``None``: a watcher) comes and goes. Which
    seats are covered, at the moments the visitor sees the table."""
    clock = FakeClock()
    storage = Storage(database_url, clock)
    registry = TableRegistry(storage, LocalBus(), TIMING, LocalConnections(), clock)
    seats = [Seat("human", "Ann", taken=True), Seat("human", "Bo", taken=True)]
    created = await registry.create(TableConfig(Rules(), seats, seed=5, playing_since=clock.now()))
    code = created.code
    registry.release(created)  # nobody is here: the table is read back by each visit
    seen: dict[float, list[bool]] = {}
    try:
        for visit in range(3):
            table = await registry.get(code)
            assert table is not None and table.counts.spectators == 0
            await table.submit(Attach(seat, Page()))
            await table.settled()
            for _ in range(int(STAYS / STEP)):
                clock.advance(STEP)
                await table.settled()
                seen[clock.monotonic()] = [table.automatic(s) for s in range(2)]
            await table.submit(Detach(seat))
            registry.left(table)
            clock.advance(EVERY - STAYS)
            await asyncio.sleep(0)
            assert visit == 2 or code not in registry.tables  # released between the visits
    finally:
        await registry.close()
        await storage.close()
    return seen


def first_covered(seen: dict[float, list[bool]], seat: int) -> float:
    return min(at for at, covered in seen.items() if covered[seat])


def test_a_flaky_client_reconnecting_every_8_s_does_not_restart_the_absent_seats_grace(database_url: str) -> None:
    seen = asyncio.run(covered_over_time(database_url, 0))
    assert first_covered(seen, 1) == GRACE  # Bo's grace ran from the first read-back, through two more
    assert not any(covered[0] for covered in seen.values())  # Ann is back each time within her own grace


def test_a_watcher_reconnecting_every_8_s_does_not_restart_the_graces(database_url: str) -> None:
    seen = asyncio.run(covered_over_time(database_url, None))
    assert first_covered(seen, 0) == GRACE and first_covered(seen, 1) == GRACE

"""What the rest of the server asks of ratings: an account's rating, recording a finished rated match
(once, whichever process sees it end), and telling the table's players how their ratings changed."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import Family, Rating, family_of, update
from chickenfoot.server.ratings.rated import RatedMatch, rated_match
from chickenfoot.server.ratings.store import Change, RatingStore
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.commands import Notify
from chickenfoot.server.table.registry import TableRegistry

log = logging.getLogger(__name__)

ACTIVE_DAYS = 30
"""A leaderboard lists players with a rated match in the last 30 days: a domino table meets weekly or
monthly, so a week would empty the board between club nights; a season-long window would keep the departed."""


def rating_notice(code: str, changes: list[Change]) -> dict[str, object]:
    """The ``rating`` message every client of the table gets once its match is rated (docs/protocol.md)."""
    return {"type": "rating", "code": code, "changes": [change.wire() for change in changes]}


class LevelRatings:
    """The bot level whose fixed rating is nearest a rating (tables of four): quick play's ``BotRatings``."""

    def near(self, rating: float) -> str:
        levels = LEVEL_RATINGS["3-4"]
        return min(levels, key=lambda level: abs(levels[level].shown - rating))


class Ratings:
    """Accounts' ratings; bots' levels are rated at their fixed :data:`LEVEL_RATINGS`."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.store = RatingStore(storage)
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()

    async def of(self, account_id: int, family: Family) -> Rating:
        """The account's rating in ``family`` (a new account's default when it has none yet)."""
        return await self.store.of(account_id, family)

    async def record(self, match: RatedMatch) -> list[Change] | None:
        """Update the ratings of a finished rated match; ``None`` if it was rated already (by any process)."""
        accounts = {s: seat.account_id for s, seat in enumerate(match.seats) if seat.account_id is not None}
        if not accounts:
            return None

        def rate(before: dict[int, Rating]) -> dict[int, tuple[Rating, int]]:
            fixed = LEVEL_RATINGS[match.family]
            current = [before[s] if s in before else fixed[seat.level or ""] for s, seat in enumerate(match.seats)]
            ranks = [seat.rank for seat in match.seats]
            after = update(current, ranks, match.family)
            return {s: (after[s], ranks[s]) for s in accounts}

        return await self.store.record(match.code, match.family, accounts, rate, utc(self.clock))

    async def shown_of(self, account_id: int, family: str) -> float:
        """The account's rating as people read it, in quick play's family names (``two``, ``multi``):
        quick play's ``RatingLookup``."""
        known = family_of(2 if family == "two" else 4)
        assert known is not None
        return float((await self.of(account_id, known)).shown)

    def active_since(self) -> datetime:
        return utc(self.clock) - timedelta(days=ACTIVE_DAYS)

    # --- the end of a match -----------------------------------------------------------------------

    def follow(self, hub: TableRegistry) -> None:
        """Rate every rated match this process sees end, and tell its table (``TableRegistry.on_match_finished``)."""

        def finished(code: str) -> None:
            task = asyncio.get_running_loop().create_task(self._rate(hub, code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        hub.on_match_finished(finished)

    async def _rate(self, hub: TableRegistry, code: str) -> None:
        try:
            table = await hub.get(code)
            if table is None or not table.config.rated:
                return
            match = rated_match(code, table.config, table.match, await self.store.seat_accounts(code))
            changes = None if match is None else await self.record(match)
            if changes:
                await table.submit(Notify(rating_notice(code, changes)))
        except Exception:
            log.exception("rating table %s's match failed", code)

    async def settle(self) -> None:
        """Wait for the ratings being recorded (a test's event, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

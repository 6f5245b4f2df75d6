"""What the rest of the server asks of ratings: an account's rating, recording a finished rated match
(once, whichever process sees it end), and telling the table's players how their ratings changed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.http.kept import Kept
from chickenfoot.server.http.tables import TableGetter
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import FAMILIES, Family, Rating, family_of, update
from chickenfoot.server.ratings.rated import RatedMatch, rated_match, why_not_rated
from chickenfoot.server.ratings.store import Change, HistoryPoint, RatingStore
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.commands import Notify
from chickenfoot.server.table.config import TableConfig

log = logging.getLogger(__name__)

PLACES_SECONDS = 30.0
"""How long the places of a family's players are kept once read (a rated match recorded here reads them again)."""
ACTIVE_DAYS = 30
"""A leaderboard lists players with a rated match in the last 30 days: a domino table meets weekly or
monthly, so a week would empty the board between club nights; a season-long window would keep the departed."""


def rating_notice(code: str, changes: list[Change]) -> dict[str, object]:
    """The ``rating`` message every client of the table gets once its match is rated (docs/protocol.md)."""
    return {"type": "rating", "code": code, "changes": [change.wire() for change in changes]}


class LevelRatings:
    """The bot level whose fixed rating is nearest a rating (tables of four): quick play's ``BotRatings``."""

    def near(self, rating: float) -> str:
        levels = LEVEL_RATINGS[Family.TABLE_OF_MORE]
        return min(levels, key=lambda level: abs(levels[level].shown - rating))


class Ratings:
    """Accounts' ratings; bots' levels are rated at their fixed :data:`LEVEL_RATINGS`."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.store = RatingStore(storage)
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        self._rated_hooks: list[Callable[[str, list[Change]], object]] = []
        self._places: dict[Family, tuple[float, dict[int, int]]] = {}
        self._reading_places = {family: asyncio.Lock() for family in FAMILIES}
        self.kept = Kept(clock)
        """The ratings pages and leaderboards built in the last seconds."""

    def on_rated(self, hook: Callable[[str, list[Change]], object]) -> None:
        """Call ``hook`` with a table's code and its players' rating changes once its match is rated (in
        the one process that rated it)."""
        self._rated_hooks.append(hook)

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

        changes = await self.store.record(match.code, match.family, accounts, rate, utc(self.clock))
        if changes is not None:  # the players' pages and the leaderboards are read again (other processes' in seconds)
            self._places.pop(match.family, None)
            self.kept.clear()
        return changes

    async def shown_of(self, account_id: int, players: int) -> float:
        """The account's rating as people read it, for a table of ``players`` (2 or 4): quick play's
        ``RatingLookup``."""
        family = family_of(players)
        assert family is not None, "quick play seats two or four"
        return float((await self.of(account_id, family)).shown)

    def active_since(self) -> datetime:
        return utc(self.clock) - timedelta(days=ACTIVE_DAYS)

    async def standing(self, account_id: int, family: Family) -> tuple[Rating, int | None, list[HistoryPoint]]:
        """The account's rating in ``family``, its rank among the active players and its history."""
        rating = await self.store.of(account_id, family)
        return rating, await self.rank(account_id, family), await self.store.history(account_id, family)

    async def rank(self, account_id: int, family: Family) -> int | None:
        """The account's place on the leaderboard (``None``: provisional, or not active lately).

        The places of the whole family are read in one ordered pass and kept for :data:`PLACES_SECONDS`
        (or until this process records a rated match of the family), one read at a time: a flood of
        profiles costs no count over every rating per request. A rank kept on each rating's row instead
        would have every rated match rewrite the rows of all the players it passes, and an inactive
        player's leaving the window would move every rank below it without any write to hang it on.
        """
        async with self._reading_places[family]:
            kept = self._places.get(family)
            if kept is None or kept[0] <= self.clock.monotonic():
                kept = self.clock.monotonic() + PLACES_SECONDS, await self.store.places(family, self.active_since())
                self._places[family] = kept
        return kept[1].get(account_id)

    async def data_of(self, account_id: int) -> dict[str, Any]:
        """What the ratings keep of the account, for its data download: its rating in each family and
        every change of them, match by match."""
        now = {family: (await self.store.of(account_id, family)).wire() for family in FAMILIES}
        return {"ratings": {"now": now, "changes": await self.store.changes_of(account_id)}}

    # --- the end of a match -----------------------------------------------------------------------

    def rating(self, tables: TableGetter) -> Callable[[str], None]:
        """The hook (of ``TableRegistry.on_match_finished``) that rates every rated match this process sees end, of
        the tables ``tables`` finds, and tells its table."""

        def finished(code: str) -> None:
            task = asyncio.get_running_loop().create_task(self._rate(tables, code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return finished

    async def _rate(self, tables: TableGetter, code: str) -> None:
        try:
            table = await tables(code)
            if table is None or not table.config.rated:
                return
            accounts = await self.store.seat_accounts(code)
            match = rated_match(code, table.config, table.match, accounts, absent=table.absent())
            changes = None if match is None else await self.record(match)
            if changes:
                await table.submit(Notify(rating_notice(code, changes)))
                for hook in self._rated_hooks:
                    hook(code, changes)
        except Exception:
            log.exception("rating table %s's match failed", code)

    async def settle(self) -> None:
        """Wait for the ratings being recorded (a test's event, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


async def make_rated(accounts: Accounts, connection: HTTPConnection, config: TableConfig) -> None:
    """Mark a new table rated; refuses (invalid, forbidden) a table that cannot be, or a creator without an account."""
    if (why := why_not_rated(config.rules, config.seats)) is not None:
        raise Refusal.invalid(why)
    if await accounts.signed_in(connection) is None:
        raise Refusal(Why.FORBIDDEN, Said.of(Code.RATING_SIGN_IN))
    config.rated = True


async def admit(accounts: Accounts, connection: HTTPConnection, code: str, config: TableConfig) -> None:
    """Refuse (forbidden) a guest a seat at the rated table ``code``, and an account a second seat there:
    every person there plays as an account, one seat each."""
    if not config.rated:
        return
    signed_in = await accounts.signed_in(connection)
    if signed_in is None:
        raise Refusal(Why.FORBIDDEN, Said.of(Code.RATING_SIGN_IN))
    await one_seat_each(accounts, code, config, signed_in.account.id)


async def one_seat_each(accounts: Accounts, code: str, config: TableConfig, account_id: int) -> None:
    """Refuse (forbidden) ``account_id`` a second seat at the rated table ``code``: a match it played
    against itself would count for nobody (:func:`.rated.rated_match`), so it is not begun."""
    if config.rated and await accounts.store.holds_seat(code, account_id):
        raise Refusal(Why.FORBIDDEN, Said.of(Code.RATING_TWO_SEATS))

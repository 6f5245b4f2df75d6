"""The ratings' queries: each account's rating, recording a rated match once, history and leaderboards."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.ratings.model import PROVISIONAL_SIGMA, Family, Rating
from chickenfoot.server.ratings.schema import rated_matches, rating_changes, ratings
from chickenfoot.server.storage import Storage, aware


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's rating before and after a rated match."""

    seat: int
    account_id: int
    before: Rating
    after: Rating
    rank: int

    def wire(self) -> dict[str, object]:
        """As the match-over results show it: ``1512 → 1530 (+18)``."""
        return {
            "seat": self.seat,
            "before": self.before.shown,
            "after": self.after.shown,
            "delta": self.after.shown - self.before.shown,
            "provisional": self.after.provisional,
        }


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    at: datetime
    rating: Rating
    table_code: str
    before: Rating
    """The rating the match started from (the first match's: where the history begins)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a leaderboard."""

    username: str
    rating: Rating
    last_played: datetime
    form: tuple[int, ...]
    """The shown rating changes of the latest matches, newest first."""
    bot: bool = False
    """A bot account's row (the page tags its name ``BOT``)."""


FORM_MATCHES = 5
RECORD_ATTEMPTS = 3
"""A match whose recording lost a race for a new player's first row is recorded again (twice at most)."""


class RatingStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def of(self, account_id: int, family: Family) -> Rating:
        query = sa.select(ratings.c.mu, ratings.c.sigma, ratings.c.matches).where(
            ratings.c.account_id == account_id, ratings.c.family == family
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return Rating() if row is None else Rating(float(row.mu), float(row.sigma), int(row.matches))

    async def seat_accounts(self, code: str) -> dict[int, int]:
        """The account that sat in each seat of table ``code``."""
        query = sa.select(account_seats.c.seat, account_seats.c.account_id).where(account_seats.c.table_code == code)
        async with self.storage.reading() as conn:
            return {int(seat): int(account) for seat, account in await conn.execute(query)}

    async def record(
        self,
        code: str,
        family: Family,
        seat_accounts: Mapping[int, int],
        rate: Callable[[dict[int, Rating]], dict[int, tuple[Rating, int]]],
        at: datetime,
    ) -> list[Change] | None:
        """Rate match ``code`` once: ``rate`` turns the seats' ratings before into each seat's rating
        after and rank. ``None`` when the match was rated already (here or by another process).

        The match's row in ``rated_matches`` is inserted first, in the same transaction as the new
        ratings: of two processes recording it, the second's insert fails and it changes nothing.
        The accounts' rows are locked (PostgreSQL) so two matches of one player never lose an update;
        a new player has no row to lock, so of two first matches recorded at once one fails to insert
        it, and is recorded again (then the row is there).
        """
        attempts = RECORD_ATTEMPTS
        while True:
            try:
                return await self._record_once(code, family, seat_accounts, rate, at)
            except sa.exc.IntegrityError:
                attempts -= 1
                if attempts == 0 or await self._rated(code):
                    return None

    async def _rated(self, code: str) -> bool:
        async with self.storage.reading() as conn:
            query = sa.select(rated_matches.c.table_code).where(rated_matches.c.table_code == code)
            return (await conn.execute(query)).first() is not None

    async def _record_once(
        self,
        code: str,
        family: Family,
        seat_accounts: Mapping[int, int],
        rate: Callable[[dict[int, Rating]], dict[int, tuple[Rating, int]]],
        at: datetime,
    ) -> list[Change]:
        async with self.storage.transaction() as conn:
            await conn.execute(rated_matches.insert().values(table_code=code, family=family, finished_at=at))
            ids = sorted(set(seat_accounts.values()))
            query = (
                sa.select(ratings.c.account_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
                .where(ratings.c.family == family, ratings.c.account_id.in_(ids))
                .with_for_update()
            )
            known = {
                int(r.account_id): Rating(float(r.mu), float(r.sigma), int(r.matches))
                for r in await conn.execute(query)
            }
            before = {seat: known.get(account, Rating()) for seat, account in seat_accounts.items()}
            after = rate(before)
            changes = [
                Change(seat, account, before[seat], after[seat][0], after[seat][1])
                for seat, account in sorted(seat_accounts.items())
            ]
            for change in changes:
                values = {
                    "mu": change.after.mu,
                    "sigma": change.after.sigma,
                    "matches": change.after.matches,
                    "last_played": at,
                }
                if change.account_id in known:
                    mine = (ratings.c.account_id == change.account_id) & (ratings.c.family == family)
                    await conn.execute(ratings.update().where(mine).values(**values))
                else:
                    await conn.execute(ratings.insert().values(account_id=change.account_id, family=family, **values))
            await conn.execute(
                rating_changes.insert(),
                [
                    {
                        "table_code": code,
                        "seat": c.seat,
                        "account_id": c.account_id,
                        "family": family,
                        "rank": c.rank,
                        "mu_before": c.before.mu,
                        "sigma_before": c.before.sigma,
                        "mu_after": c.after.mu,
                        "sigma_after": c.after.sigma,
                        "at": at,
                    }
                    for c in changes
                ],
            )
        return changes

    async def changes(self, code: str) -> list[Change]:
        """The rating changes of match ``code`` (none until it is rated)."""
        query = sa.select(rating_changes).where(rating_changes.c.table_code == code).order_by(rating_changes.c.seat)
        async with self.storage.reading() as conn:
            rows = list(await conn.execute(query))
        return [
            Change(
                int(r.seat),
                int(r.account_id),
                Rating(float(r.mu_before), float(r.sigma_before)),
                Rating(float(r.mu_after), float(r.sigma_after)),
                int(r.rank),
            )
            for r in rows
        ]

    async def history(self, account_id: int, family: Family) -> list[HistoryPoint]:
        query = (
            sa.select(rating_changes)
            .where(rating_changes.c.account_id == account_id, rating_changes.c.family == family)
            .order_by(rating_changes.c.at, rating_changes.c.table_code)
        )
        async with self.storage.reading() as conn:
            rows = list(await conn.execute(query))
        return [
            HistoryPoint(
                aware(r.at),
                Rating(float(r.mu_after), float(r.sigma_after), n),
                str(r.table_code),
                Rating(float(r.mu_before), float(r.sigma_before), n - 1),
            )
            for n, r in enumerate(rows, 1)
        ]

    async def changes_of(self, account_id: int) -> list[dict[str, object]]:
        """Every rating change of the account, the oldest first: its data download's ratings history."""
        query = (
            sa.select(rating_changes)
            .where(rating_changes.c.account_id == account_id)
            .order_by(rating_changes.c.at, rating_changes.c.table_code)
        )
        async with self.storage.reading() as conn:
            rows = list(await conn.execute(query))
        return [
            {
                "table": str(r.table_code),
                "family": str(r.family),
                "seat": int(r.seat),
                "rank": int(r.rank),
                "at": aware(r.at).isoformat(),
            }
            | Change(
                int(r.seat),
                account_id,
                Rating(float(r.mu_before), float(r.sigma_before)),
                Rating(float(r.mu_after), float(r.sigma_after)),
                int(r.rank),
            ).wire()
            for r in rows
        ]

    async def leaderboard(self, family: Family, since: datetime, limit: int) -> list[Standing]:
        """The established players active since ``since``, best first."""
        query = (
            sa.select(
                accounts.c.id,
                accounts.c.username,
                ratings.c.mu,
                ratings.c.sigma,
                ratings.c.matches,
                ratings.c.last_played,
                accounts.c.bot,
            )
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(
                ratings.c.family == family,
                ratings.c.last_played >= since,
                ratings.c.sigma <= PROVISIONAL_SIGMA,
                ~accounts.c.deleted,
            )
            .order_by(ratings.c.mu.desc(), accounts.c.id)
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            rows = list(await conn.execute(query))
            forms = await self._forms(conn, family, [int(r.id) for r in rows])
        return [
            Standing(
                str(r.username),
                Rating(float(r.mu), float(r.sigma), int(r.matches)),
                aware(r.last_played),
                forms.get(int(r.id), ()),
                bool(r.bot),
            )
            for r in rows
        ]

    async def _forms(self, conn: AsyncConnection, family: Family, ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        if not ids:
            return {}
        newest = (
            sa.func.row_number()
            .over(
                partition_by=rating_changes.c.account_id,
                order_by=(rating_changes.c.at.desc(), rating_changes.c.table_code.desc()),
            )
            .label("n")
        )
        inner = (
            sa.select(rating_changes.c.account_id, rating_changes.c.mu_before, rating_changes.c.mu_after, newest)
            .where(rating_changes.c.family == family, rating_changes.c.account_id.in_(ids))
            .subquery()
        )
        query = sa.select(inner).where(inner.c.n <= FORM_MATCHES).order_by(inner.c.account_id, inner.c.n)
        forms: dict[int, list[int]] = {}
        for r in await conn.execute(query):
            forms.setdefault(int(r.account_id), []).append(
                Rating(float(r.mu_after)).shown - Rating(float(r.mu_before)).shown
            )
        return {account: tuple(form) for account, form in forms.items()}

    async def places(self, family: Family, since: datetime) -> dict[int, int]:
        """Each established player's place on the leaderboard of players active since ``since`` (one ordered
        read of the family's index; the ranks of every player at once)."""
        query = (
            sa.select(ratings.c.account_id)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(
                ratings.c.family == family,
                ratings.c.last_played >= since,
                ratings.c.sigma <= PROVISIONAL_SIGMA,
                ~accounts.c.deleted,
            )
            .order_by(ratings.c.mu.desc(), ratings.c.account_id)
        )
        async with self.storage.reading() as conn:
            ordered = (await conn.execute(query)).scalars().all()
        return {int(account): place for place, account in enumerate(ordered, 1)}

"""Players' match history: which account sat in which seat of which match, and how each finished match went.

A finished match's result per seat (won or not, the player count, when it ended, the review's
accuracy) is a row of ``match_results``, written when the match finishes and, for a match finished
before this table existed or while its process was stopping, the first time a history needs it
(:meth:`MatchHistory.backfill`, bounded per request: it replays the match). Accuracy is read from
the stored review once it exists. Everything a profile lists is then one or two indexed queries.

Players are named by their public name only: the name chosen at the table, the account's username
(a link to its profile) or, for an account deleted since, nothing but ``deleted`` (the page says
"deleted player" in its reader's language).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.match import Match
from chickenfoot.review import Review
from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.storage import Storage, StorageUnavailable, game_tables, reviews
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.registry import TableRegistry

log = logging.getLogger(__name__)
metadata = sa.MetaData()
match_results = sa.Table(
    "match_results",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # The seat's accuracy in the stored review (``None``: not reviewed yet, or a seat the review skipped).
    sa.Column("accuracy", sa.Float, nullable=True),
    sa.Column("reviewed", sa.Boolean, nullable=False, server_default=sa.false()),
)
"""(created by migration 0010_profiles)"""


@dataclass(frozen=True, slots=True)
class SeatAt:
    """One seat of one match as a history lists it."""

    code: str
    seat: int
    created_at: datetime
    over: bool
    config: TableConfig
    won: bool | None
    finished_at: datetime | None
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class Tally:
    players: int
    played: int
    won: int


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite drops the zone


def result_rows(code: str, match: Match, at: datetime) -> list[dict[str, Any]]:
    """``match_results`` rows of a finished match: one per seat."""
    winners = set(match.winners())
    return [
        {"table_code": code, "seat": s, "players": match.players, "won": s in winners, "finished_at": at}
        for s in range(match.players)
    ]


def seat_accuracies(stored: str) -> dict[int, float]:
    """Each reviewed seat's accuracy in a stored review (milliseconds for a long match: run off the loop)."""
    review = Review.from_dict(json.loads(stored))
    return {summary.seat: round(summary.accuracy, 1) for summary in review.summary()}


class MatchHistory:
    def __init__(self, storage: Storage, hub: TableRegistry) -> None:
        self.storage, self.hub = storage, hub
        self._tasks: set[asyncio.Task[None]] = set()

    def finished(self, code: str) -> None:
        """A table's match is over: its results are stored (a hook of :meth:`TableRegistry.on_match_finished`)."""
        task = asyncio.get_running_loop().create_task(self._finished(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finished(self, code: str) -> None:
        try:
            await self._record_from_table(code)
        except StorageUnavailable:
            log.warning("results of %s not stored: the game store is unavailable (a history stores them later)", code)

    async def _record_from_table(self, code: str) -> None:
        table = await self.hub.get(code)
        if table is not None and table.match.is_over():
            at = await self.storage.last_action_time(code)
            await self.record(code, table.match, at or datetime.now(UTC))

    async def record(self, code: str, match: Match, at: datetime) -> None:
        """Store a finished match's results (once: another process may have stored them first)."""
        try:
            async with self.storage.transaction() as conn:
                await conn.execute(match_results.insert(), result_rows(code, match, at))
        except sa.exc.IntegrityError:
            pass

    # --- what a history lists -----------------------------------------------------------------

    def _seats(self, account_id: int, finished_only: bool) -> sa.Select[Any]:
        joined = account_seats.join(game_tables, game_tables.c.code == account_seats.c.table_code).outerjoin(
            match_results,
            (match_results.c.table_code == account_seats.c.table_code) & (match_results.c.seat == account_seats.c.seat),
        )
        query = sa.select(
            account_seats.c.table_code,
            account_seats.c.seat,
            game_tables.c.created_at,
            game_tables.c.over,
            game_tables.c.config,
            match_results.c.won,
            match_results.c.finished_at,
            match_results.c.accuracy,
        ).select_from(joined)
        query = query.where(account_seats.c.account_id == account_id)
        return query.where(game_tables.c.over.is_(True)) if finished_only else query

    async def matches(
        self, account_id: int, *, finished_only: bool, offset: int, limit: int
    ) -> tuple[list[SeatAt], int]:
        """A page of the account's matches, the newest first, and how many there are in all."""
        query = self._seats(account_id, finished_only)
        page = query.order_by(game_tables.c.created_at.desc(), account_seats.c.table_code).offset(offset).limit(limit)
        count = sa.select(sa.func.count()).select_from(query.subquery())
        async with self.storage.reading() as conn:
            rows = (await conn.execute(page)).all()
            total = int((await conn.execute(count)).scalar_one())
        return [
            SeatAt(
                str(row.table_code),
                int(row.seat),
                _aware(row.created_at),
                bool(row.over),
                TableConfig.from_json(json.loads(row.config)),
                None if row.won is None else bool(row.won),
                None if row.finished_at is None else _aware(row.finished_at),
                row.accuracy,
            )
            for row in rows
        ], total

    async def tallies(self, account_id: int) -> list[Tally]:
        """Finished matches played and won, by player count."""
        mine = (match_results.c.table_code == account_seats.c.table_code) & (
            match_results.c.seat == account_seats.c.seat
        )
        query = (
            sa.select(
                match_results.c.players,
                sa.func.count(),
                sa.func.sum(sa.case((match_results.c.won, 1), else_=0)),
            )
            .select_from(account_seats.join(match_results, mine))
            .where(account_seats.c.account_id == account_id)
            .group_by(match_results.c.players)
            .order_by(match_results.c.players)
        )
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return [Tally(int(players), int(played), int(won or 0)) for players, played, won in rows]

    async def accuracy(self, account_id: int, limit: int) -> list[tuple[str, datetime, float]]:
        """The account's accuracy in its latest reviewed matches, the oldest first: (code, finished, accuracy)."""
        mine = (match_results.c.table_code == account_seats.c.table_code) & (
            match_results.c.seat == account_seats.c.seat
        )
        query = (
            sa.select(match_results.c.table_code, match_results.c.finished_at, match_results.c.accuracy)
            .select_from(account_seats.join(match_results, mine))
            .where(account_seats.c.account_id == account_id, match_results.c.accuracy.is_not(None))
            .order_by(match_results.c.finished_at.desc())
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return [(str(code), _aware(at), float(value)) for code, at, value in reversed(rows)]

    async def names(self, codes: Iterable[str]) -> dict[str, dict[int, str | None]]:
        """The accounts that sat at these tables: ``{code: {seat: username, or None once deleted}}``."""
        wanted = sorted(set(codes))
        if not wanted:
            return {}
        query = (
            sa.select(account_seats.c.table_code, account_seats.c.seat, accounts.c.username, accounts.c.deleted)
            .select_from(account_seats.join(accounts, accounts.c.id == account_seats.c.account_id))
            .where(account_seats.c.table_code.in_(wanted))
        )
        found: dict[str, dict[int, str | None]] = {}
        async with self.storage.reading() as conn:
            for code, seat, username, deleted in await conn.execute(query):
                found.setdefault(str(code), {})[int(seat)] = None if deleted else username
        return found

    async def deleted_seats(self, code: str) -> list[int]:
        """The seats of table ``code`` whose account has been deleted."""
        return sorted(seat for seat, name in (await self.names([code])).get(code.upper(), {}).items() if name is None)

    # --- filling in what was not recorded when it happened --------------------------------------

    async def backfill(self, account_id: int, limit: int) -> int:
        """Record up to ``limit`` of the account's finished matches that have no results yet (each is
        replayed); then store the accuracy of up to ``limit`` reviewed since. How many were missing."""
        missing = (
            sa.select(account_seats.c.table_code)
            .select_from(
                account_seats.join(game_tables, game_tables.c.code == account_seats.c.table_code).outerjoin(
                    match_results, match_results.c.table_code == account_seats.c.table_code
                )
            )
            .where(
                account_seats.c.account_id == account_id,
                game_tables.c.over.is_(True),
                match_results.c.table_code.is_(None),
            )
            .distinct()
            .limit(limit)
        )
        unreviewed = (
            sa.select(match_results.c.table_code, reviews.c.review)
            .select_from(match_results.join(reviews, reviews.c.table_code == match_results.c.table_code))
            .join(
                account_seats,
                (account_seats.c.table_code == match_results.c.table_code)
                & (account_seats.c.seat == match_results.c.seat),
            )
            .where(account_seats.c.account_id == account_id, match_results.c.reviewed.is_(False))
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            codes = [str(code) for code in (await conn.execute(missing)).scalars()]
        for code in codes:
            await self._record_from_table(code)
        async with self.storage.reading() as conn:
            stored = (await conn.execute(unreviewed)).all()
        for code, review in stored:
            found = await asyncio.to_thread(seat_accuracies, review)
            async with self.storage.transaction() as conn:
                for seat in range(await self._players(conn, code)):
                    await conn.execute(
                        match_results.update()
                        .where(match_results.c.table_code == code, match_results.c.seat == seat)
                        .values(accuracy=found.get(seat), reviewed=True)
                    )
        return len(codes) + len(stored)

    async def _players(self, conn: AsyncConnection, code: str) -> int:
        query = sa.select(sa.func.count()).where(match_results.c.table_code == code)
        return int((await conn.execute(query)).scalar_one())

"""The match history's queries: which account sat in which seat of which match, and how each finished
match went (``match_results``); everything a profile lists is one or two indexed queries."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.history.schema import match_results
from chickenfoot.server.storage import Storage, aware, chat_lines, game_tables, reviews
from chickenfoot.server.table.config import TableConfig


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


def result_rows(code: str, players: int, winners: Collection[int], at: datetime) -> list[dict[str, Any]]:
    """``match_results`` rows of a finished match of ``players`` seats won by ``winners``: one per seat."""
    return [
        {"table_code": code, "seat": s, "players": players, "won": s in winners, "finished_at": at}
        for s in range(players)
    ]


class HistoryStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def record(self, code: str, players: int, winners: Collection[int], at: datetime) -> None:
        """Store a finished match's results (once: another process may have stored them first)."""
        try:
            async with self.storage.transaction() as conn:
                await conn.execute(match_results.insert(), result_rows(code, players, winners, at))
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
        self, account_id: int, *, finished_only: bool, offset: int, limit: int | None
    ) -> tuple[list[SeatAt], int]:
        """A page of the account's matches (``limit`` ``None``: all of them), the newest first, and how many
        there are in all."""
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
                aware(row.created_at),
                bool(row.over),
                TableConfig.from_json(json.loads(row.config)),
                None if row.won is None else bool(row.won),
                None if row.finished_at is None else aware(row.finished_at),
                row.accuracy,
            )
            for row in rows
        ], total

    async def chat_of(self, account_id: int) -> list[dict[str, Any]]:
        """The chat lines the account's seats said that the tables still keep, the oldest first."""
        said = (chat_lines.c.table_code == account_seats.c.table_code) & (chat_lines.c.seat == account_seats.c.seat)
        query = (
            sa.select(chat_lines.c.table_code, chat_lines.c.text, chat_lines.c.reaction, chat_lines.c.at)
            .select_from(chat_lines.join(account_seats, said))
            .where(account_seats.c.account_id == account_id)
            .order_by(chat_lines.c.at, chat_lines.c.table_code, chat_lines.c.number)
        )
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {"table": str(row.table_code), "at": aware(row.at).isoformat()}
            | ({"text": row.text} if row.text is not None else {"reaction": row.reaction})
            for row in rows
        ]

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
        return [(str(code), aware(at), float(value)) for code, at, value in reversed(rows)]

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

    # --- what was not recorded when it happened ----------------------------------------------------

    async def missing(self, account_id: int, limit: int) -> list[str]:
        """Up to ``limit`` of the account's finished matches that have no results yet."""
        query = (
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
        async with self.storage.reading() as conn:
            return [str(code) for code in (await conn.execute(query)).scalars()]

    async def unreviewed(self, account_id: int, limit: int) -> list[tuple[str, str]]:
        """Up to ``limit`` of the account's recorded matches reviewed since: (code, the stored review)."""
        query = (
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
            return [(str(code), str(review)) for code, review in await conn.execute(query)]

    async def record_accuracy(self, code: str, accuracy: Mapping[int, float]) -> None:
        """Store each seat's accuracy in the match's review (``None`` for a seat the review skipped)."""
        async with self.storage.transaction() as conn:
            for seat in range(await self._players(conn, code)):
                await conn.execute(
                    match_results.update()
                    .where(match_results.c.table_code == code, match_results.c.seat == seat)
                    .values(accuracy=accuracy.get(seat), reviewed=True)
                )

    async def _players(self, conn: AsyncConnection, code: str) -> int:
        query = sa.select(sa.func.count()).where(match_results.c.table_code == code)
        return int((await conn.execute(query)).scalar_one())

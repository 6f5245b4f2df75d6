"""The turns' storage: the tables whose deadline waits for an account's seat, and its vacations."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from chickenfoot.server.accounts.schema import account_seats
from chickenfoot.server.storage import Storage, aware, turn_deadlines
from chickenfoot.server.turns.schema import vacations


@dataclass(frozen=True, slots=True)
class Waiting:
    """A turn-based table where it is the account's turn, and when its time runs out."""

    table: str
    seat: int
    due: datetime


@dataclass(frozen=True, slots=True)
class Vacation:
    starts: datetime
    ends: datetime


class TurnStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def waiting(self, account_id: int, limit: int) -> list[Waiting]:
        """The turn-based tables waiting for the account, the least time left first."""
        query = (
            sa.select(turn_deadlines.c.table_code, turn_deadlines.c.seat, turn_deadlines.c.due_at)
            .join(
                account_seats,
                (account_seats.c.table_code == turn_deadlines.c.table_code)
                & (account_seats.c.seat == turn_deadlines.c.seat),
            )
            .where(account_seats.c.account_id == account_id, account_seats.c.by_session.is_(True))
            .order_by(turn_deadlines.c.due_at)
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            return [Waiting(str(code), int(seat), aware(due)) for code, seat, due in await conn.execute(query)]

    async def playing(self, account_id: int) -> list[tuple[str, int]]:
        """The account's seats at turn-based tables being played (those that keep a deadline)."""
        query = (
            sa.select(account_seats.c.table_code, account_seats.c.seat)
            .join(turn_deadlines, turn_deadlines.c.table_code == account_seats.c.table_code)
            .where(account_seats.c.account_id == account_id)
        )
        async with self.storage.reading() as conn:
            return [(str(code), int(seat)) for code, seat in await conn.execute(query)]

    async def vacations_since(self, account_id: int, since: datetime) -> list[Vacation]:
        """The account's vacations that end after ``since``, in order."""
        query = (
            sa.select(vacations.c.starts_at, vacations.c.ends_at)
            .where(vacations.c.account_id == account_id, vacations.c.ends_at > since)
            .order_by(vacations.c.starts_at)
        )
        async with self.storage.reading() as conn:
            return [Vacation(aware(starts), aware(ends)) for starts, ends in await conn.execute(query)]

    async def take(self, account_id: int, starts: datetime, ends: datetime) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(vacations.insert().values(account_id=account_id, starts_at=starts, ends_at=ends))

    async def end(self, account_id: int, now: datetime) -> datetime | None:
        """End the account's vacation running at ``now``; when it began (``None``: none was running)."""
        running = (vacations.c.account_id == account_id) & (vacations.c.starts_at <= now) & (vacations.c.ends_at > now)
        async with self.storage.transaction() as conn:
            ended = await conn.execute(
                vacations.update().where(running).values(ends_at=now).returning(vacations.c.starts_at)
            )
            row = ended.first()
        return None if row is None else aware(row[0])

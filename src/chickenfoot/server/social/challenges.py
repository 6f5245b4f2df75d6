"""Challenges and their answers, in the database every server process shares.

A challenge is an offer of a table (its options as ``POST /api/tables`` takes them) from one player to
another: ``pending`` until the challenged player accepts it (the table is made then: ``accepted``) or
declines it, the challenger withdraws it, or it expires unanswered. Each change is one conditional
update of a pending row, so of two processes (or two clicks) answering one challenge, one does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa

from chickenfoot.server.social.schema import challenges
from chickenfoot.server.social.store import Capped
from chickenfoot.server.storage import Storage, aware

Status = Literal["pending", "accepted", "declined", "expired", "withdrawn"]
EXPIRED_AT_ONCE = 200
"""Challenges one sweep expires at most (the next sweep takes the rest)."""


@dataclass(frozen=True, slots=True)
class Caps:
    """How many challenges may wait at once: made by one player, and for one player."""

    outgoing: int = 5
    incoming: int = 20


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int
    challenger_id: int
    challenged_id: int
    options: dict[str, Any]
    status: Status
    created_at: datetime
    expires_at: datetime
    table_code: str | None = None
    seat: int | None = None
    """The challenger's seat at the table an accepted challenge made."""
    seat_taken: bool = False


class AlreadyPending(LookupError):
    """The challenger has a challenge of the same player waiting already."""


class IncomingFull(Capped):
    """Too many challenges wait for the challenged player already."""


def _challenge(row: Any) -> Challenge:
    return Challenge(
        int(row.id),
        int(row.challenger_id),
        int(row.challenged_id),
        json.loads(row.options),
        row.status,
        aware(row.created_at),
        aware(row.expires_at),
        row.table_code,
        row.seat,
        bool(row.seat_taken),
    )


def _open(now: datetime) -> sa.ColumnElement[bool]:
    return (challenges.c.status == "pending") & (challenges.c.expires_at > now)


class ChallengeStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def make(
        self, challenger: int, challenged: int, options: dict[str, Any], at: datetime, expires_at: datetime, caps: Caps
    ) -> Challenge:
        """A new pending challenge. Raises :class:`AlreadyPending`, :class:`Capped` (the challenger's
        waiting challenges) or :class:`IncomingFull` (the challenged player's)."""
        count = sa.select(sa.func.count()).select_from(challenges)
        async with self.storage.transaction() as conn:
            mine = _open(at) & (challenges.c.challenger_id == challenger)
            if (await conn.execute(count.where(mine & (challenges.c.challenged_id == challenged)))).scalar_one():
                raise AlreadyPending
            if (await conn.execute(count.where(mine))).scalar_one() >= caps.outgoing:
                raise Capped(caps.outgoing)
            theirs = _open(at) & (challenges.c.challenged_id == challenged)
            if (await conn.execute(count.where(theirs))).scalar_one() >= caps.incoming:
                raise IncomingFull(caps.incoming)
            row = {
                "challenger_id": challenger,
                "challenged_id": challenged,
                "options": json.dumps(options),
                "status": "pending",
                "created_at": at,
                "expires_at": expires_at,
            }
            inserted = await conn.execute(challenges.insert().values(**row).returning(challenges.c.id))
            challenge_id = int(inserted.scalar_one())
        return Challenge(challenge_id, challenger, challenged, options, "pending", at, expires_at)

    async def get(self, challenge_id: int) -> Challenge | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(challenges).where(challenges.c.id == challenge_id))).first()
        return None if row is None else _challenge(row)

    async def answer(
        self,
        challenge_id: int,
        status: Status,
        at: datetime,
        *,
        challenger: int | None = None,
        challenged: int | None = None,
    ) -> Challenge | None:
        """Move a challenge that is still open to ``status`` (only the challenger's or the challenged's,
        whichever is given); the challenge, or ``None`` if it was not open (answered meanwhile, expired, not theirs)."""
        which = (challenges.c.id == challenge_id) & _open(at)
        if challenger is not None:
            which &= challenges.c.challenger_id == challenger
        if challenged is not None:
            which &= challenges.c.challenged_id == challenged
        return await self._moved(which, status, at)

    async def placed(self, challenge_id: int, code: str, seat: int) -> None:
        """The accepted challenge's table is ``code``, the challenger's seat there ``seat``."""
        async with self.storage.transaction() as conn:
            await conn.execute(
                challenges.update().where(challenges.c.id == challenge_id).values(table_code=code, seat=seat)
            )

    async def reopen(self, challenge_id: int) -> None:
        """An acceptance whose table could not be made: the challenge is pending again."""
        async with self.storage.transaction() as conn:
            await conn.execute(
                challenges.update()
                .where(challenges.c.id == challenge_id, challenges.c.table_code.is_(None))
                .values(status="pending", answered_at=None)
            )

    async def take_seat(self, challenge_id: int, challenger: int) -> Challenge | None:
        """The challenger comes for their seat at the table their accepted challenge made: once."""
        which = (
            (challenges.c.id == challenge_id)
            & (challenges.c.challenger_id == challenger)
            & (challenges.c.status == "accepted")
            & challenges.c.table_code.is_not(None)
            & ~challenges.c.seat_taken
        )
        async with self.storage.transaction() as conn:
            update = challenges.update().where(which).values(seat_taken=True).returning(challenges)
            row = (await conn.execute(update)).first()
        return None if row is None else _challenge(row)

    async def expire_due(self, now: datetime, account_id: int | None = None) -> list[Challenge]:
        """Every pending challenge whose time ran out (made or received by ``account_id``, if given)
        becomes ``expired``, by one process only; those."""
        due = (
            sa.select(challenges.c.id)
            .where(challenges.c.status == "pending", challenges.c.expires_at <= now)
            .limit(EXPIRED_AT_ONCE)
        )
        if account_id is not None:
            due = due.where((challenges.c.challenger_id == account_id) | (challenges.c.challenged_id == account_id))
        which = challenges.c.id.in_(due.scalar_subquery()) & (challenges.c.status == "pending")
        return await self._all_moved(which, "expired", now)

    async def prune(self, before: datetime) -> int:
        """Forget the challenges answered (or expired) that expired before ``before``; how many."""
        old = (challenges.c.expires_at < before) & (challenges.c.status != "pending")
        async with self.storage.transaction() as conn:
            return int((await conn.execute(challenges.delete().where(old))).rowcount)

    async def end_between(self, blocker: int, blocked: int, at: datetime) -> list[Challenge]:
        """A block ends the open challenges between the two: the blocked player's is declined, the
        blocker's own withdrawn. The declined ones."""
        theirs = _open(at) & (challenges.c.challenger_id == blocked) & (challenges.c.challenged_id == blocker)
        mine = _open(at) & (challenges.c.challenger_id == blocker) & (challenges.c.challenged_id == blocked)
        await self._all_moved(mine, "withdrawn", at)
        return await self._all_moved(theirs, "declined", at)

    async def seats_waiting(self, challenger: int) -> list[Challenge]:
        """The challenger's accepted challenges whose seat they have not taken yet (while the table is
        kept: it takes them with it), the newest first."""
        query = (
            sa.select(challenges)
            .where(
                challenges.c.challenger_id == challenger,
                challenges.c.status == "accepted",
                challenges.c.table_code.is_not(None),
                ~challenges.c.seat_taken,
            )
            .order_by(challenges.c.id.desc())
        )
        async with self.storage.reading() as conn:
            return [_challenge(row) for row in await conn.execute(query)]

    async def forget(self, challenge_id: int) -> None:
        """A challenge made but never told (its notice was refused): it goes."""
        async with self.storage.transaction() as conn:
            await conn.execute(challenges.delete().where(challenges.c.id == challenge_id))

    async def open_of(self, account_id: int, now: datetime) -> tuple[list[Challenge], list[Challenge]]:
        """The account's open challenges: received, and made; the newest first."""
        query = (
            sa.select(challenges)
            .where(_open(now), (challenges.c.challenger_id == account_id) | (challenges.c.challenged_id == account_id))
            .order_by(challenges.c.id.desc())
        )
        async with self.storage.reading() as conn:
            found = [_challenge(row) for row in await conn.execute(query)]
        return [c for c in found if c.challenged_id == account_id], [c for c in found if c.challenger_id == account_id]

    async def _moved(self, which: sa.ColumnElement[bool], status: Status, at: datetime) -> Challenge | None:
        moved = await self._all_moved(which, status, at)
        return moved[0] if moved else None

    async def _all_moved(self, which: sa.ColumnElement[bool], status: Status, at: datetime) -> list[Challenge]:
        update = challenges.update().where(which).values(status=status, answered_at=at).returning(challenges)
        async with self.storage.transaction() as conn:
            return [_challenge(row) for row in await conn.execute(update)]

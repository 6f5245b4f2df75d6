"""The tournaments' queries: events, entrants, the tables each event made and their results.

Two writers touch an event. The **organiser** (one process at a time, holding a lease) starts it, seats
its tables and moves it on; every one of its changes is one transaction that first marks the event's
row with its lease's fencing token (:meth:`TournamentStore.organising`): the row is locked until the
change commits, and a holder whose token is older than one seen already changes nothing. Reading
who is at a table in play and storing the new tables happen in that one transaction, so nobody is
seated twice however the processes race. The **result** of a table is written by whichever process
saw its match end (:meth:`TournamentStore.write_result`): once, whoever comes second finds it written.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import accounts
from chickenfoot.server.storage import Storage, aware
from chickenfoot.server.tournaments.schema import tournament_entrants, tournament_tables, tournaments
from chickenfoot.server.tournaments.settings import EventSettings

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
"""An event's code: about 49 bits, so a private event's address cannot be guessed."""
LISTED = 50
"""Events a list shows at most."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class _WrittenMeanwhile(Exception):
    """A table's result was written by someone else during this write (it rolls this one back)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One event's row."""

    id: int
    code: str
    name: str
    settings: EventSettings
    public: bool
    creator_id: int | None
    status: str
    starts_at: datetime | None
    started_at: datetime | None
    ends_at: datetime | None
    round: int
    seed: int
    schedule: list[list[list[int | None]]] | None
    repeat: str | None
    next_made: bool
    results: int
    standings: str | None
    """The standings its organiser last computed, as JSON text (served as it is)."""
    standings_of: int
    version: int
    created_at: datetime


def _time(value: datetime | None) -> datetime | None:
    return None if value is None else aware(value)


def _event(row: Any) -> Event:
    return Event(
        id=row.id,
        code=row.code,
        name=row.name,
        settings=EventSettings.from_json(json.loads(row.settings)),
        public=bool(row.public),
        creator_id=row.creator_id,
        status=row.status,
        starts_at=_time(row.starts_at),
        started_at=_time(row.started_at),
        ends_at=_time(row.ends_at),
        round=int(row.round),
        seed=int(row.seed),
        schedule=None if row.schedule is None else json.loads(row.schedule),
        repeat=row.repeat,
        next_made=bool(row.next_made),
        results=int(row.results),
        standings=row.standings,
        standings_of=int(row.standings_of),
        version=int(row.version),
        created_at=aware(row.created_at),
    )


@dataclass(frozen=True, slots=True)
class Entrant:
    account_id: int
    name: str | None
    """The account's name (``None`` once the account is deleted)."""
    bot: bool
    """A bot account."""
    number: int
    state: str
    """``in``, ``paused`` or ``left``."""
    since: datetime
    rating: float


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table an event made, and its result once its match is over."""

    code: str
    round: int | None
    deal: int | None
    seats: tuple[int | None, ...]
    started_at: datetime
    finished_at: datetime | None = None
    points: tuple[int, ...] | None = None
    places: tuple[int, ...] | None = None
    number: int | None = None
    """Its result's number among the event's (1 for the first written)."""


def _table(row: Any) -> TableRow:
    return TableRow(
        code=row.table_code,
        round=row.round,
        deal=row.deal,
        seats=tuple(json.loads(row.seats)),
        started_at=aware(row.started_at),
        finished_at=_time(row.finished_at),
        points=None if row.points is None else tuple(json.loads(row.points)),
        places=None if row.places is None else tuple(json.loads(row.places)),
        number=row.number,
    )


class Fenced(Exception):
    """An organiser whose lease's token is older than one the event has seen: it changes nothing."""


class Organising:
    """One change of an event by its organiser, in one transaction holding the event's row."""

    def __init__(self, conn: AsyncConnection, event: Event) -> None:
        self.conn, self.event = conn, event
        self.changed = False
        self.version: int | None = None
        """The event's new version once a change committed (``None``: nothing changed)."""

    async def entrants(self) -> list[Entrant]:
        return await _entrants(self.conn, self.event.id)

    async def playing(self) -> list[TableRow]:
        """The tables in play: made and without a result."""
        query = _tables_of(self.event.id).where(tournament_tables.c.finished_at.is_(None))
        return [_table(row) for row in await self.conn.execute(query)]

    async def tables_of_round(self, number: int) -> list[TableRow]:
        query = _tables_of(self.event.id).where(tournament_tables.c.round == number)
        return [_table(row) for row in await self.conn.execute(query)]

    async def add_table(
        self, code: str, seats: Sequence[int | None], at: datetime, round_: int | None, deal: int | None
    ) -> None:
        """Record table ``code`` (stored in this transaction by the seating) as the event's."""
        await self.conn.execute(
            tournament_tables.insert().values(
                table_code=code,
                tournament_id=self.event.id,
                round=round_,
                deal=deal,
                seats=json.dumps(list(seats)),
                started_at=at,
            )
        )
        self.changed = True

    async def update(self, **values: Any) -> None:
        """Change the event's row (its status, round, times, schedule)."""
        await self.conn.execute(tournaments.update().where(tournaments.c.id == self.event.id).values(**values))
        self.changed = True

    async def set_state(self, account_ids: Sequence[int], state: str) -> None:
        if account_ids:
            await self.conn.execute(
                tournament_entrants.update()
                .where(tournament_entrants.c.tournament_id == self.event.id)
                .where(tournament_entrants.c.account_id.in_(account_ids))
                .values(state=state)
            )
            self.changed = True


def _tables_of(event_id: int) -> sa.Select[Any]:
    return (
        sa.select(tournament_tables)
        .where(tournament_tables.c.tournament_id == event_id)
        .order_by(tournament_tables.c.started_at, tournament_tables.c.table_code)
    )


async def _entrants(conn: AsyncConnection, event_id: int) -> list[Entrant]:
    query = (
        sa.select(tournament_entrants, accounts.c.username, accounts.c.bot)
        .join(accounts, accounts.c.id == tournament_entrants.c.account_id)
        .where(tournament_entrants.c.tournament_id == event_id)
        .order_by(tournament_entrants.c.number)
    )
    return [
        Entrant(row.account_id, row.username, bool(row.bot), row.number, row.state, aware(row.since), row.rating)
        for row in await conn.execute(query)
    ]


async def _insert(conn: AsyncConnection, values: dict[str, Any]) -> str:
    code = new_code()
    await conn.execute(tournaments.insert().values(code=code, status="scheduled", **values))
    return code


def _bumped(event_id: int) -> sa.Update:
    """The statement that tells every watcher something changed: one more version."""
    return (
        tournaments.update()
        .where(tournaments.c.id == event_id)
        .values(version=tournaments.c.version + 1)
        .returning(tournaments.c.version)
    )


@dataclass(frozen=True, slots=True)
class Written:
    """A result just written: its event, the new version, and whether its entrants changed (paused)."""

    event_id: int
    code: str
    version: int


class TournamentStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # --- events ---------------------------------------------------------------------------------

    async def create(
        self,
        name: str,
        settings: EventSettings,
        *,
        public: bool,
        creator_id: int | None,
        starts_at: datetime | None,
        repeat: str | None,
        seed: int,
        at: datetime,
    ) -> Event:
        """Store a new scheduled event (its code drawn again in the rare case it is taken)."""
        values = {
            "name": name,
            "format": settings.format.value,
            "settings": json.dumps(settings.to_json()),
            "public": public,
            "creator_id": creator_id,
            "starts_at": starts_at,
            "seed": seed,
            "repeat": repeat,
            "created_at": at,
        }
        while True:
            try:
                async with self.storage.transaction() as conn:
                    code = await _insert(conn, values)
            except sa.exc.IntegrityError:
                continue
            found = await self.by_code(code)
            assert found is not None
            return found

    @staticmethod
    async def insert_next(conn: AsyncConnection, event: Event, starts_at: datetime, at: datetime) -> str:
        """The next of a repeating event, scheduled at ``starts_at``, in the organiser's transaction."""
        values = {
            "name": event.name,
            "format": event.settings.format.value,
            "settings": json.dumps(event.settings.to_json()),
            "public": event.public,
            "creator_id": event.creator_id,
            "starts_at": starts_at,
            "seed": secrets.randbits(62),
            "repeat": event.repeat,
            "created_at": at,
        }
        return await _insert(conn, values)

    async def by_code(self, code: str) -> Event | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(tournaments).where(tournaments.c.code == code))).first()
        return None if row is None else _event(row)

    async def by_id(self, event_id: int) -> Event | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(tournaments).where(tournaments.c.id == event_id))).first()
        return None if row is None else _event(row)

    async def version(self, event_id: int) -> int:
        async with self.storage.reading() as conn:
            query = sa.select(tournaments.c.version).where(tournaments.c.id == event_id)
            return int((await conn.execute(query)).scalar_one_or_none() or 0)

    async def due(self, now: datetime) -> list[Event]:
        """The events the organiser moves on: those running, and those scheduled to start by ``now``."""
        query = sa.select(tournaments).where(
            (tournaments.c.status == "running")
            | ((tournaments.c.status == "scheduled") & (tournaments.c.starts_at <= now))
        )
        async with self.storage.reading() as conn:
            return [_event(row) for row in await conn.execute(query.order_by(tournaments.c.id))]

    async def listed(self) -> list[Event]:
        """The public events: those to come and running, then the latest finished."""
        live = tournaments.c.status.in_(("scheduled", "running"))
        ahead = sa.select(tournaments).where(tournaments.c.public.is_(True), live)
        past = sa.select(tournaments).where(tournaments.c.public.is_(True), tournaments.c.status == "finished")
        async with self.storage.reading() as conn:
            coming = await conn.execute(ahead.order_by(tournaments.c.starts_at, tournaments.c.id).limit(LISTED))
            done = await conn.execute(past.order_by(tournaments.c.ends_at.desc(), tournaments.c.id.desc()).limit(10))
            return [_event(row) for row in [*coming, *done]]

    async def of_account(self, account_id: int) -> list[Event]:
        """The events an account made or entered, the latest first."""
        entered = sa.select(tournament_entrants.c.tournament_id).where(tournament_entrants.c.account_id == account_id)
        query = (
            sa.select(tournaments)
            .where((tournaments.c.creator_id == account_id) | tournaments.c.id.in_(entered))
            .order_by(tournaments.c.created_at.desc())
            .limit(LISTED)
        )
        async with self.storage.reading() as conn:
            return [_event(row) for row in await conn.execute(query)]

    async def unfinished_made_by(self, account_id: int) -> int:
        query = sa.select(sa.func.count()).where(
            tournaments.c.creator_id == account_id, tournaments.c.status.in_(("scheduled", "running"))
        )
        async with self.storage.reading() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def cancel(self, event_id: int) -> int | None:
        """Cancel an event not finished yet; its new version, or ``None`` when it was over already."""
        async with self.storage.transaction() as conn:
            done = await conn.execute(
                tournaments.update()
                .where(tournaments.c.id == event_id, tournaments.c.status.in_(("scheduled", "running")))
                .values(status="cancelled")
            )
            if done.rowcount != 1:
                return None
            return int((await conn.execute(_bumped(event_id))).scalar_one())

    async def start_now(self, event_id: int, at: datetime) -> int | None:
        """A scheduled event starts at the organiser's next look; its new version (``None``: not scheduled)."""
        async with self.storage.transaction() as conn:
            done = await conn.execute(
                tournaments.update()
                .where(tournaments.c.id == event_id, tournaments.c.status == "scheduled")
                .values(starts_at=at)
            )
            if done.rowcount != 1:
                return None
            return int((await conn.execute(_bumped(event_id))).scalar_one())

    # --- entrants -------------------------------------------------------------------------------

    async def entrants(self, event_id: int) -> list[Entrant]:
        async with self.storage.reading() as conn:
            return await _entrants(conn, event_id)

    async def entrant(self, event_id: int, account_id: int) -> Entrant | None:
        return next((e for e in await self.entrants(event_id) if e.account_id == account_id), None)

    async def join(self, event: Event, account_id: int, rating: float, at: datetime) -> int:
        """Enter ``account_id`` (or bring it back after leaving an arena); the new version. Raises
        ``LookupError`` when the event is full (nothing changed)."""
        key = (tournament_entrants.c.tournament_id == event.id) & (tournament_entrants.c.account_id == account_id)
        async with self.storage.transaction() as conn:
            # The event's row first, locked: two joins at once count each other.
            await conn.execute(_bumped(event.id))
            present = (tournament_entrants.c.tournament_id == event.id) & (tournament_entrants.c.state != "left")
            count = (await conn.execute(sa.select(sa.func.count()).where(present))).scalar_one()
            existing = (await conn.execute(sa.select(tournament_entrants.c.state).where(key))).first()
            if existing is not None and existing[0] != "left":
                return await self._version(conn, event.id)
            if count >= event.settings.max_entrants:
                raise LookupError("the event is full")  # rolls back: nothing changed
            if existing is not None:
                await conn.execute(tournament_entrants.update().where(key).values(state="in", since=at))
            else:
                number = (
                    await conn.execute(
                        sa.select(sa.func.coalesce(sa.func.max(tournament_entrants.c.number), 0)).where(
                            tournament_entrants.c.tournament_id == event.id
                        )
                    )
                ).scalar_one()
                await conn.execute(
                    tournament_entrants.insert().values(
                        tournament_id=event.id,
                        account_id=account_id,
                        number=int(number) + 1,
                        state="in",
                        since=at,
                        rating=rating,
                    )
                )
            return await self._version(conn, event.id)

    async def withdraw(self, event_id: int, account_id: int, *, started: bool) -> int | None:
        """The entrant leaves: before the start their entry goes, after it they are not seated again
        (their results stay). The new version, or ``None`` when they had not entered."""
        key = (tournament_entrants.c.tournament_id == event_id) & (tournament_entrants.c.account_id == account_id)
        async with self.storage.transaction() as conn:
            if started:
                done = await conn.execute(
                    tournament_entrants.update().where(key, tournament_entrants.c.state != "left").values(state="left")
                )
            else:
                done = await conn.execute(tournament_entrants.delete().where(key))
            if done.rowcount != 1:
                return None
            return int((await conn.execute(_bumped(event_id))).scalar_one())

    async def pause(self, event_id: int, account_id: int, paused: bool, at: datetime) -> int | None:
        """An arena entrant pauses (not seated, points kept) or comes back (waiting from ``at``)."""
        key = (tournament_entrants.c.tournament_id == event_id) & (tournament_entrants.c.account_id == account_id)
        before, after = ("in", "paused") if paused else ("paused", "in")
        async with self.storage.transaction() as conn:
            done = await conn.execute(
                tournament_entrants.update()
                .where(key, tournament_entrants.c.state == before)
                .values(state=after, since=at)
            )
            if done.rowcount != 1:
                return None
            return int((await conn.execute(_bumped(event_id))).scalar_one())

    @staticmethod
    async def _version(conn: AsyncConnection, event_id: int) -> int:
        query = sa.select(tournaments.c.version).where(tournaments.c.id == event_id)
        return int((await conn.execute(query)).scalar_one())

    # --- tables and results ---------------------------------------------------------------------

    async def tables(self, event_id: int) -> list[TableRow]:
        async with self.storage.reading() as conn:
            return [_table(row) for row in await conn.execute(_tables_of(event_id))]

    async def shown(self, event_id: int, latest: int) -> list[TableRow]:
        """The tables in play, then the ``latest`` results (an arena's page: every result is in its standings),
        each in the order of :meth:`tables`; read without the rest of the event's tables."""
        done = (
            sa.select(tournament_tables)
            .where(tournament_tables.c.tournament_id == event_id, tournament_tables.c.number.is_not(None))
            .order_by(tournament_tables.c.number.desc())
            .limit(latest)
        )
        async with self.storage.reading() as conn:
            query = _tables_of(event_id).where(tournament_tables.c.finished_at.is_(None))
            playing = [_table(row) for row in await conn.execute(query)]
            finished = [_table(row) for row in await conn.execute(done)]
        return playing + sorted(finished, key=lambda t: (t.started_at, t.code))

    async def playing(self, event_id: int) -> list[TableRow]:
        async with self.storage.reading() as conn:
            query = _tables_of(event_id).where(tournament_tables.c.finished_at.is_(None))
            return [_table(row) for row in await conn.execute(query)]

    async def results_after(self, event_id: int, number: int) -> list[TableRow]:
        """The results written after the ``number``-th, in the order they were written."""
        query = (
            sa.select(tournament_tables)
            .where(tournament_tables.c.tournament_id == event_id, tournament_tables.c.number > number)
            .order_by(tournament_tables.c.number)
        )
        async with self.storage.reading() as conn:
            return [_table(row) for row in await conn.execute(query)]

    async def table(self, code: str) -> tuple[int, TableRow] | None:
        """The event a table belongs to and its row (``None``: no event's table)."""
        query = sa.select(tournament_tables).where(tournament_tables.c.table_code == code)
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row.tournament_id), _table(row))

    async def table_of(self, event_id: int, account_id: int) -> tuple[str, int] | None:
        """The table in play where the account sits in this event, and its seat."""
        for table in await self.playing(event_id):
            if account_id in table.seats:
                return table.code, table.seats.index(account_id)
        return None

    async def write_result(
        self,
        code: str,
        points: Sequence[int],
        places: Sequence[int],
        finished_at: datetime,
        pause: Sequence[int] = (),
    ) -> Written | None:
        """Write table ``code``'s result, once: ``None`` when it was written already (or the table is no
        event's). ``pause``: accounts that left the match, paused in the arena (not seated again until they
        come back)."""
        try:
            return await self._write_result(code, points, places, finished_at, pause)
        except _WrittenMeanwhile:
            return None  # another look, or another process, wrote it between the read and the write

    async def _write_result(
        self, code: str, points: Sequence[int], places: Sequence[int], finished_at: datetime, pause: Sequence[int]
    ) -> Written | None:
        async with self.storage.transaction() as conn:
            query = sa.select(tournament_tables.c.tournament_id).where(
                tournament_tables.c.table_code == code, tournament_tables.c.finished_at.is_(None)
            )
            event_id = (await conn.execute(query)).scalar_one_or_none()
            if event_id is None:
                return None
            # The event's row first: numbers are taken one at a time, and the standings see every result.
            numbered = await conn.execute(
                tournaments.update()
                .where(tournaments.c.id == event_id)
                .values(results=tournaments.c.results + 1, version=tournaments.c.version + 1)
                .returning(tournaments.c.results, tournaments.c.version)
            )
            number, version = numbered.one()
            done = await conn.execute(
                tournament_tables.update()
                .where(tournament_tables.c.table_code == code, tournament_tables.c.finished_at.is_(None))
                .values(
                    finished_at=finished_at,
                    points=json.dumps(list(points)),
                    places=json.dumps(list(places)),
                    number=number,
                )
            )
            if done.rowcount != 1:
                raise _WrittenMeanwhile(code)  # rolls the event's count back
            if pause:
                await conn.execute(
                    tournament_entrants.update()
                    .where(
                        tournament_entrants.c.tournament_id == event_id,
                        tournament_entrants.c.account_id.in_(pause),
                        tournament_entrants.c.state == "in",
                    )
                    .values(state="paused")
                )
        return Written(int(event_id), code, int(version))

    async def save_standings(self, event_id: int, standings: dict[str, Any], of: int) -> int | None:
        """Keep the standings computed from the event's first ``of`` results (unless newer ones are kept);
        the new version."""
        async with self.storage.transaction() as conn:
            done = await conn.execute(
                tournaments.update()
                .where(tournaments.c.id == event_id, tournaments.c.standings_of <= of)
                .values(standings=json.dumps(standings, separators=(",", ":")), standings_of=of)
            )
            if done.rowcount != 1:
                return None
            return int((await conn.execute(_bumped(event_id))).scalar_one())

    # --- the organiser ------------------------------------------------------------------------------

    @asynccontextmanager
    async def organising(self, event_id: int, token: int | None) -> AsyncIterator[Organising]:
        """One change of the event by the organiser holding the lease of fencing ``token`` (``None``: a
        process alone, nothing to fence), in one transaction that holds the event's row until it commits.
        Raises :class:`Fenced` when a newer token has changed the event already."""
        async with self.storage.transaction() as conn:
            mark = tournaments.update().where(tournaments.c.id == event_id)
            if token is not None:
                mark = mark.where(tournaments.c.fence <= token).values(fence=token)
            else:
                mark = mark.values(fence=tournaments.c.fence)
            if (await conn.execute(mark)).rowcount != 1:
                raise Fenced(f"event {event_id} is organised under a newer lease")
            row = (await conn.execute(sa.select(tournaments).where(tournaments.c.id == event_id))).one()
            step = Organising(conn, _event(row))
            yield step
            if step.changed:
                step.version = int((await conn.execute(_bumped(event_id))).scalar_one())

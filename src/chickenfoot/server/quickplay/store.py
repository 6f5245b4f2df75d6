"""Quick play's queue, in the database every server process shares (migration 0009_quick_play).

Why the database and not Redis: the queue must outlive any one process and be seen by all, and a
pairing must seat each player exactly once *together with* the new table it seats them at. In the
database both are one transaction: a pass locks the waiting rows (PostgreSQL's ``SELECT … FOR
UPDATE SKIP LOCKED``: a second process passing at the same moment skips the rows the first holds,
never waits for them, never pairs them again), stores each new table and writes its code and seat
into the rows it seats. Either all of that is stored or none. On SQLite (one process) the storage's
single writer gives the same. Redis would need the table's creation outside its atomic script.

A row is held by its player's heartbeats: each one moves its lease on; a row whose lease ran out
is gone (the page was left, the browser closed). Passes run on the back of those heartbeats, at
most one per ``pass_seconds`` in each process, so a queue nobody waits in costs nothing. Two accounts
of whom one blocks the other are never paired (``apart``, answered by server/social in the pass's
own transaction). A pass pairs only players heard from in the last half of the lease (two heartbeats
missed: the page is gone, and a ghost is not paired, though it is counted until its lease runs out);
and a seat found for a player who then never takes it goes to a bot once their lease has run out,
even if nobody else's heartbeat comes by then (:meth:`Queue.expire_later`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.bots import LEVELS
from chickenfoot.rules import Rules
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.credentials import digest
from chickenfoot.server.quickplay.pairing import Group, Schedule, Waiting, pair
from chickenfoot.server.quickplay.ratings import BotRatings, EqualRatings, LevelOrder, RatingLookup
from chickenfoot.server.quickplay.schema import queue
from chickenfoot.server.quickplay.unplayed import UnplayedTables
from chickenfoot.server.storage import Storage, aware
from chickenfoot.server.table.config import Pace, Seat, TableConfig
from chickenfoot.server.table.registry import new_code

log = logging.getLogger(__name__)

PRESET = "classic"
TURN_TIMER = 60
"""A quick play table's rules and turn timer (seconds): the classic game, with strangers."""


@dataclass(frozen=True, slots=True)
class QuickPlaySettings:
    lease_seconds: float = 15.0
    """A queue entry without a heartbeat for this long is gone; one without a heartbeat for half of it
    is not paired any more (its page has missed two heartbeats)."""
    beat_seconds: float = 3.0
    """How often a waiting page sends its heartbeat (told to it with every answer)."""
    pass_seconds: float = 1.0
    """Each process pairs at most this often."""
    max_waiting: int = 1000
    """The queue's bound: a join beyond it is refused until someone leaves or is seated."""
    per_address: int = 8
    """Entries one client address may hold at once (several players behind one router)."""
    unplayed_per_owner: int = 2
    """Tables made by this process's passes, nobody having played them yet, one player (an account, or a
    guest's browser) may be seated at; past it their join is refused (server/quickplay/unplayed.py)."""
    unplayed_per_process: int = 100
    """Such tables one process may have made; past it joins are refused and passes make no more."""
    unplayed_seconds: float = 600.0
    """A real-time table a pass made is deleted at the first sweep this long after, unless played or
    someone is at it (players seated at one come to it within seconds; at one's own pace they may come
    later, and such a table waits for the sweep of every unplayed table)."""
    bots_after: float = 30.0
    """The default wait before bots may fill a 4-player table's empty seats."""
    schedule: Schedule = field(default_factory=Schedule)
    ratings: RatingLookup = field(default_factory=EqualRatings)
    """Each account's rating (the ratings module's; everyone alike until it exists)."""
    bots: BotRatings = field(default_factory=lambda: LevelOrder(LEVELS))
    """The bot level near a rating (the ratings module's; the levels' order until it exists)."""


class QueueFull(LookupError):
    """The queue (or the address's share of it) is full: no place found (a ``LookupError``, so the
    storage rolls the join back as a refusal, not as an outage)."""

    def __init__(self, whole: bool) -> None:
        super().__init__("the quick play queue is full" if whole else "too many queue entries from this address")
        self.whole = whole


class TooManyUnplayed(LookupError):
    """The player (or this process) has as many quick play tables nobody has played as it may."""

    def __init__(self, whole: bool) -> None:
        super().__init__("too many unplayed quick play tables" + ("" if whole else " of this player"))
        self.whole = whole


@dataclass(frozen=True, slots=True)
class Entry:
    owner: str
    address: str
    players: int
    rated: bool
    rating: float
    bots_after: float | None
    name: str | None
    move_seconds: int | None = None
    """At one's own pace, seconds per move (``None``: real-time): a pool of its own."""


@dataclass(frozen=True, slots=True)
class InQueue:
    """A heartbeat's answer while the player waits: players waiting in their pool, seconds waited."""

    waiting: int
    waited: float


@dataclass(frozen=True, slots=True)
class Seated:
    """A heartbeat's answer once a pass seated the player (the entry is gone now)."""

    code: str
    seat: int
    name: str | None


@dataclass(frozen=True, slots=True)
class Unclaimed:
    """A seat found for a player who left before taking it: a bot near their rating takes it."""

    code: str
    seat: int
    rating: float


Abandoned = Callable[[Unclaimed], Awaitable[None]]
Apart = Callable[[AsyncConnection, Collection[int]], Awaitable[set[frozenset[int]]]]
"""The pairs of these accounts that must not share a table (one blocks the other), read in the pass's transaction."""
ACCOUNT = "account:"
"""The prefix of an account's queue entry owner (``account:ID``)."""


async def nobody_apart(_conn: AsyncConnection, _accounts: Collection[int]) -> set[frozenset[int]]:
    return set()


async def waiting(storage: Storage, clock: Clock) -> int:
    """Players waiting in the queue now and not yet seated, every process's (for the metrics)."""
    query = (
        sa.select(sa.func.count())
        .select_from(queue)
        .where(queue.c.table_code.is_(None), queue.c.lease_until >= utc(clock))
    )
    async with storage.reading() as conn:
        return int((await conn.execute(query)).scalar_one())


def new_ticket() -> str:
    return secrets.token_urlsafe(32)


class Queue:
    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        settings: QuickPlaySettings,
        seeds: Callable[[], int],
        abandoned: Abandoned | None = None,
        apart: Apart = nobody_apart,
        sweep_unplayed_after: Callable[[str, float], None] | None = None,
    ) -> None:
        self.storage, self.clock, self.settings, self.seeds = storage, clock, settings, seeds
        self.abandoned = abandoned
        """Told of each seat found for a player who then left without taking it."""
        self.apart = apart
        self.sweep_unplayed_after = sweep_unplayed_after
        """Has a real-time table a pass made deleted after a while if nobody plays it."""
        self.unplayed = UnplayedTables(
            storage.unplayed_among, settings.unplayed_per_owner, settings.unplayed_per_process
        )
        self._last_pass: float | None = None
        self._passing = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def _lease(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.settings.lease_seconds)

    async def join(self, entry: Entry) -> str:
        """Put ``entry`` in the queue (replacing its owner's earlier entry); its ticket.

        Raises :class:`QueueFull` when the queue or the address's share of it is full, and
        :class:`TooManyUnplayed` when the player, or this process, has as many unplayed tables as it may.
        """
        if await self.unplayed.full_for(entry.owner):
            raise TooManyUnplayed(whole=False)
        if not await self.unplayed.room():
            raise TooManyUnplayed(whole=True)
        ticket, now = new_ticket(), utc(self.clock)
        live = queue.c.lease_until >= now
        async with self.storage.transaction() as conn:
            await conn.execute(queue.delete().where(queue.c.owner == entry.owner))
            count = sa.select(sa.func.count()).select_from(queue).where(live)
            if (await conn.execute(count)).scalar_one() >= self.settings.max_waiting:
                raise QueueFull(whole=True)
            mine = count.where(queue.c.address == entry.address)
            if (await conn.execute(mine)).scalar_one() >= self.settings.per_address:
                raise QueueFull(whole=False)
            await conn.execute(
                queue.insert().values(
                    ticket=digest(ticket),
                    owner=entry.owner,
                    address=entry.address,
                    players=entry.players,
                    rated=entry.rated,
                    rating=entry.rating,
                    bots_after=entry.bots_after,
                    name=entry.name,
                    move_seconds=entry.move_seconds,
                    joined_at=now,
                    lease_until=self._lease(now),
                )
            )
        await self.pass_if_due(force=True)
        return ticket

    async def beat(self, ticket: str) -> InQueue | Seated | None:
        """The heartbeat of ``ticket``'s player: their lease moves on, and they hear whether they are
        seated (the entry then goes: the seat is theirs to claim, once). ``None``: no such entry."""
        await self.pass_if_due()
        now = utc(self.clock)
        key = queue.c.ticket == digest(ticket)
        async with self.storage.transaction() as conn:
            query = sa.select(queue).where(key, queue.c.lease_until >= now).with_for_update()
            row = (await conn.execute(query)).first()
            if row is None:
                return None
            if row.table_code is not None:
                await conn.execute(queue.delete().where(key))
                return Seated(row.table_code, row.seat, row.name)
            await conn.execute(queue.update().where(key).values(lease_until=self._lease(now)))
            pace = queue.c.move_seconds.is_not_distinct_from(row.move_seconds)
            pool = (queue.c.players == row.players) & (queue.c.rated == row.rated) & pace
            waiting = (
                sa.select(sa.func.count())
                .select_from(queue)
                .where(pool, queue.c.table_code.is_(None), queue.c.lease_until >= now)
            )
            count = (await conn.execute(waiting)).scalar_one()
        return InQueue(count, (now - aware(row.joined_at)).total_seconds())

    def expire_later(self) -> None:
        """Drop, once every lease running now has run out, the entries nobody renewed: a seat found for a
        player who never came to take it goes to a bot (its partners are at the table by then, and their
        pages beat no more)."""
        delay = self.settings.lease_seconds + self.settings.beat_seconds
        self.clock.call_later(delay, self._expire)

    def _expire(self) -> None:
        task = asyncio.get_running_loop().create_task(self._drop(queue.c.lease_until < utc(self.clock)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def leave(self, ticket: str) -> None:
        """The player leaves the queue (a seat already found for them goes to a bot)."""
        await self._drop(queue.c.ticket == digest(ticket))

    async def _drop(self, which: sa.ColumnElement[bool]) -> None:
        """Delete the entries ``which`` selects; their seats found but not taken are abandoned."""
        found = queue.c.table_code, queue.c.seat, queue.c.rating
        async with self.storage.transaction() as conn:
            rows = (await conn.execute(queue.delete().where(which).returning(*found))).all()
        for code, seat, rating in rows:
            if code is not None and self.abandoned is not None:
                try:
                    await self.abandoned(Unclaimed(code, seat, rating))
                except Exception:  # the entry is gone either way; its table's creator may still act
                    log.exception("the abandoned seat %d of table %s was not handed to a bot", seat, code)

    async def pass_if_due(self, *, force: bool = False) -> int:
        """Pair now unless this process did less than ``pass_seconds`` ago; players seated."""
        due = self._last_pass is None or self.clock.monotonic() - self._last_pass >= self.settings.pass_seconds
        if not (force or due) or self._passing.locked():
            return 0
        async with self._passing:
            self._last_pass = self.clock.monotonic()
            try:
                return await self.pass_once()
            except (LookupError, sa.exc.IntegrityError):
                return 0  # nothing stored (a race lost, a table code taken): the next pass pairs them

    async def pass_once(self) -> int:
        """Pair the waiting players this process can lock, and store their tables; players seated."""
        now = utc(self.clock)
        await self._drop(queue.c.lease_until < now)
        heard = now + timedelta(seconds=self.settings.lease_seconds / 2)  # a heartbeat in the last half-lease
        room = await self.unplayed.room()
        if not room:
            return 0  # no table made until some are played or swept: the players wait
        seated, made = 0, []
        async with self.storage.transaction() as conn:
            query = (
                sa.select(queue.c.ticket, queue.c.players, queue.c.rated, queue.c.rating)
                .add_columns(queue.c.joined_at, queue.c.bots_after, queue.c.owner, queue.c.move_seconds)
                .where(queue.c.table_code.is_(None), queue.c.lease_until >= heard)
                .order_by(queue.c.joined_at)
                .limit(self.settings.max_waiting)
                .with_for_update(skip_locked=True)
            )
            pools: dict[Pool, list[Waiting]] = defaultdict(list)
            tickets: dict[int, str] = {}
            owners: dict[str, str] = {}
            for ticket, players, rated, rating, joined, bots_after, owner, move in await conn.execute(query):
                pools[Pool(players, rated, move)].append(Waiting(ticket, rating, aware(joined).timestamp(), bots_after))
                owners[ticket] = owner
                if owner.startswith(ACCOUNT):
                    tickets[int(owner.removeprefix(ACCOUNT))] = ticket
            apart = {frozenset(tickets[a] for a in pair) for pair in await self.apart(conn, tickets.keys())}
            # Sorting and bisecting a thousand players is more than a millisecond: off the event loop.
            paired = await asyncio.to_thread(self._pair, pools, now.timestamp(), apart)
            for pool, group in paired[:room]:  # the others wait for the next pass
                code = new_code()
                made.append((code, pool, [owners[ticket] for ticket in group.tickets]))
                await conn.execute(self.storage.new_table(code, self._config(pool, group).to_json()))
                for seat, ticket in enumerate(group.tickets):
                    mine = (queue.c.ticket == ticket) & queue.c.table_code.is_(None)
                    done = await conn.execute(queue.update().where(mine).values(table_code=code, seat=seat))
                    if done.rowcount != 1:
                        raise LookupError(f"queue entry {ticket[:8]} was seated meanwhile")  # rolls all back
                seated += len(group.tickets)
        for code, pool, seated_owners in made:  # stored: each counts until played, and is swept if never
            self.unplayed.add(code, seated_owners)
            if pool.move_seconds is None and self.sweep_unplayed_after is not None:
                self.sweep_unplayed_after(code, self.settings.unplayed_seconds)
        return seated

    def _pair(
        self, pools: dict[Pool, list[Waiting]], now: float, apart: set[frozenset[str]]
    ) -> list[tuple[Pool, Group]]:
        return [
            (pool, group)
            for pool, waiting in sorted(pools.items(), key=lambda item: item[0].key())
            for group in pair(waiting, pool.players, now, self.settings.schedule, apart)
        ]

    def _config(self, pool: Pool, group: Group) -> TableConfig:
        """The new table: the players' seats, free for each to claim with their ticket, then the bots;
        rated when its players asked for a rated game (the classic preset and the bot levels are rated);
        at one's own pace when they asked for it, a bot then taking the seat of a player whose time ran
        out (strangers need not wait a day a move for someone who has gone)."""
        level = self.settings.bots.near(group.rating)
        seats = [Seat("human") for _ in group.tickets] + [Seat("bot", bot=level) for _ in range(group.bots)]
        pace = None if pool.move_seconds is None else Pace(pool.move_seconds, "replace")
        timer = TURN_TIMER if pace is None else None
        return TableConfig(
            Rules.preset(PRESET), seats, self.seeds(), creator=0, turn_timer=timer, rated=pool.rated, pace=pace
        )


@dataclass(frozen=True, slots=True)
class Pool:
    """Players who may be paired: as many players, rated or not, at the same pace."""

    players: int
    rated: bool
    move_seconds: int | None

    def key(self) -> tuple[int, bool, int]:
        return self.players, self.rated, self.move_seconds or 0

"""Durable storage of tables and their actions (SQLAlchemy 2 async; SQLite by default, PostgreSQL too).

A table is its configuration (rules, seats, seed) plus the ordered list of its game actions (each
a move in the notation of docs/rules.md §7, or ``next_round``). The engine is deterministic given the seed, so
replaying the actions rebuilds every table exactly.

When the database stops answering, :class:`Storage` says so (``available``, and a call to each
availability listener), probes it until it answers again, and meanwhile refuses reads with
:class:`StorageUnavailable`; a failed query replaces the pool's connections, and a connection idle
for a while is tested before use, so the server recovers without a restart of its own.

On SQLite (in WAL mode) the one writer has a connection of its own and reads have a small pool of
theirs: a flood of reads waits for a reader, never for the writer, and the probe that judges whether
the store answers asks the writer's connection. A read that finds every reader busy for
:data:`READ_WAIT_SECONDS` is refused with :class:`StorageUnavailable` (the store is busy, not down).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.ops import events
from chickenfoot.server.storage.new_actions import ActionRow, Inserted, new_actions_for
from chickenfoot.server.storage.schema import (
    actions,
    archived_actions,
    game_tables,
    reviews,
    seat_secrets,
)

MIGRATIONS = Path(__file__).parent.parent / "migrations"
PROBE_SECONDS = 0.5
"""Pause between two probes of a database that stopped answering."""

READERS = 4
"""Connections reading an SQLite file beside its one writer (WAL lets them read while it writes)."""
READ_WAIT_SECONDS = 3.0
"""How long a read waits for a free reader before it is refused as busy (never a queue without end)."""

MAX_BATCH = 500
"""Actions written by one statement at most (:mod:`.new_actions`; on SQLite four parameters each, well
below its 32,766 a statement), so a batch is one statement, stored whole or not at all."""
IDLE_TEST_SECONDS = 10.0
"""A pooled connection idle this long is tested before use: the database may have dropped it
meanwhile (a restart, an idle timeout). One in use more recently is not, which saves a round trip
per query under load; if the database restarted since, the first query fails and SQLAlchemy then
replaces every connection of the pool."""
IDLE_SINCE = "chickenfoot_idle_since"

MIGRATION_LOCK = 0x636869636B656E
"""The PostgreSQL advisory lock key that serialises migrations ("chicken" in ASCII)."""

log = logging.getLogger(__name__)


class StorageUnavailable(RuntimeError):
    """The database does not answer; the text is the one line clients are told."""

    def __init__(self) -> None:
        super().__init__(english(Said.of(Code.ERROR_STORE_UNAVAILABLE)))


class VersionTaken(Exception):
    """The table already has an action with this number: the new one was judged on an older state."""

    def __init__(self, code: str, version: int) -> None:
        super().__init__(f"table {code} has an action {version} already")
        self.code, self.version = code, version


class SeatKeeper(Protocol):
    """Another module's rows per seat of a table, kept in step with the seat (:meth:`Storage.keep_seats_with`)."""

    async def seat_dropped(self, conn: AsyncConnection, code: str, seat: int) -> None:
        """The seat's credentials are dropped (it went to a bot, or was reopened): drop its rows too."""

    async def seats_carried(self, conn: AsyncConnection, code: str, rematch: str, seats: Sequence[int]) -> None:
        """Table ``rematch`` is ``code``'s rematch: the rows of ``seats`` follow the same seats there."""


class StoredAction(NamedTuple):
    version: int
    action: str
    at: datetime | None
    """When it was stored (``None`` for actions stored before times were)."""


def default_database_url() -> str:
    """An SQLite file in the user's data directory."""
    from platformdirs import user_data_path

    directory = user_data_path("chickenfoot", appauthor=False, ensure_exists=True)
    return f"sqlite+aiosqlite:///{directory / 'games.db'}"


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Storage:
    """Tables and actions in one database; every write is committed before it returns."""

    def __init__(self, url: str, clock: Clock) -> None:
        self.url, self.clock = url, clock
        self.is_sqlite = url.startswith("sqlite")
        self._readers: AsyncEngine | None = None
        if self.is_sqlite:
            # One writer: SQLite has a single writer anyway, and a lock keeps writers in line.
            self.engine: AsyncEngine = create_async_engine(url, pool_size=1, max_overflow=0)
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._reader: AsyncEngine = self.engine
            if not _in_memory(url):  # a database in memory is one connection's own: it has no readers
                self._readers = create_async_engine(
                    url, pool_size=READERS, max_overflow=0, pool_timeout=READ_WAIT_SECONDS
                )
                sa.event.listen(self._readers.sync_engine, "connect", _sqlite_pragmas)
                self._reader = self._readers
        else:
            self.engine = create_async_engine(url, pool_size=10, max_overflow=10)
            _test_when_idle(self.engine, clock)
            # Reads take no transaction of their own: one round trip each instead of three (BEGIN, ROLLBACK).
            self._reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._lock = asyncio.Lock() if self.is_sqlite else None
        dialect_insert = sqlite.insert if self.is_sqlite else postgresql.insert
        # A version already stored is left as it is and not returned: the batch goes on without it.
        self._insert_new_actions = (
            dialect_insert(actions)
            .on_conflict_do_nothing(index_elements=[actions.c.table_code, actions.c.version])
            .returning(actions.c.table_code, actions.c.version, actions.c.action)
        )
        self._new_actions = new_actions_for(self.engine.dialect)
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.available = True
        self._listeners: list[Callable[[bool], None]] = []
        self._probe: asyncio.Task[None] | None = None
        self._seat_keepers: list[SeatKeeper] = []

    # --- availability -------------------------------------------------------------------------

    def on_availability(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(available)`` whenever the database stops or starts answering."""
        self._listeners.append(listener)

    def _failed(self, exc: BaseException) -> None:
        """A query failed for another reason than its data: check whether the database is gone."""
        if self._probe is not None and not self._probe.done():
            return
        log.warning("a query failed (%s); checking the database", exc.__class__.__name__)
        self._probe = asyncio.create_task(self._watch_until_back())

    async def _watch_until_back(self) -> None:
        while not await self._answers():
            if self.available:
                log.warning("the database stopped answering")
                self._set_available(False)
            await self.clock.sleep(PROBE_SECONDS)
        if not self.available:
            log.warning("the database answers again")
            self._set_available(True)

    async def watch(self, every: float) -> None:
        """Probe the database every ``every`` seconds, so an outage is noticed even when nobody writes.

        Not for SQLite: a local file does not go away between writes, and its one connection is
        better left to them (a failed write still starts the probe).
        """
        if self.is_sqlite:
            return
        while True:
            await self.clock.sleep(every)
            if self.available and not await self._answers():
                self._failed(ConnectionError("the database does not answer"))

    async def _answers(self) -> bool:
        """Whether the writer's connection answers: its health is the store's, whatever queue reads fill."""
        try:
            async with asyncio.timeout(5), self.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))
        except Exception:
            return False
        return True

    def _set_available(self, available: bool) -> None:
        self.available = available
        for listener in self._listeners:
            listener(available)

    async def migrate(self) -> None:
        """Bring the schema up to date (Alembic, run in-process).

        On PostgreSQL under an advisory lock held until the migration commits: processes starting
        together take turns, and the later ones find the schema up to date. On SQLite with foreign keys
        unenforced meanwhile, as SQLite asks of a migration that rebuilds a table (batch mode): the
        rebuilt table is dropped and renamed, which an enforced key would refuse or cascade; they are
        checked afterwards.
        """
        if self.is_sqlite:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside any transaction, or it is ignored
                await conn.commit()
                try:
                    async with conn.begin():
                        await conn.run_sync(_upgrade)
                    broken = (await conn.exec_driver_sql("PRAGMA foreign_key_check")).all()
                    if broken:  # (table, row id, the table it names, key): a row naming one that is gone
                        raise RuntimeError(f"after migrating, rows name rows that are gone: {broken[:5]}")
                finally:
                    await conn.rollback()
                    await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                    await conn.commit()
            return
        async with self.engine.begin() as conn:
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        if self._readers is not None:
            await self._readers.dispose()
        await self.engine.dispose()

    @asynccontextmanager
    async def _write(self, *, one_statement: bool = False) -> AsyncIterator[AsyncConnection]:
        """A transaction; raises ``IntegrityError`` for data the schema refuses, else ``StorageUnavailable``.

        ``_Refused``, raised inside to roll back, passes through: the database answered.
        ``one_statement``: the work is a single statement, atomic by itself; on PostgreSQL it then
        runs without BEGIN and COMMIT (one round trip instead of three).
        """
        if not self.available:
            raise StorageUnavailable
        try:
            if self._lock is None:
                async with self._reader.begin() if one_statement else self.engine.begin() as conn:
                    yield conn
                return
            async with self._lock, self.engine.begin() as conn:
                yield conn
        except (sa.exc.IntegrityError, _Refused, LookupError):
            raise
        except Exception as exc:
            self._failed(exc)
            raise StorageUnavailable from exc

    def transaction(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A transaction for a module's own queries (chat lines, the accounts', quick play's queue), failing
        as the game's own writes do: ``StorageUnavailable`` when the database does not answer."""
        return self._write()

    def reading(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A connection for a module's own reads, failing as the game's own reads do."""
        return self._read()

    def keep_seats_with(self, keeper: SeatKeeper) -> None:
        """``keeper`` keeps rows per seat of a table (the accounts' followed seats): it drops a seat's rows
        in the transaction that drops the seat's credentials, and carries them to a rematch's table."""
        self._seat_keepers.append(keeper)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        if not self.available:
            raise StorageUnavailable
        try:
            async with self._reader.connect() as conn:
                yield conn
        except sa.exc.TimeoutError as exc:  # every reader busy: this read is refused, the store is not down
            raise StorageUnavailable from exc
        except Exception as exc:
            self._failed(exc)
            raise StorageUnavailable from exc

    async def create_table(self, code: str, config: dict[str, Any]) -> bool:
        """Store a new table; ``False`` if the code is taken."""
        try:
            async with self._write() as conn:
                await conn.execute(self.new_table(code, config))
        except sa.exc.IntegrityError:
            return False
        return True

    def new_table(self, code: str, config: dict[str, Any]) -> sa.Insert:
        """The statement storing a new table, for a transaction that stores more with it (quick play's seating)."""
        return game_tables.insert().values(
            code=code, config=json.dumps(config), created_at=utc(self.clock), public=_public(config)
        )

    async def append_action(self, code: str, version: int, action: str, at: datetime | None = None) -> None:
        """Store action number ``version`` of a table (numbered from 1), made at ``at`` (default: now).

        Returns once committed; raises :class:`VersionTaken` when that number is stored already
        (by another process, or by an earlier attempt whose commit went through after all): the
        action was judged against a state that is no longer the latest. Actions of many tables that
        arrive together share one transaction (group commit): one database round trip for all of
        them instead of one each.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {"table_code": code, "version": version, "action": action, "at": at or utc(self.clock)}
        self._pending.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
            started = self.clock.monotonic()
            try:
                inserted = await self._insert_batch([row for row, _ in batch])
                stored = {(code, version): action for code, version, action in inserted}
            except Exception:
                # A row the schema refuses fails the whole batch (and so does a database that does not
                # answer): write them one by one, through SQLAlchemy, so only such a row fails, and
                # each failure is told as every other write's is.
                for row, done in batch:
                    try:
                        async with self._write(one_statement=True) as conn:
                            taken = not (await conn.execute(self._insert_new_actions, [row])).first()
                    except Exception as exc:
                        _settle(done, exc)
                    else:
                        _settle(done, VersionTaken(row["table_code"], row["version"]) if taken else None)
            else:
                events.actions_stored(len(stored), self.clock.monotonic() - started)
                for row, done in batch:
                    # Two rows of one version in a batch: only the one stored is new, and only once.
                    key = (row["table_code"], row["version"])
                    new = stored.get(key) == row["action"]
                    if new:
                        del stored[key]
                    _settle(done, None if new else VersionTaken(*key))

    async def _insert_batch(self, rows: list[ActionRow]) -> Inserted:
        """Insert ``rows`` in one statement said to the driver itself (:mod:`.new_actions`), committed;
        raises what the driver raises."""
        if not self.available:
            raise StorageUnavailable
        # As _write(one_statement=True): SQLite's one writer under the lock, PostgreSQL without a transaction.
        writer = self.engine if self._lock is not None else self._reader
        async with self._lock or nullcontext(), writer.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            return await self._new_actions.insert(driver, rows)

    async def load_actions(self, code: str, after: int) -> list[StoredAction]:
        """The table's actions numbered above ``after``, in order."""
        query = (
            sa.select(actions.c.version, actions.c.action, actions.c.at)
            .where(actions.c.table_code == code, actions.c.version > after)
            .order_by(actions.c.version)
        )
        async with self._read() as conn:
            archived, last_at = await _archived(conn, code)
            rows = await conn.execute(query)
            stored = [StoredAction(version, action, aware(at) if at else None) for version, action, at in rows]
        kept = [
            StoredAction(version, action, last_at if version == len(archived) else None)
            for version, action in enumerate(archived, 1)
        ]
        return kept[after:] + stored

    async def load_config(self, code: str) -> dict[str, Any] | None:
        async with self._read() as conn:
            row = (await conn.execute(sa.select(game_tables.c.config).where(game_tables.c.code == code))).first()
            return None if row is None else dict(json.loads(row[0]))

    async def edit_config(self, code: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Apply ``change`` to the stored configuration and store the result, with the row locked
        meanwhile so that changes made by several processes at once all count; returns the result.

        Raises ``LookupError`` when the table is gone, or what ``change`` raises (nothing changed).
        """
        # FOR NO KEY UPDATE: the code is not changed, so rows naming the table are still written meanwhile.
        query = sa.select(game_tables.c.config).where(game_tables.c.code == code).with_for_update(key_share=True)
        async with self._write() as conn:
            row = (await conn.execute(query)).first()
            if row is None:
                raise LookupError(f"no table {code}")
            config = change(json.loads(row[0]))
            await conn.execute(
                game_tables.update()
                .where(game_tables.c.code == code)
                .values(config=json.dumps(config), public=_public(config))
            )
        return config

    async def load_table(self, code: str) -> tuple[dict[str, Any], list[str]] | None:
        """A table's configuration and its actions in order, or ``None``."""
        async with self._read() as conn:
            row = (await conn.execute(sa.select(game_tables.c.config).where(game_tables.c.code == code))).first()
            if row is None:
                return None
            archived, _ = await _archived(conn, code)
            rows = await conn.execute(
                sa.select(actions.c.action).where(actions.c.table_code == code).order_by(actions.c.version)
            )
            return json.loads(row[0]), archived + [r[0] for r in rows]

    async def last_action_time(self, code: str) -> datetime | None:
        """When the table's latest action was stored (``None``: no action, or stored before times were)."""
        async with self._read() as conn:
            query = sa.select(actions.c.at).where(actions.c.table_code == code).order_by(actions.c.version.desc())
            row = (await conn.execute(query.limit(1))).first()
            at = row[0] if row is not None else (await _archived(conn, code))[1]
        return aware(at) if at is not None else None

    async def secrets_of(self, code: str, purpose: str) -> list[tuple[int, str]]:
        """The (seat, digest) pairs of one table for one purpose."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(seat_secrets.c.seat, seat_secrets.c.digest).where(
                    seat_secrets.c.table_code == code, seat_secrets.c.purpose == purpose
                )
            )
            return [(int(seat), str(value)) for seat, value in rows]

    async def put_secret(self, code: str, seat: int, purpose: str, digest: str) -> None:
        """Store a digest, replacing the seat's earlier one for the same purpose."""
        key = (seat_secrets.c.table_code == code) & (seat_secrets.c.seat == seat) & (seat_secrets.c.purpose == purpose)
        async with self._write() as conn:
            await conn.execute(seat_secrets.delete().where(key))
            await conn.execute(seat_secrets.insert().values(table_code=code, seat=seat, purpose=purpose, digest=digest))

    async def take_seat(self, code: str, seat: int, seat_digest: str, invite_digest: str | None) -> bool:
        """Give a seat its credential in one transaction, consuming the seat's invite.

        With ``invite_digest`` the invite must still be there (a claim); without it the invite is
        dropped if there is one (a join). ``False``, and nothing changed, when the seat already has
        a credential or the invite was used meanwhile.
        """
        invite = (
            (seat_secrets.c.table_code == code) & (seat_secrets.c.seat == seat) & (seat_secrets.c.purpose == "invite")
        )
        if invite_digest is not None:
            invite = invite & (seat_secrets.c.digest == invite_digest)
        try:
            async with self._write() as conn:
                used = await conn.execute(seat_secrets.delete().where(invite))
                if invite_digest is not None and used.rowcount != 1:
                    raise _Refused
                await conn.execute(
                    seat_secrets.insert().values(table_code=code, seat=seat, purpose="seat", digest=seat_digest)
                )
        except (_Refused, sa.exc.IntegrityError):
            return False
        return True

    async def drop_secrets(self, code: str, seat: int, keepers: bool = True) -> None:
        """The seat's credential and invite go, and so does what the seat keepers kept for it (the account
        the seat followed), unless not ``keepers``."""
        async with self._write() as conn:
            await conn.execute(
                seat_secrets.delete().where((seat_secrets.c.table_code == code) & (seat_secrets.c.seat == seat))
            )
            for keeper in self._seat_keepers if keepers else ():
                await keeper.seat_dropped(conn, code, seat)

    async def link_rematch(self, code: str, rematch: str, seats: Sequence[int]) -> None:
        """Table ``rematch`` is table ``code``'s rematch (once: a link made already stays); ``seats`` of the
        old table are the same players' at the new one, and the seat keepers carry what they keep for them."""
        unlinked = (game_tables.c.code == code) & game_tables.c.rematch.is_(None)
        async with self._write() as conn:
            await conn.execute(game_tables.update().where(unlinked).values(rematch=rematch))
            for keeper in self._seat_keepers:
                await keeper.seats_carried(conn, code, rematch, seats)

    async def save_review(self, code: str, review: dict[str, Any]) -> None:
        """Store a finished match's review (a second one for the same table fails)."""
        async with self._write() as conn:
            await conn.execute(
                reviews.insert().values(table_code=code, review=json.dumps(review), created_at=utc(self.clock))
            )

    async def load_review(self, code: str) -> dict[str, Any] | None:
        async with self._read() as conn:
            row = (await conn.execute(sa.select(reviews.c.review).where(reviews.c.table_code == code))).first()
            return None if row is None else dict(json.loads(row[0]))

    async def delete_table(self, code: str) -> bool:
        """Delete table ``code`` and every row naming it (their foreign keys cascade): an operator ended it
        (server/moderation). ``False``: there was no such table."""
        async with self._write() as conn:
            return bool((await conn.execute(game_tables.delete().where(game_tables.c.code == code))).rowcount)

    async def delete_unplayed(
        self, created_before: datetime, limit: int, keep: set[str], among: Collection[str] | None = None
    ) -> list[str]:
        """Delete up to ``limit`` tables created before ``created_before`` without a single action (of
        ``among`` alone, when given); their codes.

        Finished (and unfinished) matches have actions and are never touched: they are replays.
        """
        played = _played()
        query = (
            sa.select(game_tables.c.code)
            .where(game_tables.c.created_at < created_before, ~played)
            .order_by(game_tables.c.created_at)
            .limit(limit + len(keep))
        )
        if among is not None:
            query = query.where(game_tables.c.code.in_(among))
        async with self._write() as conn:
            codes = [code for code in (await conn.execute(query)).scalars() if code not in keep][:limit]
            if codes:  # every row naming them goes too (their foreign keys cascade)
                await conn.execute(game_tables.delete().where(game_tables.c.code.in_(codes), ~played))
        return codes

    async def unplayed_among(self, codes: Collection[str]) -> set[str]:
        """Those of ``codes`` that are stored without a single action (one read)."""
        if not codes:
            return set()
        query = sa.select(game_tables.c.code).where(game_tables.c.code.in_(codes), ~_played())
        async with self._read() as conn:
            return set((await conn.execute(query)).scalars())

    # Retention of finished matches (chickenfoot storage prune)

    async def archive_finished(self, finished_before: datetime, limit: int) -> list[str]:
        """Move the actions of up to ``limit`` finished matches whose last action is older than
        ``finished_before`` into one archive row each (a table at a time); their codes.

        Everything that reads a table's actions (restoring it, its replays, record and review) reads
        the archive row as it read the rows, so a finished match stays a replay.
        """
        last_at = (
            sa.select(actions.c.at)
            .where(actions.c.table_code == game_tables.c.code)
            .order_by(actions.c.version.desc())
            .limit(1)
            .scalar_subquery()
        )
        query = (
            sa.select(game_tables.c.code)
            .where(game_tables.c.over.is_(True), last_at < finished_before)
            .order_by(game_tables.c.code)
            .limit(limit)
        )
        async with self._read() as conn:
            codes = list((await conn.execute(query)).scalars())
        for code in codes:
            async with self._write() as conn:
                rows = (
                    await conn.execute(
                        sa.select(actions.c.version, actions.c.action, actions.c.at)
                        .where(actions.c.table_code == code)
                        .order_by(actions.c.version)
                    )
                ).all()
                archived, _ = await _archived(conn, code)  # archived before, then played on: one row again
                await conn.execute(archived_actions.delete().where(archived_actions.c.table_code == code))
                await conn.execute(
                    archived_actions.insert().values(
                        table_code=code, actions=json.dumps(archived + [r[1] for r in rows]), last_at=rows[-1][2]
                    )
                )
                # Only the rows read: one a server stored meanwhile stays, and is read after the archive.
                done = sa.and_(actions.c.table_code == code, actions.c.version <= rows[-1][0])
                await conn.execute(actions.delete().where(done))
        return codes


async def _archived(conn: AsyncConnection, code: str) -> tuple[list[str], datetime | None]:
    """A table's archived actions (from version 1 on) and when the last was made; none: ``[]``."""
    query = sa.select(archived_actions.c.actions, archived_actions.c.last_at).where(
        archived_actions.c.table_code == code
    )
    row = (await conn.execute(query)).first()
    if row is None:
        return [], None
    return list(json.loads(row[0])), aware(row[1]) if row[1] is not None else None


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if done.done():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


class _Refused(Exception):
    """Rolls back a transaction whose precondition no longer holds."""


def _played() -> sa.ColumnElement[bool]:
    """Whether a table has an action (in its rows or archived): a match begun is a replay, never swept."""
    return sa.or_(
        sa.exists().where(actions.c.table_code == game_tables.c.code),
        sa.exists().where(archived_actions.c.table_code == game_tables.c.code),
    )


def _public(config: dict[str, Any]) -> bool:
    """The ``public`` column mirrors the configuration's flag, so the lobby can find public tables by index."""
    return bool(config.get("public", False))


def aware(at: datetime) -> datetime:
    """A time read back from the database, in UTC: SQLite drops the zone it was stored with."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _test_when_idle(engine: AsyncEngine, clock: Clock) -> None:
    """Test a pooled connection before use only when it has been idle (see ``IDLE_TEST_SECONDS``)."""

    @sa.event.listens_for(engine.sync_engine, "checkin")
    def idle_from(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[IDLE_SINCE] = clock.monotonic()

    @sa.event.listens_for(engine.sync_engine, "checkout")
    def test_if_idle(dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection) -> None:
        if clock.monotonic() - record.info.get(IDLE_SINCE, math.inf) < IDLE_TEST_SECONDS:
            return
        try:
            dbapi_connection.ping()
        except Exception as exc:
            raise sa.exc.DisconnectionError from exc  # the pool replaces it and checks out another


def _in_memory(url: str) -> bool:
    """An SQLite database that lives in its connection's memory (every connection has its own)."""
    database = make_url(url).database
    return database in (None, "", ":memory:") or "mode=memory" in url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a committed write survives the process being killed.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")  # SQLite enforces foreign keys only where asked, connection by connection
    cursor.close()

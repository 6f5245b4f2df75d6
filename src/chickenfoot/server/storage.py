"""Durable storage of tables and their actions (SQLAlchemy 2 async; SQLite by default, PostgreSQL too).

A table is its configuration (rules, seats, seed) plus the ordered list of its game actions (each
a move in RULES.md notation, or ``next_round``). The engine is deterministic given the seed, so
replaying the actions rebuilds every table exactly.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

MIGRATIONS = Path(__file__).with_name("migrations")

metadata = sa.MetaData()
game_tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=True),
)
seat_secrets = sa.Table(
    "seat_secrets",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("purpose", sa.String(8), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False),
)
reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("review", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


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

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            # One connection: SQLite has a single writer anyway, and a lock keeps writers in line.
            self.engine: AsyncEngine = create_async_engine(url, pool_size=1, max_overflow=0)
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_async_engine(url, pool_size=10, max_overflow=10)
        self._lock = asyncio.Lock() if self.is_sqlite else None
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def migrate(self) -> None:
        """Bring the schema up to date (Alembic, run in-process)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        await self.engine.dispose()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self._lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._lock, self.engine.begin() as conn:
            yield conn

    async def create_table(self, code: str, config: dict[str, Any]) -> bool:
        """Store a new table; ``False`` if the code is taken."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    game_tables.insert().values(code=code, config=json.dumps(config), created_at=datetime.now(UTC))
                )
        except sa.exc.IntegrityError:
            return False
        return True

    async def update_config(self, code: str, config: dict[str, Any]) -> None:
        async with self._write() as conn:
            await conn.execute(game_tables.update().where(game_tables.c.code == code).values(config=json.dumps(config)))

    async def append_action(self, code: str, version: int, action: str, at: datetime | None = None) -> None:
        """Store action number ``version`` of a table (numbered from 1); a duplicate number fails.

        ``at`` is when it was made (default: now).
        Returns once committed. Actions of many tables that arrive together share one transaction
        (group commit): one database round trip for all of them instead of one each.
        """
        done = asyncio.get_running_loop().create_future()
        row = {"table_code": code, "version": version, "action": action, "at": at or datetime.now(UTC)}
        self._pending.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self._write() as conn:
                    await conn.execute(actions.insert(), [row for row, _ in batch])
            except Exception:
                # One bad row fails the whole batch: write them one by one so only it fails.
                for row, done in batch:
                    try:
                        async with self._write() as conn:
                            await conn.execute(actions.insert(), [row])
                    except Exception as exc:
                        if not done.done():
                            done.set_exception(exc)
                    else:
                        if not done.done():
                            done.set_result(None)
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def load_table(self, code: str) -> tuple[dict[str, Any], list[str]] | None:
        """A table's configuration and its actions in order, or ``None``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(game_tables.c.config).where(game_tables.c.code == code))).first()
            if row is None:
                return None
            rows = await conn.execute(
                sa.select(actions.c.action).where(actions.c.table_code == code).order_by(actions.c.version)
            )
            return json.loads(row[0]), [r[0] for r in rows]

    async def last_action_time(self, code: str) -> datetime | None:
        """When the table's latest action was stored (``None``: no action, or stored before times were)."""
        async with self.engine.connect() as conn:
            query = sa.select(actions.c.at).where(actions.c.table_code == code).order_by(actions.c.version.desc())
            at = (await conn.execute(query.limit(1))).scalar()
        return _aware(at) if at is not None else None

    async def secrets_of(self, code: str, purpose: str) -> list[tuple[int, str]]:
        """The (seat, digest) pairs of one table for one purpose."""
        async with self.engine.connect() as conn:
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

    async def drop_secrets(self, code: str, seat: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                seat_secrets.delete().where((seat_secrets.c.table_code == code) & (seat_secrets.c.seat == seat))
            )

    async def save_review(self, code: str, review: dict[str, Any]) -> None:
        """Store a finished match's review (a second one for the same table fails)."""
        async with self._write() as conn:
            await conn.execute(
                reviews.insert().values(table_code=code, review=json.dumps(review), created_at=datetime.now(UTC))
            )

    async def load_review(self, code: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(reviews.c.review).where(reviews.c.table_code == code))).first()
            return None if row is None else dict(json.loads(row[0]))


class _Refused(Exception):
    """Rolls back a transaction whose precondition no longer holds."""


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite drops the zone


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a committed write survives the process being killed.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()

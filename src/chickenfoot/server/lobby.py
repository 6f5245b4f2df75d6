"""The lobby's list of public tables: those waiting for players, and those in play to watch.

Read from storage (the ``public`` and ``over`` columns, indexed), so every server process lists the
same tables. Clients poll it with ``If-None-Match``: one answer is built at most once per
:data:`CACHE_SECONDS` per process however many clients poll, and an unchanged list costs a client a
``304`` with no body. Polling rather than a lobby WebSocket: nobody holds a connection (or a
process's memory) for merely looking at the lobby, any process behind any proxy can answer, and the
cost is bounded by the cache, not by the number of visitors.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

import sqlalchemy as sa

from chickenfoot.rules import Rules
from chickenfoot.server.clock import Clock
from chickenfoot.server.storage import Storage, StorageUnavailable, game_tables
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.readiness import may_start

log = logging.getLogger(__name__)

LISTED = 50
"""Tables listed at most, the newest first."""
CACHE_SECONDS = 2.0
POLL_SECONDS = 5
"""How often the page asks (the answer's ``poll``)."""


def listing(code: str, config: TableConfig) -> dict[str, Any]:
    """One public table as the lobby shows it: ``waiting`` until its first deal (for free seats, or
    for the seated to be ready), ``playing`` from then on."""
    seats = config.seats
    waiting = config.playing_since is None and not may_start(config)
    rules: Rules = config.rules
    return {
        "code": code,
        "rules": rules.to_dict(),
        "rounds": rules.round_count,
        "players": len(seats),
        "free": sum(s.kind == "human" and not s.taken for s in seats),
        "bots": sum(s.kind == "bot" for s in seats),
        "seated": [n for n, s in enumerate(seats) if s.kind == "human" and s.taken],
        "names": [s.name for s in seats if s.kind == "human" and s.taken],
        "status": "waiting" if waiting else "playing",
    }


class Lobby:
    """The public tables, cached briefly; :meth:`finished` takes a table off the list."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage, self.clock = storage, clock
        self._cached: tuple[float, str, str] | None = None
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    async def body_and_tag(self) -> tuple[str, str]:
        """The list as JSON text, and its entity tag."""
        async with self._lock:  # concurrent polls share one query
            now = self.clock.monotonic()
            if self._cached is None or now - self._cached[0] >= CACHE_SECONDS:
                tables = await self._read()
                body = json.dumps({"tables": tables, "poll": POLL_SECONDS}, separators=(",", ":"))
                tag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
                self._cached = (now, body, tag)
            return self._cached[1], self._cached[2]

    async def _read(self) -> list[dict[str, Any]]:
        query = (
            sa.select(game_tables.c.code, game_tables.c.config)
            .where(game_tables.c.public.is_(True), game_tables.c.over.is_(False))
            .order_by(game_tables.c.created_at.desc())
            .limit(LISTED)
        )
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return [listing(code, TableConfig.from_json(json.loads(config))) for code, config in rows]

    def finished(self, code: str) -> None:
        """A table's match is over: it leaves the list (it stays as a replay)."""
        task = asyncio.get_running_loop().create_task(self._finish(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finish(self, code: str) -> None:
        try:
            async with self.storage.transaction() as conn:
                await conn.execute(game_tables.update().where(game_tables.c.code == code).values(over=True))
        except StorageUnavailable:
            log.warning("table %s stays in the lobby's list: the game store is unavailable", code)

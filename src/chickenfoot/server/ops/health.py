"""``/healthz`` and ``/readyz``: whether a server process is alive, and whether it should be sent players.

- ``GET /healthz`` answers ``200 {"alive": true}`` from the event loop: an answer at all says the
  loop turns. It reads nothing else, so it is as cheap as an answer can be.
- ``GET /readyz`` answers ``200`` when the process can serve a player now, else ``503``, with what
  it found: the game store answers, Redis answers (when the process shares one), the database's
  schema is the one this code expects (``head``; ``ahead`` when a newer release migrated it, which a
  rolling upgrade allows; ``behind`` is not ready), and the process is not draining.

Both are answered before anything else looks at the request (the ``Host`` check, the rate limits),
take no credentials, and reveal nothing a visitor could use. The probes of ``/readyz`` run on
connections of their own (one to the database, one to Redis), so a flood of reads that keeps the game
store's pool busy cannot make a healthy process look unready; and one probe serves every request
for a second, so a flood of ``/readyz`` costs one query a second.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Literal

import redis.asyncio as redis
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from starlette.types import ASGIApp, Receive, Scope, Send

from chickenfoot.server.clock import SYSTEM_CLOCK, Clock
from chickenfoot.server.storage import MIGRATIONS

PROBE_SECONDS = 2.0
"""A probe not answered in this time failed."""
FRESH_SECONDS = 1.0
"""A probe's finding serves the requests of this long after it."""

Schema = Literal["head", "ahead", "behind", "unknown"]


@dataclass(frozen=True, slots=True)
class Findings:
    storage: bool
    redis: bool | None
    """``None``: this process shares no Redis."""
    schema: Schema
    draining: bool

    @property
    def ready(self) -> bool:
        return self.storage and self.redis is not False and self.schema in ("head", "ahead") and not self.draining

    def json(self) -> dict[str, object]:
        """The answer's body.

        >>> Findings(True, None, "head", False).json()
        {'ready': True, 'storage': 'up', 'schema': 'head', 'draining': False}
        >>> Findings(True, False, "head", False).json()["redis"]
        'down'
        """
        found: dict[str, object] = {"ready": self.ready, "storage": "up" if self.storage else "down"}
        if self.redis is not None:
            found["redis"] = "up" if self.redis else "down"
        return found | {"schema": self.schema, "draining": self.draining}


def migration_heads() -> tuple[str, frozenset[str]]:
    """This code's head revision and every revision it knows."""
    script = ScriptDirectory(str(MIGRATIONS))
    return str(script.get_current_head()), frozenset(r.revision for r in script.walk_revisions())


def schema_of(revision: str | None, head: str, known: frozenset[str]) -> Schema:
    """Where a database at ``revision`` stands against this code.

    >>> known = frozenset({"0012_ratings", "0013_bot_api"})
    >>> [schema_of(r, "0013_bot_api", known) for r in ("0013_bot_api", "0012_ratings", "0014_later", None)]
    ['head', 'behind', 'ahead', 'unknown']
    """
    if revision is None:
        return "unknown"
    if revision == head:
        return "head"
    return "behind" if revision in known else "ahead"


class Readiness:
    """Probes the database and Redis on connections of their own, at most once a second."""

    def __init__(self, database_url: str, redis_url: str | None, clock: Clock = SYSTEM_CLOCK) -> None:
        self.database_url, self.redis_url, self.clock = database_url, redis_url, clock
        self.draining = False
        """Set once the process stops taking players (its drain): it then answers not ready."""
        self.head, self.known = migration_heads()
        self._engine: AsyncEngine | None = None
        self._redis: redis.Redis | None = None
        self._last: tuple[float, Findings] | None = None
        self._probing: asyncio.Task[Findings] | None = None

    def start(self) -> None:
        # One connection each, never shared with the game's pool: its own queue cannot starve the probe.
        self._engine = create_async_engine(self.database_url, pool_size=1, max_overflow=0, pool_timeout=PROBE_SECONDS)
        if self.redis_url is not None:
            self._redis = redis.Redis.from_url(
                self.redis_url, max_connections=1, socket_timeout=PROBE_SECONDS, socket_connect_timeout=PROBE_SECONDS
            )

    async def close(self) -> None:
        if self._probing is not None:
            self._probing.cancel()
        if self._engine is not None:
            await self._engine.dispose()
        if self._redis is not None:
            await self._redis.aclose()

    async def findings(self) -> Findings:
        """What the latest probe found (a new one when the last is over a second old)."""
        now = self.clock.monotonic()
        if self._last is not None and now - self._last[0] < FRESH_SECONDS:
            found = self._last[1]
        else:
            if self._probing is None or self._probing.done():
                self._probing = asyncio.ensure_future(self._probe())
            found = await asyncio.shield(self._probing)  # one caller leaving does not cancel the others' probe
            self._last = (now, found)
        return Findings(found.storage, found.redis, found.schema, self.draining)

    async def _probe(self) -> Findings:
        storage, revision = await self._database()
        schema = schema_of(revision, self.head, self.known) if storage else "unknown"
        return Findings(storage, None if self._redis is None else await self._redis_answers(), schema, self.draining)

    async def _database(self) -> tuple[bool, str | None]:
        if self._engine is None:
            return False, None
        try:
            async with asyncio.timeout(PROBE_SECONDS), self._engine.connect() as conn:
                revision = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar()
        except Exception:
            return False, None
        return True, None if revision is None else str(revision)

    async def _redis_answers(self) -> bool:
        assert self._redis is not None
        try:
            async with asyncio.timeout(PROBE_SECONDS):
                return bool(await self._redis.ping())
        except Exception:
            return False


HEALTH_PATHS = frozenset({"/healthz", "/readyz"})


class HealthEndpoints:
    """ASGI middleware answering ``GET /healthz`` and ``GET /readyz`` before anything else sees them."""

    def __init__(self, app: ASGIApp, readiness: Readiness) -> None:
        self.app, self.readiness = app, readiness

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in HEALTH_PATHS:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _answer(send, 405, {"detail": "GET only"})
        elif scope["path"] == "/healthz":
            await _answer(send, 200, {"alive": True})
        else:
            found = await self.readiness.findings()
            await _answer(send, 200 if found.ready else 503, found.json())


async def _answer(send: Send, status: int, body: dict[str, object]) -> None:
    content = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})

"""Who is connected to each table's seats, counted over every server process.

One process counts its own sockets (:class:`LocalConnections`). Several share the counts in
Redis (:class:`RedisConnections`): each process writes its own count of each seat as a field
``PROCESS:SEAT`` of the table's hash, and keeps a heartbeat key alive while it runs. Readers add up
the fields of live processes only and delete those of processes whose heartbeat expired, so the
sockets of a killed process vanish within ``ttl``. Every process keeps its own counts in memory,
so when its heartbeat is found missing (Redis restarted empty, or the process was paused past
``ttl`` and its fields were swept) it writes them all again.

Beside the counts, each table's grace deadlines (when each absent seat is, or was, covered): a table
read back from storage, in this process or another, continues them rather than starting afresh.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Protocol, cast

from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from chickenfoot.server.clock import Clock
from chickenfoot.server.cluster.redis_client import client, stop_if_cancelled

log = logging.getLogger(__name__)

DEFAULT_TTL = 10.0
"""Seconds after its last heartbeat that a process's sockets stop counting: long enough that a
process kept from the CPU a few seconds is not taken for dead (its tables would look deserted and
pause), short beside the 20 s grace before an absent player is covered."""
KEPT_GRACES = 10_000
"""Tables whose grace deadlines one process keeps in memory at most; past them the oldest are forgotten."""
GRACE_KEPT_SECONDS = 3600
"""How long Redis keeps a table's grace deadlines after they were last written."""


class Connections(Protocol):
    async def arrive(self, code: str, seat: int) -> None:
        """Count one more socket of ``seat`` at table ``code``."""

    async def leave(self, code: str, seat: int) -> None:
        """Count one socket of ``seat`` fewer."""

    async def counts(self, code: str, seats: int) -> list[int]:
        """The sockets of each of the table's ``seats`` seats, in every process."""

    async def graces(self, code: str) -> dict[int, float]:
        """When each absent seat of the table is (or was) covered, as last kept."""

    async def keep_graces(self, code: str, graces: dict[int, float]) -> None:
        """Keep the table's grace deadlines (none: forget them)."""


class LocalConnections:
    """The sockets of this process, which is the only one."""

    def __init__(self) -> None:
        self.own: dict[str, Counter[int]] = {}
        self.kept_graces: dict[str, dict[int, float]] = {}
        """Each table's grace deadlines, the most recently written last."""

    async def arrive(self, code: str, seat: int) -> None:
        self.own.setdefault(code, Counter())[seat] += 1

    async def leave(self, code: str, seat: int) -> None:
        table = self.own.get(code)
        if table is None or table[seat] <= 0:
            return
        table[seat] -= 1
        if table[seat] == 0:
            del table[seat]
        if not table:
            del self.own[code]

    async def counts(self, code: str, seats: int) -> list[int]:
        table = self.own.get(code, Counter())
        return [table[seat] for seat in range(seats)]

    async def graces(self, code: str) -> dict[int, float]:
        return dict(self.kept_graces.get(code, {}))

    async def keep_graces(self, code: str, graces: dict[int, float]) -> None:
        self.kept_graces.pop(code, None)
        if graces:
            self.kept_graces[code] = dict(graces)
            if len(self.kept_graces) > KEPT_GRACES:
                del self.kept_graces[next(iter(self.kept_graces))]


class RedisConnections:
    """Counts shared through one Redis; :meth:`run` keeps this process's heartbeat while it serves."""

    def __init__(
        self,
        url: str,
        *,
        ttl: float = DEFAULT_TTL,
        prefix: str = "chickenfoot:",
        process: str | None = None,
        clock: Clock,
    ) -> None:
        self.ttl, self.prefix, self.clock = ttl, prefix, clock
        self.process = process or secrets.token_hex(8)
        """This process in the counts' field names (no colons)."""
        self._local = LocalConnections()
        # One quick retry: a pooled connection is stale after a Redis restart.
        self._redis = client(url, retry=Retry(NoBackoff(), 1), decode_responses=True)
        # The heartbeat has a connection of its own: behind a burst of arrivals' writes it would be
        # late, and this process's sockets would be swept as a dead process's.
        self._heart = client(url, retry=Retry(NoBackoff(), 1), decode_responses=True, connections=1)
        self.restored: Callable[[list[str]], Awaitable[None]] | None = None
        """Called with the tables whose counts :meth:`beat` wrote again: the others must count them again."""
        self._lock = asyncio.Lock()
        self._beating = False
        self._unsaved: set[tuple[str, int]] = set()

    async def arrive(self, code: str, seat: int) -> None:
        await self._local.arrive(code, seat)
        await self._write(code, seat)

    async def leave(self, code: str, seat: int) -> None:
        await self._local.leave(code, seat)
        await self._write(code, seat)

    async def counts(self, code: str, seats: int) -> list[int]:
        # Text, not bytes: the client decodes replies.
        fields = cast(dict[str, str], await self._redis.hgetall(self._table_key(code)))
        # This process's own sockets are counted from memory: they are surely there, even while
        # its heartbeat is late and its fields look stale to the others.
        fields = {field: count for field, count in fields.items() if field.split(":")[0] != self.process}
        processes = sorted({field.split(":")[0] for field in fields})
        async with self._redis.pipeline(transaction=False) as pipe:
            for process in processes:
                pipe.exists(self._heartbeat_key(process))
            alive = dict(zip(processes, await pipe.execute(), strict=True))
        if stale := [field for field in fields if not alive[field.split(":")[0]]]:
            await self._redis.hdel(self._table_key(code), *stale)  # sockets of processes that are gone
        totals = await self._local.counts(code, seats)
        for field, count in fields.items():
            process, seat = field.split(":")
            if alive[process] and 0 <= int(seat) < seats:
                totals[int(seat)] += int(count)
        return totals

    async def graces(self, code: str) -> dict[int, float]:
        fields = cast(dict[str, str], await self._redis.hgetall(self._graces_key(code)))
        return {int(seat): float(at) for seat, at in fields.items()}

    async def keep_graces(self, code: str, graces: dict[int, float]) -> None:
        key = self._graces_key(code)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            if graces:
                pipe.hset(key, mapping={str(seat): repr(at) for seat, at in graces.items()})
                pipe.expire(key, GRACE_KEPT_SECONDS)
            await pipe.execute()

    async def run(self) -> None:
        """Renew the heartbeat every third of ``ttl`` until cancelled; then take this process's sockets out."""
        try:
            while True:
                try:
                    await self.beat()
                except (RedisError, OSError) as exc:
                    log.warning("connection counts not shared (%s); retrying", exc)
                stop_if_cancelled()
                await self.clock.sleep(self.ttl / 3)
        finally:
            with suppress(RedisError, OSError):
                await self._redis.delete(self._heartbeat_key(self.process))
                for code, seats in self._local.own.items():
                    await self._redis.hdel(self._table_key(code), *(self._field(seat) for seat in seats))

    async def beat(self) -> None:
        """Renew the heartbeat and store the counts whose writing failed; when the heartbeat had
        vanished (Redis restarted, or this process was paused and swept), store every count again."""
        key, ttl_ms = self._heartbeat_key(self.process), round(self.ttl * 1000)
        # Not behind the writes' lock: a burst of writes must not make the heartbeat late.
        vanished = not await self._heart.set(key, 1, px=ttl_ms, xx=True)
        if vanished:
            await self._heart.set(key, 1, px=ttl_ms)
            self._unsaved.update((code, seat) for code, seats in self._local.own.items() for seat in seats)
        # The first beat writes what the arrivals announce themselves; a later one that finds the
        # key gone restores counts that the others swept, and they must count them again.
        restoring, self._beating = vanished and self._beating, True
        rewritten = {code for code, _ in self._unsaved}
        for code, seat in list(self._unsaved):
            await self._write(code, seat)
        if restoring and rewritten and self.restored is not None:
            await self.restored(sorted(rewritten))

    async def close(self) -> None:
        await self._redis.aclose()
        await self._heart.aclose()

    async def _write(self, code: str, seat: int) -> None:
        """Store this process's count of ``seat`` as it is now (writes take turns, so the last one wins).

        A write that fails is done again by the next heartbeat.
        """
        self._unsaved.add((code, seat))
        try:
            if not self._beating:
                await self.beat()  # fields of a process without a heartbeat are swept as dead
            async with self._lock:
                count = (await self._local.counts(code, seat + 1))[seat]
                if count:
                    await self._redis.hset(self._table_key(code), self._field(seat), str(count))
                else:
                    await self._redis.hdel(self._table_key(code), self._field(seat))
                self._unsaved.discard((code, seat))
        except (RedisError, OSError) as exc:
            log.warning("connection count of table %s not shared yet (%s)", code, exc)

    def _field(self, seat: int) -> str:
        return f"{self.process}:{seat}"

    def _table_key(self, code: str) -> str:
        return f"{self.prefix}connections:{code}"

    def _graces_key(self, code: str) -> str:
        return f"{self.prefix}graces:{code}"

    def _heartbeat_key(self, process: str) -> str:
        return f"{self.prefix}process:{process}"

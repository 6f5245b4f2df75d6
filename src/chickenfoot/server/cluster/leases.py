"""Which process drives a table's timed work (bots, forced moves, covering absent seats, next round).

Exactly one process at a time should: a lease with expiry. One server process alone holds every
lease at once (:class:`LocalLeases`: nothing to install, nothing changes). Several processes share
:class:`RedisLeases`: ``SET key "owner token" NX PX ttl`` takes a free lease, a Lua
compare-and-extend renews it only while it is still ours, a Lua compare-and-delete gives it back.
A process that dies stops renewing and another takes the lease when it expires: within ``ttl``
plus one retry interval (``ttl / 3``) of the holder's last renewal.

Why Redis and not a PostgreSQL advisory lock: an advisory lock lives as long as the holder's
database session, so a holder that hangs (a long pause, a lost network with TCP still waiting)
keeps its tables' timed work stopped for as long as its connection stays up, while a lease expires
on its own and bounds takeover by ``ttl`` whatever the failure; a session lock would also pin one
database connection per process for as long as it drives tables, and add lock traffic to the
database, the part that already carries every move. Redis is there anyway for pub/sub.

Fencing: each acquisition returns a token larger than every earlier token of that lease (Redis's
clock in microseconds, raised past the last token given: it stays monotonic even when a Redis
without persistence restarts empty). The holder keeps a local deadline measured from before its
request was sent, so it stops acting when the lease may have expired in Redis, even if it was
paused and has not heard from Redis since; a renewal it sends afterwards fails when another token
holds the lease, and the keeper reports the loss. A holder that acts between those two moments
(woken from a pause just past its own check) is still harmless: its action is a move for the
table's version, and the database's ``(table, version)`` key accepts only one move per version.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from chickenfoot.server.clock import Clock
from chickenfoot.server.cluster.redis_client import client, stop_if_cancelled

log = logging.getLogger(__name__)

DEFAULT_TTL = 3.0
"""Seconds a lease lasts without renewal: a dead holder is replaced within about 4/3 of this."""
TOKEN_KEEP_MS = 24 * 3600 * 1000
"""How long the last token of a lease is remembered (tokens also grow with Redis's clock)."""

MAX_BATCH = 1000
"""Leases taken or renewed by one script call at most."""

# Each script serves a batch: KEYS holds every lease's keys, ARGV the shared arguments then each
# lease's own; the answer has one number per lease (0: not taken, not renewed).
_ACQUIRE = """
local owner, ttl, keep = ARGV[1], ARGV[2], ARGV[3]
local now = redis.call('TIME')
local clock = tonumber(now[1]) * 1000000 + tonumber(now[2])
local out = {}
for i = 1, #KEYS, 2 do
  local token = 0
  if redis.call('EXISTS', KEYS[i]) == 0 then
    token = clock
    local last = tonumber(redis.call('GET', KEYS[i + 1]) or '0')
    if token <= last then token = last + 1 end
    local text = string.format('%.0f', token)
    redis.call('SET', KEYS[i + 1], text, 'PX', keep)
    redis.call('SET', KEYS[i], owner .. ' ' .. text, 'NX', 'PX', ttl)
  end
  out[#out + 1] = token
end
return out
"""
_RENEW = """
local out = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i + 1] then out[i] = redis.call('PEXPIRE', KEYS[i], ARGV[1]) else out[i] = 0 end
end
return out
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class LeaseError(Exception):
    """The lease store cannot be reached: whether the lease is still held is unknown."""


@dataclass(frozen=True, slots=True)
class Hold:
    """A lease this process holds: its name, its fencing token and the local deadline."""

    name: str
    token: int
    expires: float
    """The holder's monotonic time after which the lease may belong to someone else."""

    def valid(self, now: float) -> bool:
        """Surely still ours at ``now`` (the holder's monotonic time)."""
        return now < self.expires


class Leases(Protocol):
    ttl: float
    clock: Clock
    """Whose monotonic time the holds' expiries are in."""

    async def acquire(self, name: str) -> Hold | None:
        """The lease ``name`` if nobody holds it; ``None`` if someone does."""

    async def renew(self, hold: Hold) -> Hold | None:
        """``hold`` extended by ``ttl``; ``None`` if it was lost meanwhile."""

    async def release(self, hold: Hold) -> None:
        """Give the lease up at once (if it is still ours) so another process can take it."""


class LocalLeases:
    """One process: it always holds every lease."""

    ttl = math.inf

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._tokens: dict[str, int] = {}

    async def acquire(self, name: str) -> Hold | None:
        token = self._tokens[name] = self._tokens.get(name, 0) + 1
        return Hold(name, token, math.inf)

    async def renew(self, hold: Hold) -> Hold | None:
        return hold

    async def release(self, hold: Hold) -> None:
        return None


class RedisLeases:
    """Leases shared by every process connected to one Redis; ``owner`` tells this process apart."""

    def __init__(
        self,
        url: str,
        *,
        ttl: float = DEFAULT_TTL,
        prefix: str = "chickenfoot:lease:",
        owner: str | None = None,
        clock: Clock,
    ) -> None:
        self.ttl, self.clock = ttl, clock
        self.prefix = prefix
        self.owner = owner or secrets.token_hex(8)
        """Who holds a lease, in its value (no spaces)."""
        # One quick retry: a pooled connection is stale after a Redis restart.
        self._redis = client(
            url, wait=ttl / 3, retry=Retry(NoBackoff(), 1), socket_timeout=ttl / 3, socket_connect_timeout=ttl / 3
        )
        ttl_ms = round(ttl * 1000)
        self._acquire = Batched(self._redis.register_script(_ACQUIRE), [self.owner, ttl_ms, TOKEN_KEEP_MS])
        self._renew = Batched(self._redis.register_script(_RENEW), [ttl_ms])
        self._release = self._redis.register_script(_RELEASE)

    async def acquire(self, name: str) -> Hold | None:
        start = self.clock.monotonic()
        token = await self._acquire.call([self.prefix + name, self.prefix + name + ":token"], [])
        return None if token == 0 else Hold(name, int(token), start + self.ttl)

    async def renew(self, hold: Hold) -> Hold | None:
        start = self.clock.monotonic()
        renewed = await self._renew.call([self.prefix + hold.name], [self._value(hold)])
        return Hold(hold.name, hold.token, start + self.ttl) if renewed == 1 else None

    async def release(self, hold: Hold) -> None:
        await self._run(self._release, [self.prefix + hold.name], [self._value(hold)])

    async def close(self) -> None:
        await self._redis.aclose()

    def _value(self, hold: Hold) -> str:
        return f"{self.owner} {hold.token}"

    @staticmethod
    async def _run(script: AsyncScript, keys: list[str], args: list[str | int]) -> Any:
        try:
            return await script(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            raise LeaseError(f"lease store unreachable: {exc}") from exc


class Batched:
    """The calls of one lease script asked in the same turn of the event loop, sent as one script call.

    A process's tables renew (or try to take) their leases every second, together: one call
    each would take one pooled Redis connection each, and under load hundreds of them ran the pool
    dry and lost leases that were still theirs. A batch costs one connection and one round trip.
    """

    def __init__(self, script: AsyncScript, shared: list[str | int]) -> None:
        self.script, self.shared = script, shared
        self._asked: list[tuple[list[str], list[str | int], asyncio.Future[Any]]] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def call(self, keys: list[str], args: list[str | int]) -> Any:
        """This lease's answer (raises :class:`LeaseError` when the store cannot be reached)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._asked.append((keys, args, answer))
        if len(self._asked) == 1:
            loop.call_soon(self._send)  # after every call asked in this turn
        return await answer

    def _send(self) -> None:
        asked, self._asked = self._asked, []
        for start in range(0, len(asked), MAX_BATCH):
            task = asyncio.create_task(self._run(asked[start : start + MAX_BATCH]))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _run(self, batch: list[tuple[list[str], list[str | int], asyncio.Future[Any]]]) -> None:
        keys = [key for item in batch for key in item[0]]
        args = [*self.shared, *(arg for item in batch for arg in item[1])]
        try:
            answers = await self.script(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            self._fail(batch, LeaseError(f"lease store unreachable: {exc}"))
            return
        except BaseException:
            self._fail(batch, LeaseError("lease store call cancelled"))
            raise
        for (_, _, answer), value in zip(batch, answers, strict=True):
            if not answer.done():  # its caller may have been cancelled meanwhile
                answer.set_result(value)

    @staticmethod
    def _fail(batch: list[tuple[list[str], list[str | int], asyncio.Future[Any]]], error: LeaseError) -> None:
        for _, _, answer in batch:
            if not answer.done():
                answer.set_exception(error)


def until_beat(interval: float, now: float) -> float:
    """Seconds from ``now`` (monotonic) to the process's next beat (the multiples of ``interval`` on
    its clock) at least half an interval away. Every keeper that waits for it wakes in the same turn
    of the event loop, so all the process's renewals go out as one script call (:class:`Batched`);
    the half interval keeps a keeper woken a hair before its beat from taking the same beat again,
    alone."""
    return (math.floor(now / interval + 0.5) + 1) * interval - now


class LeaseKeeper:
    """Holds one lease whenever it can: tries to take it, renews it, and says when it is won or lost.

    ``on_change`` gets the new :class:`Hold` when the lease is won and ``None`` when it is lost;
    :attr:`hold` is the lease while it is surely ours (check it right before each timed action).
    """

    def __init__(self, leases: Leases, name: str, on_change: Callable[[Hold | None], None]) -> None:
        self.leases, self.name, self.on_change = leases, name, on_change
        self._hold: Hold | None = None

    @property
    def hold(self) -> Hold | None:
        if self._hold is not None and not self._hold.valid(self.leases.clock.monotonic()):
            self._lose()
        return self._hold

    async def run(self) -> None:
        """Keep trying until cancelled (a third of the lease's time between tries)."""
        interval = min(self.leases.ttl / 3, 3600.0)
        try:
            while True:
                await self._step()
                stop_if_cancelled()
                clock = self.leases.clock
                await clock.sleep(until_beat(interval, clock.monotonic()))
        finally:
            await self._give_up()

    async def _step(self) -> None:
        held = self.hold
        try:
            if held is None:
                self._hold = await self.leases.acquire(self.name)
                if self._hold is not None:
                    self.on_change(self._hold)
            elif (renewed := await self.leases.renew(held)) is None:
                self._lose()
            else:
                self._hold = renewed
        except LeaseError as exc:
            log.warning("lease %s: %s", self.name, exc)

    def _lose(self) -> None:
        self._hold = None
        self.on_change(None)

    async def _give_up(self) -> None:
        held, self._hold = self._hold, None
        if held is not None:
            try:
                await self.leases.release(held)
            except LeaseError as exc:
                log.warning("lease %s not released (it expires by itself): %s", self.name, exc)

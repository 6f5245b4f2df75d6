"""Per-address limits (the ``limits`` library): connections, new tables, chat lines, replays built, hints
searched, sign-ins and quick play's joins.

The counters live in a ``limits`` storage named by URI: ``memory://`` for one process; pointing
``storage`` at ``redis://host:6379`` shares them between several server processes.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any, Literal

import limits
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError, StorageError
from limits.storage import storage_from_string

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.cluster.redis_client import pool

Action = Literal[
    "connection",
    "table",
    "chat",
    "replay",
    "hint",
    "sign_in",
    "sign_in_name",
    "quick_play",
    "profile",
    "handover",
]
TOO_MANY = {
    "connection": Code.ERROR_TOO_MANY_CONNECTIONS,
    "table": Code.ERROR_TOO_MANY_TABLES,
    "chat": Code.ERROR_TOO_MANY_CHAT_LINES,
    "replay": Code.ERROR_TOO_MANY_REPLAYS,
    "hint": Code.ERROR_TOO_MANY_HINTS,
    "sign_in": Code.ACCOUNT_TOO_MANY_SIGN_INS,
    "sign_in_name": Code.ACCOUNT_TOO_MANY_SIGN_INS,
    "quick_play": Code.QUICKPLAY_TOO_MANY_JOINS,
    "profile": Code.ERROR_TOO_MANY_PROFILES,
    "handover": Code.ERROR_TOO_MANY_HANDOVERS,
}

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AddressLimits:
    """How many new connections and new tables one client address may open, and how many chat lines it
    may say over all its connections and tables (``limits`` notation)."""

    connections: str = "60/minute"
    tables: str = "20/minute"
    storage: str = "memory://"
    """A ``limits`` storage URI (``memory://``, ``redis://host:6379``, ...)."""
    cutoff: str | None = "1/minute"
    """Cut-offs (for flooding or not reading) an address may have in a window; past them its new
    connections are refused until the window has passed (``1/minute``: one cut-off pauses it for a
    minute; ``None``: no such pause)."""
    chat: str = "30/minute"
    """Chat lines and reactions; each connection has its own smaller budget too, so this bounds a
    client that opens many connections."""
    replays: str = "30/minute"
    """Replays of rounds that must be built (a replay already built, or the client's own copy, is not counted)."""
    hints: str = "30/minute"
    """Hints that must be searched (about a second of a worker's CPU each; a position's hint already
    found, for any table, is not counted)."""
    sign_ins: str = "30/15minutes"
    """Sign-in attempts (password, passkey or one-time link) from one address."""
    sign_ins_per_name: str = "10/15minutes"
    """Password sign-in attempts at one username from all addresses together (the key is the name's
    skeleton, whether an account has it or not: the limit tells nothing about who exists)."""
    quick_plays: str = "20/minute"
    """Joins of the quick play queue (each one a database write and a pairing pass)."""
    profiles: str = "60/minute"
    """Pages of profiles and "My matches" built (a page built in the last seconds is not counted)."""
    handovers: str = "20/minute"
    """Links to continue on another device, made or spent, from one address."""


class Limiter:
    """Counts each address's new connections and tables in a moving window."""

    def __init__(self, settings: AddressLimits) -> None:
        self.items = {
            "connection": limits.parse(settings.connections),
            "table": limits.parse(settings.tables),
            "chat": limits.parse(settings.chat),
            "replay": limits.parse(settings.replays),
            "hint": limits.parse(settings.hints),
            "sign_in": limits.parse(settings.sign_ins),
            "sign_in_name": limits.parse(settings.sign_ins_per_name),
            "quick_play": limits.parse(settings.quick_plays),
            "profile": limits.parse(settings.profiles),
            "handover": limits.parse(settings.handovers),
        }
        self.cutoff = None if settings.cutoff is None else limits.parse(settings.cutoff)
        # The ``redis`` package (redis-py) rather than ``limits``' default client, on the server's
        # kind of pool (``limits`` takes ``connection_pool`` though its annotation says otherwise).
        options: dict[str, Any] = {}
        if settings.storage.startswith("redis"):
            options = {"implementation": "redispy", "connection_pool": pool(settings.storage)}
        try:
            storage = storage_from_string(f"async+{settings.storage}", wrap_exceptions=True, **options)
        except ConfigurationError as exc:
            raise ValueError(f"bad limits storage {settings.storage!r}: {exc}") from None
        self.limiter = MovingWindowRateLimiter(storage)

    async def refusal(self, action: Action, address: str) -> tuple[Said, int] | None:
        """``None`` if ``address`` may do ``action`` now (and counts it), else the reason and seconds to wait.

        While the counters' storage (a shared Redis) does not answer, nothing is refused: players
        keep playing, and the per-connection limits of each process still hold.
        """
        try:
            return await self._refusal(action, address)
        except StorageError as exc:
            log.warning("per-address limits not checked (%s)", exc)
            return None

    async def _refusal(self, action: Action, address: str) -> tuple[Said, int] | None:
        if (
            action == "connection"
            and self.cutoff is not None
            and not await self.limiter.test(self.cutoff, "cutoff", address)
        ):
            wait = await self._wait(self.cutoff, "cutoff", address)
            return Said.of(Code.ERROR_CUT_OFF, seconds=wait), wait
        item = self.items[action]
        if await self.limiter.hit(item, action, address):
            return None
        wait = await self._wait(item, action, address)
        return Said.of(TOO_MANY[action], limit=item.amount, window=item.get_expiry(), seconds=wait), wait

    async def cut_off(self, address: str) -> None:
        """A connection from ``address`` was cut off for flooding or not reading: pause its new ones."""
        if self.cutoff is not None:
            try:
                await self.limiter.hit(self.cutoff, "cutoff", address)
            except StorageError as exc:
                log.warning("cut-off of %s not counted (%s)", address, exc)

    async def _wait(self, item: limits.RateLimitItem, action: str, address: str) -> int:
        stats = await self.limiter.get_window_stats(item, action, address)
        # The real clock, always: ``limits`` keeps its windows in the system's time.
        return max(1, math.ceil(stats.reset_time - SYSTEM_CLOCK.now()))

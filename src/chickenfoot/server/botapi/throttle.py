"""Limits per API token (the ``limits`` library, shared through Redis across processes like the
per-address limits of :mod:`chickenfoot.server.limiter`).

Each token has its own allowance of moves, reads (seat views), stream connections, new tables and
chat lines. A request over its allowance is refused (429, a coded message, ``Retry-After``) before it
reaches a table or the database; a token that keeps going over (``strikes``) is paused whole for the
``pause`` window. The counters are keyed by the token's digest, so a flood costs one counter update
per request and never touches a table's lock: the other tables play on.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any, Literal

import limits
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.cluster.redis_client import pool

Use = Literal["move", "read", "stream", "table", "chat"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TokenLimits:
    """What one token may do (``limits`` notation)."""

    moves: str = "20/second"
    """Moves (and next-round requests): one per turn; two bots at a table of their own may take many
    turns a second, and a bot plays several tables."""
    reads: str = "10/second"
    """Seat views read (a streaming bot reads none: every state comes on its stream)."""
    streams: str = "30/minute"
    """Event streams opened (of the account and of its tables)."""
    tables: str = "10/minute"
    chat: str = "20/minute"
    strikes: str = "30/minute"
    """Refusals a token may collect before it is paused."""
    pause: str = "1/minute"
    """The pause of a token past its strikes: refused whole until this window has passed."""
    lookups: str = "20/second"
    """Per address (in each process): tokens not known yet looked up in storage; forged tokens past it cost nothing."""


class TokenThrottle:
    def __init__(self, settings: TokenLimits, storage: str) -> None:
        self.settings = settings
        self.items = {
            "move": limits.parse(settings.moves),
            "read": limits.parse(settings.reads),
            "stream": limits.parse(settings.streams),
            "table": limits.parse(settings.tables),
            "chat": limits.parse(settings.chat),
        }
        self.strikes, self.pause = limits.parse(settings.strikes), limits.parse(settings.pause)
        options: dict[str, Any] = {}
        if storage.startswith("redis"):
            options = {"implementation": "redispy", "connection_pool": pool(storage)}
        self.limiter = MovingWindowRateLimiter(storage_from_string(f"async+{storage}", wrap_exceptions=True, **options))

    async def refusal(self, use: Use, token: str) -> tuple[Said, int] | None:
        """``None`` if the token (its digest) may ``use`` now (and counts it), else why not and the seconds to wait.

        While the counters' storage does not answer, nothing is refused (as for the per-address limits).
        """
        try:
            return await self._refusal(use, token)
        except StorageError as exc:
            log.warning("per-token limits not checked (%s)", exc)
            return None

    async def _refusal(self, use: Use, token: str) -> tuple[Said, int] | None:
        if not await self.limiter.test(self.pause, "bot-pause", token):
            wait = await self._wait(self.pause, "bot-pause", token)
            return Said.of(Code.BOTAPI_PAUSED, seconds=wait), wait
        item = self.items[use]
        if await self.limiter.hit(item, f"bot-{use}", token):
            return None
        if not await self.limiter.hit(self.strikes, "bot-strikes", token):
            await self.limiter.hit(self.pause, "bot-pause", token)
            wait = await self._wait(self.pause, "bot-pause", token)
            return Said.of(Code.BOTAPI_PAUSED, seconds=wait), wait
        wait = await self._wait(item, f"bot-{use}", token)
        return Said.of(Code.BOTAPI_TOO_MANY, limit=item.amount, window=item.get_expiry(), seconds=wait), wait

    async def _wait(self, item: limits.RateLimitItem, key: str, token: str) -> int:
        stats = await self.limiter.get_window_stats(item, key, token)
        return max(1, math.ceil(stats.reset_time - SYSTEM_CLOCK.now()))

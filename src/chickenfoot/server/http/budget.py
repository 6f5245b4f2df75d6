"""The budget of cheap requests from everyone together: each costs little (a read of the store, an answer
built), but a flood of them from many addresses, every one under its own limits, would queue the
tables' own reads and writes behind it. Past :attr:`AddressLimits.cheap` (a rate, its amount also the
burst) in this process they are answered at once 503 ``error.server_busy`` with ``Retry-After``, before
any work: a token bucket on the server's clock and an answer written once, so that a refusal costs
less than the cheapest request it refuses."""

from __future__ import annotations

from collections import Counter

import limits
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock
from chickenfoot.server.http.answers import refusal_answer
from chickenfoot.server.refusals import Refusal

CHEAP_PATHS = (
    "/api/players/",
    "/api/matches",
    "/api/ratings/",
    "/api/leaderboard/",
    "/api/lobby",
    "/api/presets",
    "/u/",
)
"""The requests counted: profiles and their pages, "My matches", ratings, leaderboards, the lobby, the presets."""


class CheapBudget:
    """ASGI middleware refusing the cheap requests (:data:`CHEAP_PATHS`) past the budget of everyone
    together; each refusal counted in ``refused`` (the rate limiter's, for the metrics)."""

    def __init__(self, app: ASGIApp, rate: str, clock: Clock, refused: Counter[tuple[str, str]]) -> None:
        self.app, self.clock, self.refused = app, clock, refused
        item = limits.parse(rate)
        self.capacity, self.per_second = float(item.amount), item.amount / item.get_expiry()
        self.tokens, self.filled_at = self.capacity, clock.monotonic()
        wait = max(1, round(1 / self.per_second))
        said = Said.of(Code.ERROR_SERVER_BUSY, limit=item.amount, window=item.get_expiry(), seconds=wait)
        answer = refusal_answer(Refusal.busy(said, retry_after=wait))
        self.answer, self.headers = answer.body, {"Retry-After": answer.headers["retry-after"]}

    def spent(self) -> bool:
        """Whether one more cheap request is over the budget (else it is counted)."""
        now = self.clock.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.filled_at) * self.per_second)
        self.filled_at = now
        if self.tokens < 1:
            return True
        self.tokens -= 1
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope["path"]).startswith(CHEAP_PATHS) and self.spent():
            self.refused["everyone", "cheap"] += 1
            refused = Response(self.answer, 503, self.headers, media_type="application/json")
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)

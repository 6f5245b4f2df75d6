"""The budget of cheap requests from everyone together: each costs little (a read of the store, an answer
built), but a flood of them from many addresses, every one under its own limits, would queue the
tables' own reads and writes behind it. Past :attr:`AddressLimits.cheap` a second in this process they
are answered at once 503 ``error.server_busy`` with ``Retry-After``, before any work."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from chickenfoot.server.http.answers import refusal_answer
from chickenfoot.server.http.limits import EVERYONE, RateLimiter
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
    """ASGI middleware refusing the cheap requests (:data:`CHEAP_PATHS`) past the budget of everyone together."""

    def __init__(self, app: ASGIApp, limits: RateLimiter) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope["path"]).startswith(CHEAP_PATHS):
            refused = await self.limits.refusal("cheap", EVERYONE)
            if refused is not None:
                said, wait = refused
                await refusal_answer(Refusal.busy(said, retry_after=wait))(scope, receive, send)
                return
        await self.app(scope, receive, send)

"""Quick play's HTTP API: join the queue, send its heartbeat (and hear of the seat found), leave.

The heartbeat is plain HTTP rather than a socket of its own: any server process can answer it (the
queue is in the database), so it needs no sticky routing and survives a process restart.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import AfterValidator, BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, new_secret
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.quickplay.service import QuickPlay, SeatTaken, Wanted
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.protocol import printable_name

GUEST_COOKIE = "chickenfoot_quickplay"
"""A guest browser's own random id: one queue entry per browser (an account's is per account)."""
MAX_BOTS_AFTER = 600.0


class JoinRequest(BaseModel):
    players: Literal[2, 4] = 2
    rated: bool = False
    bots_after: float | None = Field(default=None, ge=0, le=MAX_BOTS_AFTER)
    """4 players: seconds after which bots may fill the empty seats (absent: the server's default; ``null`` never)."""
    name: Annotated[str, AfterValidator(printable_name)] | None = None
    move_seconds: Literal[3600, 43200, 86400, 172800, 259200, 604800] | None = None
    """At one's own pace, seconds per move (a pool of its own); absent: real-time."""


class TicketRequest(BaseModel):
    ticket: str = Field(max_length=MAX_SECRET_LENGTH)


def quickplay_router(quick_play: QuickPlay, accounts: Accounts, limits: RateLimiter) -> APIRouter:
    router = APIRouter()
    settings = quick_play.settings

    @router.post("/api/quickplay", status_code=201)
    async def join(request: JoinRequest, http: Request, response: Response) -> dict[str, Any]:
        """Wait for a table of ``players``: a ticket, to send with every heartbeat."""
        accounts.same_site(http)
        me = await accounts.signed_in(http)
        if request.rated and me is None:
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.QUICKPLAY_RATED_NEEDS_ACCOUNT))
        await limits.check("quick_play", client_address(http))
        # Each join may make a table: counted as the tables this address (and account) creates.
        await limits.check("table", client_address(http))
        if me is not None:
            await limits.check("account_table", str(me.account.id))
        browser = http.cookies.get(GUEST_COOKIE, "")
        if me is None and not 0 < len(browser) <= MAX_SECRET_LENGTH:
            browser = new_secret()
            response.set_cookie(GUEST_COOKIE, browser, path="/api/quickplay", httponly=True, samesite="strict")
        bots_after = request.bots_after if "bots_after" in request.model_fields_set else settings.bots_after
        wanted = Wanted(request.players, request.rated, bots_after, request.name or None, request.move_seconds)
        ticket = await quick_play.join(me, browser, client_address(http), wanted)
        return {"ticket": ticket, "beat": settings.beat_seconds, "lease": settings.lease_seconds}

    @router.post("/api/quickplay/beat")
    async def beat(request: TicketRequest, http: Request) -> dict[str, Any]:
        """The waiting page's heartbeat: how many wait and for how long, or the seat found (once)."""
        heard = await quick_play.beat(request.ticket, http)
        if isinstance(heard, SeatTaken):
            return {"status": "seated", "code": heard.code, "seat": heard.seat, "token": heard.token}
        return {"status": "waiting", "waiting": heard.waiting, "waited": heard.waited, "beat": settings.beat_seconds}

    @router.post("/api/quickplay/leave", status_code=204)
    async def leave(request: TicketRequest) -> Response:
        """Leave the queue (the page sends it as it closes; a page that cannot is dropped when its lease runs out)."""
        await quick_play.leave(request.ticket)
        return Response(status_code=204)

    return router

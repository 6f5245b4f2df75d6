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
from chickenfoot.server.clock import Clock
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest, new_secret
from chickenfoot.server.limiter import Limiter
from chickenfoot.server.quickplay.queue import Entry, InQueue, Queue, QueueFull, QuickPlaySettings, Unclaimed
from chickenfoot.server.quickplay.ratings import EQUAL_RATING, family_of
from chickenfoot.server.refusal import Refused
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.commands import CoverUnclaimed, Take
from chickenfoot.server.table.protocol import printable_name
from chickenfoot.server.table.registry import TableRegistry

GUEST_COOKIE = "chickenfoot_quickplay"
"""A guest browser's own random id: one queue entry per browser (an account's is per account)."""
MAX_BOTS_AFTER = 600.0


class JoinRequest(BaseModel):
    players: Literal[2, 4] = 2
    rated: bool = False
    bots_after: float | None = Field(default=None, ge=0, le=MAX_BOTS_AFTER)
    """4 players: seconds after which bots may fill the empty seats (absent: the server's default; ``null`` never)."""
    name: Annotated[str, AfterValidator(printable_name)] | None = None


class TicketRequest(BaseModel):
    ticket: str = Field(max_length=MAX_SECRET_LENGTH)


def quickplay_router(
    settings: QuickPlaySettings,
    storage: Storage,
    clock: Clock,
    hub: TableRegistry,
    accounts: Accounts,
    limiter: Limiter,
) -> APIRouter:
    router = APIRouter()

    async def cover(seat: Unclaimed) -> None:
        """A seat found for a player who left before taking it goes to a bot: their partners play on."""
        table = await hub.get(seat.code)
        if table is not None:
            level = settings.bots.near(seat.rating)
            revoke = lambda: hub.credentials.revoke(seat.code, seat.seat)  # noqa: E731
            await table.submit(CoverUnclaimed(seat.seat, level, revoke))

    line = Queue(storage, clock, settings, hub.seeds, cover)

    def address_of(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    @router.post("/api/quickplay", status_code=201)
    async def join(request: JoinRequest, http: Request, response: Response) -> dict[str, Any]:
        """Wait for a table of ``players``: a ticket, to send with every heartbeat."""
        accounts.same_site(http)
        signed_in = await accounts.signed_in(http)
        if request.rated and signed_in is None:
            raise Refused(401, Said.of(Code.QUICKPLAY_RATED_NEEDS_ACCOUNT))
        if (refusal := await limiter.refusal("quick_play", address_of(http))) is not None:
            reason, wait = refusal
            raise Refused(429, reason, {"Retry-After": str(wait)})
        if signed_in is not None:
            owner = f"account:{signed_in.account.id}"
            rating = await settings.ratings(signed_in.account.id, family_of(request.players))
        else:
            browser = http.cookies.get(GUEST_COOKIE, "")
            if not 0 < len(browser) <= MAX_SECRET_LENGTH:
                browser = new_secret()
                response.set_cookie(GUEST_COOKIE, browser, path="/api/quickplay", httponly=True, samesite="strict")
            owner, rating = f"guest:{digest(browser)}", EQUAL_RATING
        bots_after = request.bots_after if "bots_after" in request.model_fields_set else settings.bots_after
        entry = Entry(
            owner, address_of(http)[:64], request.players, request.rated, rating, bots_after, request.name or None
        )
        try:
            ticket = await line.join(entry)
        except QueueFull as exc:
            code = Code.QUICKPLAY_FULL if exc.whole else Code.QUICKPLAY_ADDRESS_FULL
            raise Refused(503 if exc.whole else 429, Said.of(code), {"Retry-After": "10"}) from None
        return {"ticket": ticket, "beat": settings.beat_seconds, "lease": settings.lease_seconds}

    @router.post("/api/quickplay/beat")
    async def beat(request: TicketRequest, http: Request) -> dict[str, Any]:
        """The waiting page's heartbeat: how many wait and for how long, or the seat found (once)."""
        heard = await line.beat(request.ticket)
        if heard is None:
            raise Refused(404, Said.of(Code.QUICKPLAY_GONE))
        if isinstance(heard, InQueue):
            return {
                "status": "waiting",
                "waiting": heard.waiting,
                "waited": heard.waited,
                "beat": settings.beat_seconds,
            }
        table = await hub.get(heard.code)
        token = None if table is None else await hub.credentials.issue_seat(heard.code, heard.seat)
        if table is None or token is None:
            raise Refused(409, Said.of(Code.QUICKPLAY_GONE))
        await table.submit(Take(heard.seat, heard.name or ""))
        await accounts.sit(http, heard.code, heard.seat)
        return {"status": "seated", "code": heard.code, "seat": heard.seat, "token": token}

    @router.post("/api/quickplay/leave", status_code=204)
    async def leave(request: TicketRequest) -> Response:
        """Leave the queue (the page sends it as it closes; a page that cannot is dropped when its lease runs out)."""
        await line.leave(request.ticket)
        return Response(status_code=204)

    return router

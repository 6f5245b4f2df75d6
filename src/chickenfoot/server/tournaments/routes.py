"""The tournaments over HTTP: the pages (``/tournaments``, ``/tournaments/CODE``), the API under
``/api/tournaments``, its live news (server-sent events: "the event changed", then the reader asks
again) and the Bot API's entry (``/api/bot/tournaments/CODE/join``, by a bot account's token).

Any signed-in player makes a private event (its code is its invitation). An event's page is served from
a cache built once per version in each process, with an entity tag.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, StreamingResponse
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts, SignedIn
from chickenfoot.server.clock import Clock, utc, woken
from chickenfoot.server.http.answers import unchanged
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.tournaments.organiser import event_channel
from chickenfoot.server.tournaments.service import Tournaments
from chickenfoot.server.tournaments.settings import EventSettings, check_schedule

PREFIX = "/api/tournaments"
KEEP_ALIVE_SECONDS = 25.0
MAX_WATCHERS = 2000
"""Pages following events live in one process at most (more poll: the page asks every few seconds)."""
MAX_WATCHERS_PER_ADDRESS = 8

BotAccount = Callable[[Request], Awaitable[int]]
"""The bot account whose Bot API token a request presents (refused otherwise, and counted against its limits)."""


class NewEvent(BaseModel):
    """An event, as its creator sets it (the settings are checked by :class:`EventSettings`): private, or an
    operator's public one, scheduled and perhaps repeating."""

    name: str = Field(min_length=1, max_length=80)
    format: Literal["arena", "swiss", "round_robin"]
    table_size: int = Field(default=4, ge=2, le=4)
    preset: str = Field(default="classic", max_length=40)
    match_rounds: int | None = Field(default=None, ge=1, le=19)
    rated: bool = False
    rounds: int | None = Field(default=None, ge=1, le=64)
    minutes: float | None = Field(default=None, ge=0.5, le=24 * 60)
    closing_minutes: float = Field(default=0.0, ge=0, le=24 * 60)
    max_wait: float = Field(default=30.0, ge=5, le=300)
    bots: bool = True
    bot_level: str = Field(default="medium", max_length=40)
    duplicate: Literal["matchpoints", "difference"] | None = None
    par: bool = False
    bot_accounts: bool = False
    turn_timer: Literal[30, 60, 120] = 60
    starts_at: datetime | None = None
    """When it starts by itself (absent: when its creator starts it)."""
    public: bool = False
    """Listed for everyone on ``/tournaments`` (an operator's only, at a set time)."""
    repeat: Literal["daily", "weekly"] | None = None
    """A public event's next one is scheduled a day or a week after it (an operator's only)."""


def tournaments_router(
    tournaments: Tournaments,
    accounts: Accounts,
    limits: RateLimiter,
    clock: Clock,
    web_dir: Path,
    bot_account: BotAccount,
) -> APIRouter:
    router = APIRouter()
    router.include_router(page_routes(web_dir))
    router.include_router(event_routes(tournaments, accounts, limits, clock))
    router.include_router(watch_routes(tournaments, clock))
    router.include_router(bot_routes(tournaments, bot_account))
    return router


def page_routes(web_dir: Path) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/tournaments")
    async def listing_page(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "tournaments", request)

    @router.get("/tournaments/{code}")
    async def event_page(code: str, request: Request) -> HTMLResponse:
        """An event's page; it reads the event's code from its address (a private event's invitation)."""
        return serve_page(web_dir, "tournament", request)

    return router


def event_routes(tournaments: Tournaments, accounts: Accounts, limits: RateLimiter, clock: Clock) -> APIRouter:
    router = APIRouter(prefix=PREFIX)

    async def person(request: Request) -> SignedIn:
        """The signed-in person changing something (a bot account acts through the Bot API only)."""
        me = await accounts.require(request, changing=True)
        if me.account.bot:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.TOURNAMENT_BOTS_BY_API))
        await limits.check("tournament", client_address(request))
        return me

    @router.get("")
    async def listing(request: Request) -> dict[str, Any]:
        """The public events (to come, running, lately finished) and, signed in, your own."""
        return await tournaments.listing(await accounts.signed_in(request))

    @router.post("", status_code=201)
    async def create(body: NewEvent, request: Request) -> dict[str, Any]:
        """A private event of yours (its code is its address and invitation), or an operator's public one
        (listed for everyone, starting at its time, perhaps again every day or week; it has no creator)."""
        me = await person(request)
        operators = body.public or body.repeat is not None
        if operators and not me.account.operator:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.TOURNAMENT_OPERATORS_ONLY))
        settings = EventSettings.checked(**body.model_dump(exclude={"name", "starts_at", "public", "repeat"}))
        check_schedule(body.starts_at, body.repeat, utc(clock), public=body.public)
        await limits.check("tournament_made", str(me.account.id))
        event = await tournaments.create(
            body.name,
            settings,
            creator=None if body.public else me.account.id,
            public=body.public,
            starts_at=body.starts_at,
            repeat=body.repeat,
        )
        return {"code": event.code, "path": f"/tournaments/{event.code}"}

    @router.get("/{code}")
    async def event(code: str, request: Request) -> Response:
        """The event as its page shows it: settings, entrants, standings, tables (and a duplicate event's
        deals compared); ``If-None-Match`` gets a 304 while nothing changed."""
        page = await tournaments.page(code)
        headers = {"ETag": page.tag, "Cache-Control": "no-cache"}
        if unchanged(request, page.tag):
            return Response(status_code=304, headers=headers)
        return Response(page.body, media_type="application/json", headers=headers)

    @router.get("/{code}/me")
    async def mine(code: str, request: Request) -> dict[str, Any]:
        """Your part of it: entered or not, paused, and the table you are seated at now."""
        me = await accounts.require(request, changing=False)
        return await tournaments.mine(code, me.account.id)

    @router.post("/{code}/join")
    async def join(code: str, request: Request) -> dict[str, Any]:
        me = await person(request)
        return {"version": await tournaments.join(code, me.account.id, bot=False)}

    @router.post("/{code}/leave")
    async def leave(code: str, request: Request) -> dict[str, Any]:
        """Leave: before the start your entry goes; after it you are seated no more (your results stay)."""
        me = await person(request)
        return {"version": await tournaments.leave(code, me.account.id)}

    @router.post("/{code}/pause")
    async def pause(code: str, request: Request) -> dict[str, Any]:
        """An arena: not seated again until you come back (your points stay)."""
        me = await person(request)
        return {"version": await tournaments.pause(code, me.account.id, True)}

    @router.post("/{code}/resume")
    async def resume(code: str, request: Request) -> dict[str, Any]:
        me = await person(request)
        return {"version": await tournaments.pause(code, me.account.id, False)}

    @router.post("/{code}/start")
    async def start(code: str, request: Request) -> dict[str, Any]:
        """The creator starts their event now."""
        return {"version": await tournaments.start_now(code, await person(request))}

    @router.post("/{code}/cancel")
    async def cancel(code: str, request: Request) -> dict[str, Any]:
        return {"version": await tournaments.cancel(code, await person(request))}

    return router


def watch_routes(tournaments: Tournaments, clock: Clock) -> APIRouter:
    router = APIRouter(prefix=PREFIX)
    watching = Counter[str]()

    @router.get("/{code}/events")
    async def events(code: str, request: Request) -> StreamingResponse:
        """Server-sent events: a ``data`` line with the event's new version whenever it changes, in any process."""
        event = await tournaments.event(code)
        address = client_address(request)
        if watching.total() >= MAX_WATCHERS or watching[address] >= MAX_WATCHERS_PER_ADDRESS:
            raise Refusal(Why.TOO_MANY, Said.of(Code.TOURNAMENT_TOO_MANY_WATCHING))
        changed = asyncio.Event()
        latest = [event.version]

        def hear(message: dict[str, Any]) -> None:
            version = message.get("version")
            if isinstance(version, int) and version > latest[0]:
                latest[0] = version
                tournaments.heard(event.id, version)
                changed.set()

        async def lines() -> AsyncIterator[bytes]:
            unsubscribe = tournaments.bus.subscribe(event_channel(event.id), hear)
            watching[address] += 1
            try:
                yield b"retry: 5000\n\n" + f"data: {json.dumps({'version': latest[0]})}\n\n".encode()
                while True:
                    if not await woken(changed, clock, KEEP_ALIVE_SECONDS):
                        yield b": still here\n\n"
                        continue
                    changed.clear()
                    yield f"data: {json.dumps({'version': latest[0]})}\n\n".encode()
            finally:
                unsubscribe()
                watching[address] -= 1
                if watching[address] <= 0:
                    del watching[address]

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(lines(), media_type="text/event-stream", headers=headers)

    return router


def bot_routes(tournaments: Tournaments, bot_account: BotAccount) -> APIRouter:
    """The Bot API's entry to events that allow bot accounts; their tables then arrive on the bot's stream
    as ``table_started``, as any table's do."""
    router = APIRouter(prefix="/api/bot/tournaments")

    @router.post("/{code}/join")
    async def join(code: str, request: Request) -> dict[str, Any]:
        """Enter an event that allows bot accounts."""
        account_id = await bot_account(request)
        return {"version": await tournaments.join(code, account_id, bot=True)}

    @router.post("/{code}/leave")
    async def leave(code: str, request: Request) -> dict[str, Any]:
        account_id = await bot_account(request)
        return {"version": await tournaments.leave(code, account_id)}

    return router

"""The Bot API under ``/api/bot`` (docs/research/bot-api.md): programs playing as bot accounts.

Authenticated by a personal API token (``Authorization: Bearer cfb_...``), never by a cookie, so there
is no CSRF to defend against. Each request's token is looked up (cached a few seconds; unknown tokens
limited per address) and counted against its limits (:mod:`.throttle`) before anything else is done;
a token known to be paused is refused in front of the routes (:mod:`.gate`). A bot plays through the
table's own path: its moves and chat lines are the page's WebSocket messages, handled by
:func:`chickenfoot.server.table.requests.handle`, and its table stream is the page's connection over a
line stream (``table_lines``, given by the application: :mod:`chickenfoot.server.edge.line_stream`). It
holds no rules of its own.

Beside it: ``GET /api/bots`` (the bot accounts and their ratings, for the lobby) and the invitation of
a bot account to a free seat by a table's creator (``POST /api/tables/{code}/seats/{seat}/invite``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.datastructures import Address

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.accounts.tokens import Bearer, TokenStore, tokens_router
from chickenfoot.server.botapi.gate import Lookups, PausedTokens, bearer_secret
from chickenfoot.server.botapi.store import BotStore, Invitation
from chickenfoot.server.botapi.throttle import TokenThrottle, Use
from chickenfoot.server.clock import deadline, utc
from chickenfoot.server.cluster.fanout import Bus
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest
from chickenfoot.server.ratings.model import FAMILIES, Rating
from chickenfoot.server.ratings.routes import rating_json
from chickenfoot.server.refusal import Refused
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import SeatBotAccount, Take
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.hints import HintSource
from chickenfoot.server.table.protocol import MAX_VERSION, dumps, parse_client_message
from chickenfoot.server.table.registry import TableRegistry
from chickenfoot.server.table.requests import ChatGate, handle
from chickenfoot.view import SeatView

BEARER_SECONDS = 5.0
"""How long a token looked up is trusted without asking storage again: a revoked token stops working
within this time (in every process)."""
MAX_ACCOUNT_EVENTS = 64
"""Account events waiting for a stream that does not read; past them the stream is ended (reconnect)."""
BOT_TAG = "BOT"
MEDIA_TYPE = "application/x-ndjson"
"""The streams' lines: newline-delimited JSON."""
KEEPALIVE_SECONDS = 10.0
"""An empty line this often on a quiet account stream: proxies keep it open, and a vanished client is noticed."""

TableLines = Callable[[Table, int, Address | None, ChatGate, HintSource, set[asyncio.Task[Any]]], AsyncIterator[bytes]]
"""The lines of a seat's table stream (:func:`chickenfoot.server.edge.line_stream.table_lines`): the
table, the seat, the client's address, its chat gate and hints, the set that keeps the stream's task."""

Configure = Callable[[dict[str, Any]], TableConfig]
"""A table's configuration from the body of ``POST /api/tables`` (already valid); raises :class:`Refused`."""


def account_channel(account_id: int) -> str:
    """The channel of one account's events (invitations, tables starting and ending), in every process."""
    return f"account:{account_id}"


class Opponent(BaseModel):
    bot: str | None = Field(default=None, max_length=40, description="A bot level of chickenfoot.bots.")
    account: str | None = Field(default=None, max_length=64, description="A bot account, invited to the seat.")


class NewTable(BaseModel):
    preset: str = Field(default="classic", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=20)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    opponents: list[Opponent] = Field(min_length=1, max_length=MAX_PLAYERS - 1)
    turn_timer: Literal[30, 60, 120] | None = None


class MoveBody(BaseModel):
    move: str = Field(max_length=64, description="A move in the notation of docs/rules.md §7, or next_round.")
    version: int = Field(ge=0, le=MAX_VERSION, description="The version of the state the move was chosen in.")


class ChatBody(BaseModel):
    text: str = Field(max_length=500)


class InviteBody(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="The table creator's seat credential.")
    bot: str = Field(max_length=64, description="The bot account's name.")


def line(message: dict[str, Any]) -> bytes:
    return dumps(message).encode() + b"\n"


def bot_api_router(
    hub: TableRegistry,
    accounts: Accounts,
    throttle: TokenThrottle,
    table_lines: TableLines,
    configure: Configure,
    paused: PausedTokens,
    bus: Bus,
) -> APIRouter:
    """``paused``: the tokens this process knows to be paused, shared with the :class:`~.gate.FloodGate` in
    front; ``bus``: the cluster's, carrying each account's events to every process."""
    router = APIRouter()
    lookups = Lookups(throttle.settings.lookups)
    storage, clock = hub.storage, hub.clock
    tokens, bots = TokenStore(storage), BotStore(storage)
    known: dict[str, tuple[Bearer | None, float]] = {}
    streams: set[asyncio.Task[Any]] = set()
    router.include_router(tokens_router(accounts, tokens))

    async def caller(request: Request, use: Use, scope: str = "bot:play") -> Bearer:
        """The token's bot account; refuses (401, 403, 429) a missing or unknown token, a missing scope, a limit."""
        secret = bearer_secret(request.headers.get("authorization", ""))
        if secret is None:
            raise Refused(401, Said.of(Code.BOTAPI_BAD_TOKEN), {"WWW-Authenticate": "Bearer"})
        key = digest(secret)
        bearer, until = known.get(key, (None, 0.0))
        if until < time.monotonic():
            if (refusal := lookups.refusal(request.client.host if request.client else "unknown")) is not None:
                reason, wait = refusal
                raise Refused(429, reason, {"Retry-After": str(wait)})
            bearer = await tokens.bearer(secret)
            if len(known) > 10_000:
                known.clear()
            known[key] = (bearer, time.monotonic() + BEARER_SECONDS)
        if bearer is None:
            raise Refused(401, Said.of(Code.BOTAPI_BAD_TOKEN), {"WWW-Authenticate": "Bearer"})
        if (refusal := await throttle.refusal(use, key)) is not None:
            reason, wait = refusal
            if reason.code is Code.BOTAPI_PAUSED:
                paused.pause(key, wait)
            raise Refused(429, reason, {"Retry-After": str(wait)})
        if scope not in bearer.token.scopes:
            raise Refused(403, Said.of(Code.BOTAPI_SCOPE_MISSING, scope=scope))
        return bearer

    async def seated(code: str, bearer: Bearer) -> tuple[Table, int]:
        table = await hub.get(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
        seat = await accounts.store.seat_at(table.code, bearer.account_id)
        if seat is None:
            raise Refused(403, Said.of(Code.BOTAPI_NOT_SEATED, table=table.code))
        return table, seat

    async def tell(account_id: int, event: dict[str, Any]) -> None:
        await bus.publish(account_channel(account_id), event)

    def invitation_event(table: Table, invitation: Invitation) -> dict[str, Any]:
        return {
            "type": "invitation",
            "table": table.code,
            "seat": invitation.seat,
            "from": invitation.inviter,
            "players": len(table.config.seats),
            "rules": table.match.rules.to_dict(),
        }

    async def invite(table: Table, seat: int, name: str, inviter: str | None) -> None:
        found = await bots.bot_named(name)
        if found is None:
            raise Refused(404, Said.of(Code.BOTAPI_NOT_A_BOT, name=quoted(name[:64])))
        invitation = Invitation(table.code, seat, found[0], inviter)
        await bots.invite(invitation, utc(clock))
        await tell(found[0], invitation_event(table, invitation))

    async def sit_down(table: Table, seat: int, bearer: Bearer) -> None:
        """Seat the bot account, marked so (its name shows the BOT tag); a bot sitting down is ready
        (it has no ready button to press)."""
        await accounts.store.sit(table.code, seat, bearer.account_id)
        await table.submit(SeatBotAccount(seat))
        await tell(bearer.account_id, {"type": "table_started", "table": table.code, "seat": seat})

    def match_finished(code: str) -> None:
        async def announce() -> None:
            table = hub.tables.get(code)
            winners = table.match.winners() if table is not None else None
            for seat, account_id in await bots.bot_seats(code):
                await tell(account_id, {"type": "match_over", "table": code, "seat": seat, "winners": winners})

        task = asyncio.ensure_future(announce())
        streams.add(task)
        task.add_done_callback(streams.discard)

    hub.on_match_finished(match_finished)

    # --- the account ------------------------------------------------------------------------------

    @router.get("/api/bot/account")
    async def who(request: Request) -> dict[str, Any]:
        bearer = await caller(request, "read")
        return {"name": bearer.username, "tag": BOT_TAG, "scopes": sorted(bearer.token.scopes)}

    @router.get("/api/bot/stream")
    async def account_stream(request: Request) -> StreamingResponse:
        """The account's events: invitations waiting, then each invitation, table starting and match ending."""
        bearer = await caller(request, "stream")
        waiting = await bots.invitations_of(bearer.account_id)

        async def events() -> AsyncIterator[bytes]:
            queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(MAX_ACCOUNT_EVENTS)
            overflow = asyncio.Event()

            def heard(event: dict[str, Any]) -> None:
                try:
                    queue.put_nowait(event)
                except asyncio.QueueFull:
                    overflow.set()

            unsubscribe = bus.subscribe(account_channel(bearer.account_id), heard)
            try:
                yield line({"type": "hello", "name": bearer.username})
                for invitation in waiting:
                    table = await hub.get(invitation.code)
                    if table is not None:
                        yield line(invitation_event(table, invitation))
                while not overflow.is_set():
                    try:
                        async with deadline(clock, KEEPALIVE_SECONDS):
                            event = await queue.get()
                    except TimeoutError:
                        yield b"\n"
                        continue
                    yield line(event)
            finally:
                unsubscribe()

        return StreamingResponse(events(), media_type=MEDIA_TYPE)

    # --- tables -----------------------------------------------------------------------------------

    @router.post("/api/bot/tables", status_code=201)
    async def create(body: NewTable, request: Request) -> dict[str, Any]:
        """A new table: the bot sits at seat 0; bot levels play their seats, bot accounts are invited to theirs."""
        bearer = await caller(request, "table", "table:create")
        seats: list[dict[str, Any]] = [{"kind": "human", "name": bearer.username}]
        for opponent in body.opponents:
            if opponent.account is not None:
                if await bots.bot_named(opponent.account) is None:
                    raise Refused(404, Said.of(Code.BOTAPI_NOT_A_BOT, name=quoted(opponent.account[:64])))
                seats.append({"kind": "human"})
            else:
                seats.append({"kind": "bot", "bot": opponent.bot or DEFAULT_LEVEL})
        wanted = body.model_dump(exclude={"opponents"}, exclude_unset=True) | {"seats": seats}
        config = configure(wanted)
        table = await hub.create(config)
        await sit_down(table, 0, bearer)
        for seat, opponent in enumerate(body.opponents, 1):
            if opponent.account is not None:
                await invite(table, seat, opponent.account, bearer.username)
        return {"table": table.code, "seat": 0}

    @router.post("/api/bot/tables/{code}/accept")
    async def accept(code: str, request: Request) -> dict[str, Any]:
        """Take the seat the bot was invited to."""
        bearer = await caller(request, "move")
        table = await hub.get(code)
        invitation = None if table is None else await bots.take_invitation(table.code, bearer.account_id)
        if table is None or invitation is None:
            raise Refused(404, Said.of(Code.BOTAPI_NO_INVITATION, table=quoted(code[:16])))
        if await hub.credentials.issue_seat(table.code, invitation.seat) is None:
            raise Refused(409, Said.of(Code.BOTAPI_SEAT_NOT_FREE, number=invitation.seat))
        await table.submit(Take(invitation.seat, bearer.username))
        await sit_down(table, invitation.seat, bearer)
        return {"table": table.code, "seat": invitation.seat}

    @router.post("/api/bot/tables/{code}/decline")
    async def decline(code: str, request: Request) -> dict[str, Any]:
        """Decline an invitation: the seat stays free (its creator may invite another or give it to a bot)."""
        bearer = await caller(request, "move")
        table = await hub.get(code)
        if table is None or await bots.take_invitation(table.code, bearer.account_id) is None:
            raise Refused(404, Said.of(Code.BOTAPI_NO_INVITATION, table=quoted(code[:16])))
        return {"declined": table.code}

    @router.get("/api/bot/tables/{code}")
    async def view(code: str, request: Request) -> Response:
        """The seat's ``state`` message, as a page connecting now would get it first (docs/protocol.md)."""
        bearer = await caller(request, "read")
        table, seat = await seated(code, bearer)
        text, _ = table.state_text(seat, [])
        return Response(text, media_type="application/json")

    @router.get("/api/bot/tables/{code}/stream")
    async def table_stream(code: str, request: Request) -> StreamingResponse:
        """The seat's messages, one a line: what the page's WebSocket gets (a state first, then every change)."""
        bearer = await caller(request, "stream")
        table, seat = await seated(code, bearer)
        lines = table_lines(table, seat, request.client, counted_already, no_hints, streams)
        return StreamingResponse(lines, media_type=MEDIA_TYPE)

    @router.post("/api/bot/tables/{code}/move")
    async def move(code: str, body: MoveBody, request: Request) -> Response:
        """Play a move (or ``next_round``): the page's ``move`` message, with the same checks."""
        bearer = await caller(request, "move")
        table, seat = await seated(code, bearer)
        message: dict[str, Any] = (
            {"type": "next_round"} if body.move == "next_round" else {"type": "move"} | body.model_dump()
        )
        return await act(table, seat, message)

    @router.post("/api/bot/tables/{code}/chat")
    async def chat(code: str, body: ChatBody, request: Request) -> Response:
        bearer = await caller(request, "chat", "chat")
        table, seat = await seated(code, bearer)
        return await act(table, seat, {"type": "chat", "text": body.text})

    async def act(table: Table, seat: int, message: dict[str, Any]) -> Response:
        """The page's message, checked and handled as the page's are; a refusal is answered by its kind."""
        await handle(table, seat, parse_client_message(dumps(message)), counted_already, no_hints)
        return JSONResponse({"ok": True})

    # --- for people ---------------------------------------------------------------------------------

    @router.get("/api/bots")
    async def bot_list() -> dict[str, Any]:
        """The bot accounts, each with its rating in each family (a new account's default until it has played)."""
        return {
            "bots": [
                {"name": name, "tag": BOT_TAG, "ratings": {f: rating_json(rated.get(f, Rating())) for f in FAMILIES}}
                for name, rated in await bots.bots()
            ]
        }

    @router.post("/api/tables/{code}/seats/{seat}/invite")
    async def invite_bot(code: str, seat: int, body: InviteBody) -> dict[str, Any]:
        """The creator invites a bot account to a free seat; it takes the seat when it accepts."""
        table = await hub.get(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
        if await hub.credentials.seat_of(table.code, body.token) != table.config.creator:
            raise Refused(403, Said.of(Code.ERROR_CREATOR_ONLY))
        if seat not in table.free_seats():
            raise Refused(409, Said.of(Code.BOTAPI_SEAT_NOT_FREE, number=seat))
        await invite(table, seat, body.bot, table.config.seats[table.config.creator].name)
        return {"table": table.code, "seat": seat, "invited": body.bot}

    return router


async def no_hints(_view: SeatView) -> tuple[Move, Said]:
    """A bot gets no hints: the server's search is for people."""
    raise Refusal.forbidden(Said.of(Code.BOTAPI_NO_HINTS))


async def counted_already() -> Said | None:
    """A bot's chat line was counted against its token when its request came in (a stream sends none)."""
    return None

"""The Bot API under ``/api/bot`` (docs/research/bot-api.md): programs playing as bot accounts.

Authenticated by a personal API token (``Authorization: Bearer cfb_...``), never by a cookie, so there
is no CSRF to defend against. Each request's token is looked up (cached a few seconds; unknown tokens
limited per address) and counted against its limits before anything else is done
(:meth:`~.service.BotApi.bearer`); a token known to be paused is refused in front of the routes
(:mod:`.gate`). A bot plays through the table's own path: its moves and chat lines are the page's
WebSocket messages, handled by :func:`chickenfoot.server.table.requests.handle` (a refusal is answered
by its kind, as every refusal of the API), and its table stream is the page's connection over a line
stream (``table_lines``, given by the application: :mod:`chickenfoot.server.edge.line_stream`). It
holds no rules of its own.

Beside it: ``GET /api/bots`` (the bot accounts and their ratings, for the lobby), the invitation of
a bot account to a free seat by a table's creator (``POST /api/tables/{code}/seats/{seat}/invite``)
and a bot account's tokens, minted, listed and revoked on its account page (``/api/account/tokens``).
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.datastructures import Address

from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.botapi.gate import bearer_secret
from chickenfoot.server.botapi.service import BotApi, account_channel, invitation_event
from chickenfoot.server.botapi.store import SCOPES, Bearer, Token
from chickenfoot.server.clock import deadline
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.http.caps import Hold, OpenHolds
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import Kind
from chickenfoot.server.http.tables import TableLookup
from chickenfoot.server.ratings.model import FAMILIES, Rating
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.chat import Listener
from chickenfoot.server.table.hints import HintSource
from chickenfoot.server.table.pace import NewPace
from chickenfoot.server.table.protocol import MAX_VERSION, dumps, parse_client_message
from chickenfoot.server.table.requests import SeatChatGate, handle
from chickenfoot.view import SeatView

MAX_ACCOUNT_EVENTS = 64
"""Account events waiting for a stream that does not read; past them the stream is ended (reconnect)."""
BOT_TAG = "BOT"
MEDIA_TYPE = "application/x-ndjson"
"""The streams' lines: newline-delimited JSON."""
KEEPALIVE_SECONDS = 10.0
"""An empty line this often on a quiet account stream: proxies keep it open, and a vanished client is noticed."""

TableLines = Callable[
    [Table, int, Address | None, SeatChatGate, HintSource, set[asyncio.Task[Any]], Listener], AsyncIterator[bytes]
]
"""The lines of a seat's table stream (:func:`chickenfoot.server.edge.line_stream.table_lines`): the
table, the seat, the client's address, its chat gate and hints, the set that keeps the stream's task,
and who listens (the bot account, spared the chat lines of the accounts it blocks)."""


class Opponent(BaseModel):
    bot: str | None = Field(default=None, max_length=40, description="A bot level of chickenfoot.bots.")
    account: str | None = Field(default=None, max_length=64, description="A bot account, invited to the seat.")


class NewTable(BaseModel):
    preset: str = Field(default="classic", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=20)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    opponents: list[Opponent] = Field(min_length=1, max_length=MAX_PLAYERS - 1)
    turn_timer: Literal[30, 60, 120] | None = None
    pace: NewPace | None = Field(default=None, description="Turn-based at this pace; absent: real-time.")


class MoveBody(BaseModel):
    move: str = Field(max_length=64, description="A move in the notation of docs/rules.md §7, or next_round.")
    version: int = Field(ge=0, le=MAX_VERSION, description="The version of the state the move was chosen in.")


class ChatBody(BaseModel):
    text: str = Field(max_length=500)


class InviteBody(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="The table creator's seat credential.")
    bot: str = Field(max_length=64, description="The bot account's name.")


class NewToken(BaseModel):
    label: str = Field(default="", max_length=64)
    scopes: list[str] = Field(default_factory=lambda: list(SCOPES), min_length=1, max_length=len(SCOPES))


def line(message: dict[str, Any]) -> bytes:
    return dumps(message).encode() + b"\n"


def token_facts(token: Token) -> dict[str, Any]:
    return {
        "id": token.id,
        "label": token.label,
        "scopes": sorted(token.scopes),
        "created": token.created_at.isoformat(),
    }


BotChat = Callable[[int, str | None], Awaitable[Refusal | None]]
"""Judges a bot account's chat line (the account's id, the line's text) beyond its token's count: the
moderation's gate (muted? filtered? throttled?); returns what refuses it, or ``None``."""


def bot_api_router(
    bot_api: BotApi,
    accounts: Accounts,
    get_table: TableLookup,
    table_lines: TableLines,
    bot_chat: BotChat,
    holds: OpenHolds,
) -> APIRouter:
    """The Bot API, the bot accounts' list and invitations for people, and the bot accounts' tokens;
    ``table_lines``: a seat's table stream, a page's WebSocket over a line stream; ``bot_chat``: what judges
    a bot's chat line after its token counted it; ``holds``: the streams open per token and per account
    (and the sockets per seat a table stream counts with)."""
    router = APIRouter()
    streams: set[asyncio.Task[Any]] = set()
    router.include_router(play_routes(bot_api, bot_chat))
    router.include_router(stream_routes(bot_api, table_lines, streams, holds))
    router.include_router(people_routes(bot_api, get_table))
    router.include_router(token_routes(bot_api, accounts))
    router.include_router(upgrade_routes(bot_api, accounts))
    return router


def caller_of(bot_api: BotApi) -> Callable[..., Awaitable[Bearer]]:
    async def caller(request: Request, use: Kind, scope: str = "bot:play") -> Bearer:
        """The token's bot account; refuses a missing or unknown token, a missing scope, a limit reached."""
        secret = bearer_secret(request.headers.get("authorization", ""))
        return await bot_api.bearer(secret, client_address(request), use, scope)

    return caller


def held_open(bearer: Bearer, holds: OpenHolds) -> Hold:
    """A new stream of ``bearer``'s, counted against its token and its account; refused at either cap."""
    hold = holds.hold()
    hold.take("token_streams", str(bearer.token.id))
    try:
        hold.take("account_streams", str(bearer.account_id))
    except Refusal:
        hold.release()
        raise
    return hold


def releasing(lines: AsyncIterator[bytes], hold: Hold) -> AsyncIterator[bytes]:
    """``lines``, then what the stream held is given back: when they end, when the client goes, and
    when the response never began (once the stream is let go of)."""

    async def then_released() -> AsyncIterator[bytes]:
        try:
            async for chunk in lines:
                yield chunk
        finally:
            hold.release()

    stream = then_released()
    weakref.finalize(stream, hold.release)
    return stream


def stream_routes(
    bot_api: BotApi, table_lines: TableLines, streams: set[asyncio.Task[Any]], holds: OpenHolds
) -> APIRouter:
    """The event streams: the account's, and each table's seat (a page's WebSocket, one message a line),
    each counted against its token's and its account's caps while it is open."""
    router, caller = APIRouter(), caller_of(bot_api)

    @router.get("/api/bot/stream")
    async def account_stream(request: Request) -> StreamingResponse:
        """The account's events: invitations waiting, then each invitation, table starting and match ending."""
        bearer = await caller(request, "bot_stream")
        hold = held_open(bearer, holds)
        try:
            waiting = await bot_api.bots.invitations_of(bearer.account_id)
        except BaseException:
            hold.release()
            raise

        async def events() -> AsyncIterator[bytes]:
            queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(MAX_ACCOUNT_EVENTS)
            overflow = asyncio.Event()

            def heard(event: dict[str, Any]) -> None:
                try:
                    queue.put_nowait(event)
                except asyncio.QueueFull:
                    overflow.set()

            unsubscribe = bot_api.bus.subscribe(account_channel(bearer.account_id), heard)
            try:
                yield line({"type": "hello", "name": bearer.username})
                for invitation in waiting:
                    table = await bot_api.hub.get(invitation.code)
                    if table is not None:
                        yield line(invitation_event(table, invitation))
                while not overflow.is_set():
                    try:
                        async with deadline(bot_api.clock, KEEPALIVE_SECONDS):
                            event = await queue.get()
                    except TimeoutError:
                        yield b"\n"
                        continue
                    yield line(event)
            finally:
                unsubscribe()

        return StreamingResponse(releasing(events(), hold), media_type=MEDIA_TYPE)

    @router.get("/api/bot/tables/{code}/stream")
    async def table_stream(code: str, request: Request) -> StreamingResponse:
        """The seat's messages, one a line: what the page's WebSocket gets (a state first, then every change)."""
        bearer = await caller(request, "bot_stream")
        table, seat = await bot_api.seated(code, bearer)
        hold = held_open(bearer, holds)
        try:
            hold.take("seat", f"{table.code}:{seat}")
        except Refusal:
            hold.release()
            raise
        listener = await bot_api.listening(bearer.account_id)
        lines = table_lines(table, seat, request.client, says_nothing, no_hints, streams, listener)
        return StreamingResponse(releasing(lines, hold), media_type=MEDIA_TYPE)

    return router


def play_routes(bot_api: BotApi, bot_chat: BotChat) -> APIRouter:
    router, caller = APIRouter(), caller_of(bot_api)

    @router.get("/api/bot/account")
    async def who(request: Request) -> dict[str, Any]:
        bearer = await caller(request, "bot_read")
        return {"name": bearer.username, "tag": BOT_TAG, "scopes": sorted(bearer.token.scopes)}

    @router.post("/api/bot/tables", status_code=201)
    async def create(body: NewTable, request: Request) -> dict[str, Any]:
        """A new table: the bot sits at seat 0; bot levels play their seats, bot accounts are invited to theirs."""
        bearer = await caller(request, "bot_table", "table:create")
        wanted = body.model_dump(exclude={"opponents"}, exclude_unset=True)
        table = await bot_api.create(bearer, wanted, [(opponent.bot, opponent.account) for opponent in body.opponents])
        return {"table": table.code, "seat": 0}

    @router.post("/api/bot/tables/{code}/accept")
    async def accept(code: str, request: Request) -> dict[str, Any]:
        """Take the seat the bot was invited to."""
        table, seat = await bot_api.accept(code, await caller(request, "bot_move"))
        return {"table": table.code, "seat": seat}

    @router.post("/api/bot/tables/{code}/decline")
    async def decline(code: str, request: Request) -> dict[str, Any]:
        """Decline an invitation: the seat stays free (its creator may invite another or give it to a bot)."""
        return {"declined": await bot_api.decline(code, await caller(request, "bot_move"))}

    @router.get("/api/bot/tables/{code}")
    async def view(code: str, request: Request) -> Response:
        """The seat's ``state`` message, as a page connecting now would get it first (docs/protocol.md)."""
        table, seat = await bot_api.seated(code, await caller(request, "bot_read"))
        text, _ = table.state_text(seat, [])
        return Response(text, media_type="application/json")

    @router.post("/api/bot/tables/{code}/move")
    async def move(code: str, body: MoveBody, request: Request) -> Response:
        """Play a move (or ``next_round``): the page's ``move`` message, with the same checks."""
        bearer = await caller(request, "bot_move")
        table, seat = await bot_api.seated(code, bearer)
        message: dict[str, Any] = (
            {"type": "next_round"} if body.move == "next_round" else {"type": "move"} | body.model_dump()
        )
        return await act(table, seat, message, bearer.account_id)

    @router.post("/api/bot/tables/{code}/chat")
    async def chat(code: str, body: ChatBody, request: Request) -> Response:
        bearer = await caller(request, "bot_chat", "chat")
        table, seat = await bot_api.seated(code, bearer)
        return await act(table, seat, {"type": "chat", "text": body.text}, bearer.account_id)

    async def act(table: Table, seat: int, message: dict[str, Any], account_id: int) -> Response:
        """The page's message, checked and handled as the page's are (a chat line judged as the bot
        account's, and kept with it); a refusal is answered by its kind."""
        judge = functools.partial(bot_chat, account_id)
        await handle(table, seat, parse_client_message(dumps(message)), judge, no_hints, account_id)
        return JSONResponse({"ok": True})

    return router


def people_routes(bot_api: BotApi, get_table: TableLookup) -> APIRouter:
    router = APIRouter()

    @router.get("/api/bots")
    async def bot_list() -> dict[str, Any]:
        """The bot accounts, each with its rating in each family (a new account's default until it has played)."""
        return {
            "bots": [
                {"name": name, "tag": BOT_TAG, "ratings": {f: rated.get(f, Rating()).wire() for f in FAMILIES}}
                for name, rated in await bot_api.bot_accounts()
            ]
        }

    @router.post("/api/tables/{code}/seats/{seat}/invite")
    async def invite_bot(code: str, seat: int, body: InviteBody) -> dict[str, Any]:
        """The creator invites a bot account to a free seat; it takes the seat when it accepts."""
        table = await get_table(code)
        await bot_api.invite_by_creator(table, seat, body.token, body.bot)
        return {"table": table.code, "seat": seat, "invited": body.bot}

    return router


def token_routes(bot_api: BotApi, accounts: Accounts) -> APIRouter:
    """``/api/account/tokens``: a bot account's tokens (other accounts have none to mint)."""
    router = APIRouter(prefix="/api/account/tokens")

    @router.get("")
    async def listed(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=False)
        owned = await bot_api.tokens.of(me.account.id) if me.account.bot else []
        return {
            "bot": me.account.bot,
            "may_become_bot": await bot_api.may_become_bot(me),
            "scopes": list(SCOPES),
            "tokens": [token_facts(t) for t in owned],
        }

    @router.post("", status_code=201)
    async def mint(body: NewToken, request: Request) -> dict[str, Any]:
        """A new token: its secret is in this answer and nowhere else, ever."""
        me = await accounts.require(request, changing=True)
        token, secret = await bot_api.mint(me, body.label, body.scopes)
        return token_facts(token) | {"token": secret}

    @router.delete("/{token_id}")
    async def revoke(token_id: int, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await bot_api.revoke(me, token_id)
        return {"revoked": token_id}

    return router


def upgrade_routes(bot_api: BotApi, accounts: Accounts) -> APIRouter:
    """``POST /api/account/bot``: a signed-in player turns a new account into a bot account, for good."""
    router = APIRouter()

    @router.post("/api/account/bot")
    async def become_bot(request: Request) -> dict[str, Any]:
        """Confirmed with the password or a passkey when the session is old, as every change that
        cannot be undone is (``account.confirm_needed``)."""
        me = await accounts.require(request, changing=True)
        accounts.recently_confirmed(me)
        await bot_api.become_bot(me)
        return {"bot": True}

    return router


async def no_hints(_view: SeatView) -> tuple[Move, Said]:
    """A bot gets no hints: the server's search is for people."""
    raise Refusal.forbidden(Said.of(Code.BOTAPI_NO_HINTS))


async def says_nothing(_seat: int | None, _text: str | None) -> Refusal | None:
    """A table stream's gate: a stream only hears, its bot's lines come by the chat route."""
    return None

"""The FastAPI application: lobby endpoints, the table WebSocket and the page's static files."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field, StringConstraints, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS, check_bot
from chickenfoot.errors import ChickenfootError
from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.rules import MAX_PLAYERS, PRESETS, Rules
from chickenfoot.server import i18n_routes
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, Credentials
from chickenfoot.server.protocol import (
    MAX_FRAME_BYTES,
    ConnectQuery,
    MoveMessage,
    NextRoundMessage,
    PingMessage,
    ProtocolError,
    dumps,
    error_message,
    hint_message,
    one_line,
    parse_client_message,
)
from chickenfoot.server.pubsub import LocalPubSub, Message, PubSub
from chickenfoot.server.replay import replay_router, review_job
from chickenfoot.server.review_worker import FinishWatch, ReviewWorker
from chickenfoot.server.security import SecurityHeaders, origin_allowed
from chickenfoot.server.storage import Storage, default_database_url
from chickenfoot.server.table import NEXT_ROUND, TURN_TIMERS, Seat, Table, TableConfig, Timing

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """``None``: an SQLite file in the user's data directory."""
    timing: Timing = field(default_factory=Timing)
    rate_burst: int = 20
    rate_per_second: float = 10.0
    max_backlog: int = 200
    """Messages waiting for one client before it is disconnected as not reading."""
    web_dir: Path = WEB_DIR
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open a table's WebSocket."""
    debug: bool = False
    """Serve the API's documentation at ``/docs``, ``/redoc`` and ``/openapi.json``."""
    review_budget: int = DEFAULT_BUDGET
    """Sampled deals per move of the background reviews of finished matches."""


class TokenBucket:
    """A per-connection message allowance: ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Hub:
    """The tables of this process, loaded from storage on first use."""

    def __init__(self, storage: Storage, pubsub: PubSub, timing: Timing) -> None:
        self.storage, self.pubsub, self.timing = storage, pubsub, timing
        self.credentials = Credentials(storage)
        self.tables: dict[str, Table] = {}
        self._closing: dict[str, asyncio.Task[None]] = {}
        self._lock = asyncio.Lock()

    async def get(self, code: str) -> Table | None:
        code = code.upper()
        if not (code.isascii() and code.isalnum() and len(code) <= 16):
            return None  # no table was ever given such a code (and storage need not see it)
        if code in self.tables:
            return self.tables[code]
        async with self._lock:
            if code not in self.tables:
                if (closing := self._closing.get(code)) is not None:
                    await closing  # its last action must be stored before the table is read back
                loaded = await self.storage.load_table(code)
                if loaded is None:
                    return None
                config, actions = loaded
                table = Table.restore(
                    code, TableConfig.from_json(config), actions, self.storage, self.pubsub, self.timing
                )
                table.resume_clock(await self.storage.last_action_time(code))
                self.tables[code] = table
                table.schedule()
        return self.tables[code]

    def release(self, table: Table) -> None:
        """Drop a table nobody is connected to from memory (storage holds all of it)."""
        if table.closed or not table.idle() or self.tables.get(table.code) is not table:
            return
        table.closed = True  # at once: a connection arriving from now on loads the table afresh
        del self.tables[table.code]
        self._closing[table.code] = asyncio.create_task(self._close(table))

    async def _close(self, table: Table) -> None:
        try:
            await table.close()
        finally:
            self._closing.pop(table.code, None)

    async def create(self, config: TableConfig) -> Table:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if await self.storage.create_table(code, config.to_json()):
                break
        async with self._lock:
            table = Table.restore(code, config, [], self.storage, self.pubsub, self.timing)
            self.tables[code] = table
        table.schedule()
        return table

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.close()
        await asyncio.gather(*self._closing.values(), return_exceptions=True)


def _printable(name: str) -> str:
    if not name.isprintable():
        raise ValueError("a name is one line of printable text")
    return name


Name = Annotated[str, StringConstraints(max_length=40), AfterValidator(_printable)]


class SeatRequest(BaseModel):
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=40)
    name: Name | None = None


class CreateRequest(BaseModel):
    preset: str = Field(default="classic", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=20)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    seats: list[SeatRequest] = Field(min_length=2, max_length=MAX_PLAYERS)
    open: bool = False
    """Anyone with the room code may take a free seat (otherwise only invited friends)."""
    turn_timer: Literal[30, 60, 120] | None = None
    """Seconds per human turn; when absent, 60 with friends seated and off against bots only."""


class JoinRequest(BaseModel):
    name: Name | None = None


class ClaimRequest(BaseModel):
    invite: str = Field(max_length=MAX_SECRET_LENGTH)
    name: Name | None = None


class BotRequest(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="The table creator's seat credential.")
    bot: str = Field(default="medium", max_length=40)


def table_config(request: CreateRequest) -> TableConfig:
    """A new table's configuration; raises :class:`HTTPException` (400) for bad rules or seats."""
    try:
        rules = Rules.from_dict({**Rules.preset(request.preset).to_dict(), **request.rules})
        if request.rounds is not None:
            rules = rules.replace(rounds=request.rounds)
        rules.hand_size_for(len(request.seats))
    except ChickenfootError as exc:
        raise HTTPException(400, str(exc)) from None
    except TypeError as exc:
        raise HTTPException(400, f"bad rules: {exc}") from None
    if not any(seat.kind == "human" for seat in request.seats):
        raise HTTPException(400, "a table needs at least one human seat")
    seats: list[Seat] = []
    for s, wanted in enumerate(request.seats):
        if wanted.kind == "bot":
            level = bot_level(wanted.bot or DEFAULT_LEVEL)
            seats.append(Seat("bot", wanted.name or f"{level.capitalize()} bot {s + 1}", bot=level))
        else:
            seats.append(Seat("human", wanted.name or f"Player {s + 1}"))
    creator = next(s for s, seat in enumerate(seats) if seat.kind == "human")
    seats[creator].taken = True
    friends = sum(seat.kind == "human" for seat in seats) > 1
    timer = request.turn_timer if "turn_timer" in request.model_fields_set else (60 if friends else None)
    assert timer is None or timer in TURN_TIMERS
    return TableConfig(rules, seats, secrets.randbits(62), creator=creator, open=request.open, turn_timer=timer)


def bot_level(level: str) -> str:
    """A bot level the server offers; raises :class:`HTTPException` (400) for any other."""
    try:
        return check_bot(level)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None


def unreadable_body(cause: BaseException) -> str:
    """Why a request body could not be read, in one line."""
    if isinstance(cause, RecursionError):
        return "the body is nested too deeply"
    if isinstance(cause, UnicodeDecodeError):
        return "the body is not valid UTF-8"
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "a number in the body has too many digits"
    return "the body is not valid JSON"


def summary(table: Table) -> dict[str, Any]:
    presence = table.presence()
    return {
        "code": table.code,
        "rules": table.match.rules.to_dict(),
        "players": len(table.config.seats),
        "rounds": table.match.rules.round_count,
        "seats": [
            {"seat": s, "kind": seat.kind, "name": seat.name, "connected": presence.connected[s], "bot": seat.bot}
            for s, seat in enumerate(table.config.seats)
        ],
        "status": table.status,
        "open": table.config.open,
        "turn_timer": table.config.turn_timer,
        "round": table.match.round_number,
        "totals": table.match.totals(),
    }


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    storage = Storage(settings.database_url or default_database_url())
    reviews = ReviewWorker(storage, lambda code: review_job(hub.get, code), settings.review_budget)
    hub = Hub(storage, FinishWatch(LocalPubSub(), reviews.request), settings.timing)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.migrate()
        reviews.start()
        yield
        await reviews.stop()
        await hub.close()
        await storage.close()

    docs = settings.debug
    app = FastAPI(
        title="Chicken Foot",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.add_middleware(SecurityHeaders, without_csp=("/docs", "/redoc") if docs else ())
    app.state.hub = hub
    app.state.storage = storage

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
        if first.get("type") == "json_invalid":
            return JSONResponse({"detail": "the body is not valid JSON"}, status_code=400)
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = " ".join(str(first["msg"]).removeprefix("Value error, ").split())[:200]
        return JSONResponse({"detail": f"{where}: {message}" if where else message}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> Response:
        cause = exc.__cause__
        if exc.status_code == 400 and cause is not None:  # FastAPI could not read the body at all
            return JSONResponse({"detail": unreadable_body(cause)}, status_code=400)
        return await http_exception_handler(request, exc)

    async def get_table(code: str) -> Table:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(404, f"no table {code[:16]!r}")
        return table

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "bots": list(LEVELS),
            "default_bot": DEFAULT_LEVEL,
            "max_players": MAX_PLAYERS,
        }

    credentials = hub.credentials

    @app.post("/api/tables", status_code=201)
    async def create_table(request: CreateRequest) -> dict[str, Any]:
        """A new table: the creator's seat credential, and a single-use invite for every other human seat."""
        table = await hub.create(table_config(request))
        code, creator = table.code, table.config.creator
        token = await credentials.issue_seat(code, creator)
        invites = {seat: await credentials.invite(code, seat) for seat in table.free_seats()}
        return {
            "code": code,
            "seat": creator,
            "token": token,
            "open": table.config.open,
            "turn_timer": table.config.turn_timer,
            "seats": [
                {"seat": s, "kind": seat.kind} | ({"invite": f"/t/{code}?invite={invites[s]}"} if s in invites else {})
                for s, seat in enumerate(table.config.seats)
            ],
        }

    @app.get("/api/tables/{code}")
    async def table_summary(code: str) -> dict[str, Any]:
        return summary(await get_table(code))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: JoinRequest | None = None) -> dict[str, Any]:
        """Take a free seat of an open table: a fresh seat credential."""
        table = await get_table(code)
        if not table.config.open:
            raise HTTPException(403, "this table is invite-only: ask its creator for an invite, or watch")
        for seat in table.free_seats():
            token = await credentials.issue_seat(table.code, seat)
            if token is not None:
                await table.seated(seat, (request.name or "") if request else "")
                return {"seat": seat, "token": token}
        raise HTTPException(409, "no free seat at this table")

    @app.post("/api/tables/{code}/claim")
    async def claim(code: str, request: ClaimRequest) -> dict[str, Any]:
        """Exchange a single-use invite for the invited seat's credential (a fresh secret)."""
        table = await get_table(code)
        claimed = await credentials.claim(table.code, request.invite)
        if claimed is None:
            raise HTTPException(403, "this invite opens nothing: it was used already or is not for this table")
        seat, token = claimed
        await table.seated(seat, request.name or "")
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{code}/seats/{seat}/bot")
    async def replace_with_bot(code: str, seat: int, request: BotRequest) -> dict[str, Any]:
        """The creator hands an absent friend's seat to a bot; that seat's credential and invite open nothing after."""
        table = await get_table(code)
        if await credentials.seat_of(table.code, request.token) != table.config.creator:
            raise HTTPException(403, "only the table's creator may replace a player with a bot")
        if not 0 <= seat < len(table.config.seats):
            raise HTTPException(404, f"no seat {seat} at this table")
        level = bot_level(request.bot)
        try:
            await table.replace_with_bot(seat, level, revoke=lambda: credentials.revoke(table.code, seat))
        except LookupError as exc:
            raise HTTPException(409, str(exc)) from None
        return summary(table)

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> dict[str, Any]:
        table = await get_table(code)
        if not table.match.is_over():
            raise HTTPException(403, "the record is available once the match is over")
        return table.match.record()

    app.include_router(replay_router(hub.get, reviews, settings.web_dir))

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        if not origin_allowed(websocket.scope, settings.allowed_origins):
            origin = websocket.headers.get("origin", "")[:100]
            await refuse(websocket, f"origin {origin!r} may not open tables", 4403)
            return
        await serve_connection(websocket, code, hub, settings)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        """The page itself; it reads the table code (and token) from its address."""
        index = settings.web_dir / "index.html"
        if not index.is_file():
            raise HTTPException(404, "the page is not installed")
        return FileResponse(index)

    app.include_router(i18n_routes.router)
    if settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app


async def serve_connection(websocket: WebSocket, code: str, hub: Hub, settings: Settings) -> None:
    """One client's socket: an initial state, then its requests and every change of the table."""
    table = await hub.get(code)
    if table is None:
        await refuse(websocket, f"no table {code[:16]!r}", 4404)
        return
    try:
        query = ConnectQuery.model_validate(dict(websocket.query_params))
    except ValidationError as exc:
        await refuse(websocket, one_line(exc, "query"), 4400)
        return
    seat: int | None = None
    if query.token:
        seat = await hub.credentials.seat_of(table.code, query.token)
        if seat is None:
            await refuse(websocket, "unknown token for this table", 4403)
            return
    since = query.since

    while table is not None and table.closed:  # released from memory meanwhile: read it back from storage
        table = await hub.get(code)
    if table is None:  # gone from storage meanwhile
        await refuse(websocket, f"no table {code[:16]!r}", 4404)
        return
    outbox: asyncio.Queue[str] = asyncio.Queue()
    closing: list[asyncio.Task[None]] = []

    def on_change(message: Message) -> None:
        if outbox.qsize() >= settings.max_backlog:
            # A client that stopped reading is dropped (it may reconnect) rather than buffered forever.
            if not sender.done():
                sender.cancel()
                closing.append(asyncio.create_task(websocket.close(1013)))
            return
        outbox.put_nowait(table.state_text(seat, message["events"]))

    # The sender exists before any change can arrive (a pubsub may deliver during subscribe).
    sender = asyncio.create_task(_send_all(websocket, outbox))
    # Subscribing and taking the first state happen with no await between: nothing can be missed.
    unsubscribe = table.pubsub.subscribe(table.channel(), on_change)
    table.arrive(seat)
    outbox.put_nowait(table.state_text(seat, table.events_since(since) or []))
    bucket = TokenBucket(settings.rate_burst, settings.rate_per_second)
    await table.announce(seat)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data: str | bytes | None = message.get("text")
            if data is None:
                data = message.get("bytes")
                if data is None:
                    continue
            if len(data) > MAX_FRAME_BYTES or (isinstance(data, str) and len(data.encode()) > MAX_FRAME_BYTES):
                sender.cancel()
                with suppress(Exception):
                    await refuse(websocket, f"frame too large (limit {MAX_FRAME_BYTES} bytes): closing", 1009)
                break
            reply = await answer(table, seat, data, bucket)
            if reply is not None:
                outbox.put_nowait(dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        sender.cancel()
        await table.disconnect(seat)
        hub.release(table)


async def refuse(websocket: WebSocket, message: str, code: int) -> None:
    """One ``error`` line, then the close."""
    await websocket.send_text(dumps({"type": "error", "message": message}))
    await websocket.close(code)


async def answer(table: Table, seat: int | None, data: str | bytes, bucket: TokenBucket) -> dict[str, Any] | None:
    """The reply to one client message (``None`` when the reply is the broadcast state)."""
    try:
        if not bucket.take():
            raise ProtocolError("too many messages: slow down")
        request = parse_client_message(data)
        if isinstance(request, PingMessage):
            return {"type": "pong"}
        if isinstance(request, NextRoundMessage):
            if seat is None or table.config.seats[seat].kind != "human":
                raise ProtocolError("only a seated player can deal the next round")
            await table.act(seat, NEXT_ROUND)
            return None
        if isinstance(request, MoveMessage):
            await table.act(seat, request.move, request.version)
            return None
        move, why = await table.hint(seat)
        return hint_message(move, why)
    except ProtocolError as exc:
        return error_message(exc)


async def _send_all(websocket: WebSocket, outbox: asyncio.Queue[str]) -> None:
    with suppress(Exception):
        while True:
            await websocket.send_text(await outbox.get())

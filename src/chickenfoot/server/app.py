"""The FastAPI application: lobby endpoints, the table WebSocket and the page's static files."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS, check_bot, unknown_bot
from chickenfoot.errors import ChickenfootError, quoted
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.rules import MAX_PLAYERS, PRESETS, Rules
from chickenfoot.server import i18n_routes
from chickenfoot.server.accounts.live import SessionWatch
from chickenfoot.server.accounts.pages import account_pages_router
from chickenfoot.server.accounts.routes import accounts_router
from chickenfoot.server.accounts.service import Accounts, AccountSettings
from chickenfoot.server.botapi.gate import FloodGate, PausedTokens
from chickenfoot.server.botapi.routes import bot_api_router
from chickenfoot.server.botapi.throttle import TokenLimits, TokenThrottle
from chickenfoot.server.clock import SYSTEM_CLOCK, Clock
from chickenfoot.server.cluster import Cluster, local, shared
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.cluster.sync import TableSync
from chickenfoot.server.company import company_router, readiness_router
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.edge.client import (
    CLOSE_BAD_TOKEN,
    CLOSE_FLOODING,
    CLOSE_NOT_READING,
    ConnectionLimits,
    SendWatch,
    refuse,
    serve_connection,
)
from chickenfoot.server.edge.line_stream import table_lines
from chickenfoot.server.handover import Handovers, handover_router
from chickenfoot.server.history import MatchHistory
from chickenfoot.server.limiter import AddressLimits, Limiter
from chickenfoot.server.lobby import Lobby
from chickenfoot.server.profiles import profiles_router
from chickenfoot.server.quickplay import QuickPlaySettings, quickplay_router
from chickenfoot.server.quickplay.ratings import EqualRatings
from chickenfoot.server.ratings.routes import admit, make_rated, ratings_router
from chickenfoot.server.ratings.service import LevelRatings, Ratings
from chickenfoot.server.refusal import Refused, answer, invalid, unreadable_body
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.replay import replay_router, review_job
from chickenfoot.server.replay_frames import ReplayFrames
from chickenfoot.server.review_worker import ReviewWorker
from chickenfoot.server.security import HostCheck, SecurityHeaders, origin_allowed
from chickenfoot.server.storage import Storage, StorageUnavailable, default_database_url
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import ReplaceWithBot, Take
from chickenfoot.server.table.config import TURN_TIMERS, Seat, TableConfig, Timing
from chickenfoot.server.table.hints import Hints
from chickenfoot.server.table.protocol import printable_name
from chickenfoot.server.table.registry import Expiry, TableRegistry, random_seed
from chickenfoot.view import SeatView

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
HTTP_STATUS = {
    Why.INVALID: 400,
    Why.UNAUTHENTICATED: 401,
    Why.FORBIDDEN: 403,
    Why.NOT_FOUND: 404,
    Why.CONFLICT: 409,
    Why.TOO_MANY: 429,
    Why.UNAVAILABLE: 503,
}
"""The HTTP status of each kind of domain refusal."""


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """``None``: an SQLite file in the user's data directory."""
    redis_url: str | None = None
    """The Redis shared with the other processes serving the same database (``None``: this process is alone)."""
    timing: Timing = field(default_factory=Timing)
    connection: ConnectionLimits = field(default_factory=ConnectionLimits)
    addresses: AddressLimits = field(default_factory=AddressLimits)
    expiry: Expiry = field(default_factory=Expiry)
    health_seconds: float = 2.0
    """How often the database is probed, so an outage is reported even when nobody moves."""
    web_dir: Path = WEB_DIR
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open a table's WebSocket."""
    allowed_hosts: tuple[str, ...] | None = None
    """The names (``Host``) the server answers for; ``None``: any (an application served in-process)."""
    debug: bool = False
    """Serve the API's documentation at ``/docs``, ``/redoc`` and ``/openapi.json``."""
    review_budget: int = DEFAULT_BUDGET
    """Sampled deals per move of the background reviews of finished matches."""
    clock: Clock = SYSTEM_CLOCK
    """Where the server reads the time and waits for it (tests move a fake one by hand)."""
    accounts: AccountSettings = field(default_factory=AccountSettings)
    """Sessions, cookies and the passkeys' relying party."""
    seeds: Callable[[], int] = random_seed
    """Deals each new table's seed (tests fix it to play a known deal)."""
    quick_play: QuickPlaySettings = field(default_factory=QuickPlaySettings)
    """Quick play's queue: leases, bounds, the rating window's schedule, the ratings it pairs by."""
    bot_limits: TokenLimits = field(default_factory=TokenLimits)
    """What each API token of the Bot API may do (server/botapi/throttle.py)."""


Name = Annotated[str, AfterValidator(printable_name)]


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
    public: bool = False
    """Listed in the lobby (and so open)."""
    turn_timer: Literal[30, 60, 120] | None = None
    """Seconds per human turn; when absent, 60 with friends seated and off against bots only."""
    rated: bool = False
    """The match counts for its players' ratings (server/ratings): classic rules, signed-in players."""


class JoinRequest(BaseModel):
    name: Name | None = None


class ClaimRequest(BaseModel):
    invite: str = Field(max_length=MAX_SECRET_LENGTH)
    name: Name | None = None


class BotRequest(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="The table creator's seat credential.")
    bot: str = Field(default="medium", max_length=40)


def table_config(request: CreateRequest, seed: int) -> TableConfig:
    """A new table's configuration; raises :class:`Refused` (400) for bad rules or seats.

    The rules' own errors stay English inside the message (``reason``): they are the library's.
    """
    try:
        rules = Rules.from_dict({**Rules.preset(request.preset).to_dict(), **request.rules})
        if request.rounds is not None:
            rules = rules.replace(rounds=request.rounds)
        rules.hand_size_for(len(request.seats))
    except (ChickenfootError, TypeError) as exc:
        raise Refused(400, Said.of(Code.ERROR_BAD_RULES, reason=str(exc))) from None
    if not any(seat.kind == "human" for seat in request.seats):
        raise Refused(400, Said.of(Code.ERROR_NO_HUMAN_SEAT))
    seats: list[Seat] = []
    for wanted in request.seats:
        if wanted.kind == "bot":
            level = bot_level(wanted.bot or DEFAULT_LEVEL)
            seats.append(Seat("bot", wanted.name or None, bot=level))
        else:
            seats.append(Seat("human", wanted.name or None))
    creator = next(s for s, seat in enumerate(seats) if seat.kind == "human")
    seats[creator].taken = True
    friends = sum(seat.kind == "human" for seat in seats) > 1
    seats[creator].ready = not friends  # with friends, the creator too says when they are ready
    timer = request.turn_timer if "turn_timer" in request.model_fields_set else (60 if friends else None)
    assert timer is None or timer in TURN_TIMERS
    return TableConfig(
        rules,
        seats,
        seed,
        creator=creator,
        open=request.open or request.public,
        public=request.public,
        turn_timer=timer,
    )


def bot_level(level: str) -> str:
    """A bot level the server offers; raises :class:`Refused` (400) for any other."""
    try:
        return check_bot(level)
    except ValueError:
        raise Refused(400, unknown_bot(level)) from None


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
        "public": table.config.public,
        "turn_timer": table.config.turn_timer,
        "rated": table.config.rated,
        "round": table.match.round_number,
        "totals": table.match.totals(),
    }


def cluster_of(settings: Settings) -> Cluster:
    """The services shared with other processes: through Redis when there is one, else this process's own."""
    if settings.redis_url is None:
        return local(settings.addresses.storage, settings.clock)
    storage = settings.addresses.storage
    return shared(settings.redis_url, None if storage == "memory://" else storage, settings.clock)


def registry_of(settings: Settings, storage: Storage, cluster: Cluster) -> TableRegistry:
    """The tables of this process; each follows the other processes serving it, when there are others."""
    follow = None if cluster.alone else functools.partial(TableSync, cluster=cluster, clock=settings.clock)
    return TableRegistry(
        storage,
        LocalBus(),
        settings.timing,
        cluster.connections,
        settings.clock,
        expiry=settings.expiry,
        seeds=settings.seeds,
        follow=follow,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    clock = settings.clock
    storage = Storage(settings.database_url or default_database_url(), clock)
    cluster = cluster_of(settings)
    reviews = ReviewWorker(storage, lambda code: review_job(hub.get, code), settings.review_budget)
    listing = Lobby(storage, clock)
    hub = registry_of(settings, storage, cluster)
    hub.on_match_finished(reviews.request)
    hub.on_match_finished(listing.finished)
    history = MatchHistory(storage, hub)
    hub.on_match_finished(history.finished)
    limiter = Limiter(dataclasses.replace(settings.addresses, storage=cluster.limits_storage))
    sends = SendWatch(clock)
    frames = ReplayFrames()
    hints = Hints(lambda address: limiter.refusal("hint", address))
    accounts = Accounts(storage, clock, settings.accounts, cluster.bus)
    handovers = Handovers(storage, clock)
    ratings = Ratings(storage, clock)
    ratings.follow(hub)
    quick_play = settings.quick_play
    if isinstance(quick_play.ratings, EqualRatings):  # not chosen by a test: pair by the real ratings
        quick_play = dataclasses.replace(quick_play, ratings=ratings.shown_of, bots=LevelRatings())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.migrate()
        cluster.start()
        accounts.live.start()
        hub.start()
        reviews.start()
        watch = asyncio.create_task(storage.watch(settings.health_seconds))
        yield
        watch.cancel()
        await reviews.stop()
        accounts.live.stop()
        await ratings.settle()
        frames.close()
        hints.close()
        await hub.close()
        await cluster.close()
        await storage.close()

    docs = settings.debug
    app = FastAPI(
        title="Chicken Foot",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    if settings.allowed_hosts is not None:
        app.add_middleware(HostCheck, allowed=settings.allowed_hosts)
    paused_tokens = PausedTokens()
    app.add_middleware(FloodGate, paused=paused_tokens)  # inside the security headers: its refusals get them too
    app.add_middleware(SecurityHeaders, without_csp=("/docs", "/redoc") if docs else ())
    app.state.hub = hub
    app.state.storage = storage

    # Every error answer is a message (server/refusal.py): the page shows it in its reader's language.
    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        return answer(exc.said, exc.status, exc.headers)

    @app.exception_handler(Refusal)
    async def refusal(_request: Request, exc: Refusal) -> JSONResponse:
        headers = None if exc.retry_after is None else {"Retry-After": str(math.ceil(exc.retry_after))}
        return JSONResponse({"detail": str(exc), **exc.said.wire()}, HTTP_STATUS[exc.why], headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return answer(invalid(exc.errors()), 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        cause = exc.__cause__
        if exc.status_code == 400 and cause is not None:  # FastAPI could not read the body at all
            return answer(unreadable_body(cause), 400)
        return answer(Said.of(Code.ERROR_HTTP, status=exc.status_code), exc.status_code, exc.headers)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _exc: Exception) -> JSONResponse:
        return answer(Said.of(Code.ERROR_HTTP, status=500), 500)

    @app.exception_handler(StorageUnavailable)
    async def storage_unavailable(_request: Request, _exc: StorageUnavailable) -> JSONResponse:
        return answer(Said.of(Code.ERROR_STORE_UNAVAILABLE), 503, {"Retry-After": "2"})

    def client_address(connection: Request | WebSocket) -> str:
        return connection.client.host if connection.client is not None else "unknown"

    async def get_table(code: str) -> Table:
        table = await hub.get(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
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
    async def create_table(request: CreateRequest, http: Request) -> dict[str, Any]:
        """A new table: the creator's seat credential, and a single-use invite for every other human seat."""
        config = table_config(request, hub.seeds())
        if request.rated:
            await make_rated(accounts, http, config)
        if (refusal := await limiter.refusal("table", client_address(http))) is not None:
            reason, wait = refusal
            raise Refused(429, reason, {"Retry-After": str(wait)})
        table = await hub.create(config)
        code, creator = table.code, table.config.creator
        token = await credentials.issue_seat(code, creator)
        await accounts.sit(http, code, creator)
        invites = {seat: await credentials.invite(code, seat) for seat in table.free_seats()}
        return {
            "code": code,
            "seat": creator,
            "token": token,
            "open": table.config.open,
            "public": table.config.public,
            "turn_timer": table.config.turn_timer,
            "rated": table.config.rated,
            "seats": [
                {"seat": s, "kind": seat.kind} | ({"invite": f"/t/{code}?invite={invites[s]}"} if s in invites else {})
                for s, seat in enumerate(table.config.seats)
            ],
        }

    @app.get("/api/tables/{code}")
    async def table_summary(code: str) -> dict[str, Any]:
        return summary(await get_table(code))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, http: Request, request: JoinRequest | None = None) -> dict[str, Any]:
        """Take a free seat of an open table: a fresh seat credential."""
        table = await get_table(code)
        if not table.config.open:
            raise Refused(403, Said.of(Code.ERROR_INVITE_ONLY))
        await admit(accounts, http, table.config)
        for seat in table.free_seats():
            token = await credentials.issue_seat(table.code, seat)
            if token is not None:
                await table.submit(Take(seat, (request.name or "") if request else "", ready=False))
                await accounts.sit(http, table.code, seat)
                return {"seat": seat, "token": token}
        raise Refused(409, Said.of(Code.ERROR_NO_FREE_SEAT))

    @app.post("/api/tables/{code}/claim")
    async def claim(code: str, request: ClaimRequest, http: Request) -> dict[str, Any]:
        """Exchange a single-use invite for the invited seat's credential (a fresh secret)."""
        table = await get_table(code)
        await admit(accounts, http, table.config)
        claimed = await credentials.claim(table.code, request.invite)
        if claimed is None:
            raise Refused(403, Said.of(Code.ERROR_INVITE_USED))
        seat, token = claimed
        await table.submit(Take(seat, request.name or "", ready=False))
        await accounts.sit(http, table.code, seat)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{code}/seats/{seat}/bot")
    async def replace_with_bot(code: str, seat: int, request: BotRequest) -> dict[str, Any]:
        """The creator hands an absent friend's seat to a bot; that seat's credential and invite open nothing after."""
        table = await get_table(code)
        if await credentials.seat_of(table.code, request.token) != table.config.creator:
            raise Refused(403, Said.of(Code.ERROR_CREATOR_ONLY))
        if not 0 <= seat < len(table.config.seats):
            raise Refused(404, Said.of(Code.ERROR_NO_SEAT, number=seat))
        level = bot_level(request.bot)
        await table.submit(ReplaceWithBot(seat, level, revoke=lambda: credentials.revoke(table.code, seat)))
        return summary(table)

    async def replay_throttle(request: Request) -> tuple[Said, int] | None:
        return await limiter.refusal("replay", client_address(request))

    replays = replay_router(hub.get, reviews, frames, replay_throttle, settings.web_dir, history.deleted_seats)
    app.include_router(replays)
    app.include_router(company_router(hub, listing, get_table, summary))
    app.include_router(readiness_router(credentials, get_table, bot_level, summary))
    app.include_router(accounts_router(accounts, limiter, credentials.seat_of))
    app.include_router(ratings_router(ratings, accounts, get_table, settings.web_dir))
    app.include_router(quickplay_router(quick_play, storage, clock, hub, accounts, limiter))

    async def profile_throttle(request: Request) -> tuple[Said, int] | None:
        return await limiter.refusal("profile", client_address(request))

    app.include_router(profiles_router(history, accounts, profile_throttle, clock, settings.web_dir))
    app.include_router(handover_router(hub, handovers, accounts, limiter))
    app.include_router(account_pages_router(settings.web_dir))
    bot_throttle = TokenThrottle(settings.bot_limits, cluster.limits_storage)
    configure = lambda body: table_config(CreateRequest.model_validate(body), hub.seeds())  # noqa: E731
    lines = functools.partial(table_lines, hub, settings.connection, sends)
    bot_api = bot_api_router(hub, accounts, bot_throttle, lines, configure, paused_tokens, cluster.bus)
    app.include_router(bot_api)

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        if (refusal := await limiter.refusal("connection", client_address(websocket))) is not None:
            reason, wait = refusal
            await websocket.send_denial_response(answer(reason, 429, {"Retry-After": str(wait)}))
            return
        await websocket.accept()
        if not origin_allowed(websocket.scope, settings.allowed_origins):
            origin = quoted(websocket.headers.get("origin", "")[:100])
            await refuse(websocket, CLOSE_BAD_TOKEN, Said.of(Code.ERROR_FOREIGN_ORIGIN, origin=origin))
            return
        address = client_address(websocket)

        async def address_chat() -> Said | None:
            refusal = await limiter.refusal("chat", address)
            return None if refusal is None else refusal[0]

        async def hint(view: SeatView) -> tuple[Move, Said]:
            return await hints.suggest(view, address)

        async def own_seat() -> tuple[int, SessionWatch] | None:
            """No seat credential: the seat of the signed-in account, if any, ended with its session."""
            found = await accounts.seat_and_session(websocket, code)
            if found is None:
                return None
            seat, session = found
            return seat, functools.partial(accounts.live.watch, session)

        async def watching_reason() -> str:
            return await accounts.watching_reason(websocket, code)

        served = await serve_connection(
            websocket,
            code,
            hub,
            settings.connection,
            address_chat,
            hint,
            sends,
            own_seat,
            handovers.moved,
            watching_reason,
        )
        if served in (CLOSE_FLOODING, CLOSE_NOT_READING):
            await limiter.cut_off(address)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        """The page itself; it reads the table code (and token) from its address."""
        index = settings.web_dir / "index.html"
        if not index.is_file():
            raise Refused(404, Said.of(Code.ERROR_PAGE_MISSING))
        return FileResponse(index)

    app.include_router(i18n_routes.router)
    if settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app

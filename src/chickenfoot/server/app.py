"""The FastAPI application: lobby endpoints, the table WebSocket and the page's static files."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from chickenfoot.bots import BOTS
from chickenfoot.errors import ChickenfootError
from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server.protocol import ProtocolError, dumps, parse_client_message
from chickenfoot.server.pubsub import LocalPubSub, Message, PubSub
from chickenfoot.server.replay import replay_router, review_job
from chickenfoot.server.review_worker import FinishWatch, ReviewWorker
from chickenfoot.server.storage import Storage, default_database_url
from chickenfoot.server.table import NEXT_ROUND, Seat, Table, TableConfig, Timing, new_token

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
LEVELS = ["easy", "medium", "hard", "expert", "random", "greedy"]
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
MAX_SEATS = 8


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
        self.tables: dict[str, Table] = {}
        self._closing: dict[str, asyncio.Task[None]] = {}
        self._lock = asyncio.Lock()

    async def get(self, code: str) -> Table | None:
        code = code.upper()
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


class SeatRequest(BaseModel):
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str | None = Field(default=None, max_length=40)


class CreateRequest(BaseModel):
    preset: str = "classic"
    rules: dict[str, Any] = Field(default_factory=dict)
    rounds: int | None = None
    seats: list[SeatRequest] = Field(min_length=2, max_length=MAX_SEATS)


class JoinRequest(BaseModel):
    name: str | None = Field(default=None, max_length=40)


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
    creator = True
    for s, wanted in enumerate(request.seats):
        if wanted.kind == "bot":
            level = wanted.bot or "medium"
            if level not in LEVELS and level not in BOTS:
                raise HTTPException(400, f"unknown bot {level!r} (choose from {', '.join(LEVELS)})")
            seats.append(Seat("bot", wanted.name or f"{level.capitalize()} bot {s + 1}", bot=level))
        else:
            seats.append(Seat("human", wanted.name or f"Player {s + 1}", token=new_token(), taken=creator))
            creator = False
    return TableConfig(rules, seats, secrets.randbits(62))


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

    app = FastAPI(title="Chicken Foot", lifespan=lifespan)
    app.state.hub = hub
    app.state.storage = storage

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        return JSONResponse({"detail": f"{where}: {first['msg']}" if where else str(first["msg"])}, status_code=400)

    async def get_table(code: str) -> Table:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(404, f"no table {code}")
        return table

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {"presets": {name: rules.to_dict() for name, rules in PRESETS.items()}, "bots": LEVELS}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: CreateRequest) -> dict[str, Any]:
        table = await hub.create(table_config(request))
        return {
            "code": table.code,
            "seats": [
                {"seat": s, "kind": seat.kind}
                | ({"token": seat.token, "invite": f"/t/{table.code}?token={seat.token}"} if seat.token else {})
                for s, seat in enumerate(table.config.seats)
            ],
        }

    @app.get("/api/tables/{code}")
    async def table_summary(code: str) -> dict[str, Any]:
        return summary(await get_table(code))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: JoinRequest | None = None) -> dict[str, Any]:
        table = await get_table(code)
        try:
            seat, token = await table.join((request.name or "") if request else "")
        except LookupError as exc:
            raise HTTPException(409, str(exc)) from None
        return {"seat": seat, "token": token, "invite": f"/t/{table.code}?token={token}"}

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
        await serve_connection(websocket, code, hub, settings)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        """The page itself; it reads the table code (and token) from its address."""
        index = settings.web_dir / "index.html"
        if not index.is_file():
            raise HTTPException(404, "the page is not installed")
        return FileResponse(index)

    if settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app


async def serve_connection(websocket: WebSocket, code: str, hub: Hub, settings: Settings) -> None:
    """One client's socket: an initial state, then its requests and every change of the table."""
    table = await hub.get(code)
    if table is None:
        await websocket.send_text(dumps({"type": "error", "message": f"no table {code}"}))
        await websocket.close(4404)
        return
    seat: int | None = None
    token = websocket.query_params.get("token")
    if token:
        seat = table.seat_of(token)
        if seat is None:
            await websocket.send_text(dumps({"type": "error", "message": "unknown token for this table"}))
            await websocket.close(4403)
            return
        await table.take_seat(seat)
    since_text = websocket.query_params.get("since", "")
    since = int(since_text) if since_text.isdigit() else None

    while table.closed:  # released from memory meanwhile: read it back (it is in storage)
        table = await hub.get(code) or table
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

    # Subscribing and taking the first state happen with no await between: nothing can be missed.
    unsubscribe = table.pubsub.subscribe(table.channel(), on_change)
    table.arrive(seat)
    outbox.put_nowait(table.state_text(seat, table.events_since(since) or []))
    sender = asyncio.create_task(_send_all(websocket, outbox))
    bucket = TokenBucket(settings.rate_burst, settings.rate_per_second)
    await table.announce(seat)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            reply = await answer(table, seat, data if data is not None else message.get("bytes") or b"", bucket)
            if reply is not None:
                outbox.put_nowait(dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        sender.cancel()
        await table.disconnect(seat)
        hub.release(table)


async def answer(table: Table, seat: int | None, data: str | bytes, bucket: TokenBucket) -> dict[str, Any] | None:
    """The reply to one client message (``None`` when the reply is the broadcast state)."""
    try:
        if not bucket.take():
            raise ProtocolError("too many messages: slow down")
        request = parse_client_message(data)
        kind = request["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "hint":
            move, reason = await table.hint(seat)
            return {"type": "hint", "move": str(move), "reason": reason}
        if kind == "next_round":
            if seat is None or table.config.seats[seat].kind != "human":
                raise ProtocolError("only a seated player can deal the next round")
            await table.act(seat, NEXT_ROUND)
            return None
        await table.act(seat, request["move"], request["version"])
        return None
    except ProtocolError as exc:
        return {"type": "error", "message": str(exc)}


async def _send_all(websocket: WebSocket, outbox: asyncio.Queue[str]) -> None:
    with suppress(Exception):
        while True:
            await websocket.send_text(await outbox.get())

"""The FastAPI application: lobby endpoints, the table WebSocket and the page's static files."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from chickenfoot.bots import BOTS
from chickenfoot.errors import ChickenfootError
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server.connection import ConnectionLimits, serve_connection
from chickenfoot.server.hub import Expiry, Hub
from chickenfoot.server.limiter import AddressLimits, Limiter
from chickenfoot.server.pubsub import LocalPubSub
from chickenfoot.server.storage import Storage, StorageUnavailable, default_database_url
from chickenfoot.server.table import Seat, Table, TableConfig, Timing, new_token

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
LEVELS = ["easy", "medium", "hard", "expert", "random", "greedy"]
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """``None``: an SQLite file in the user's data directory."""
    timing: Timing = field(default_factory=Timing)
    connection: ConnectionLimits = field(default_factory=ConnectionLimits)
    addresses: AddressLimits = field(default_factory=AddressLimits)
    expiry: Expiry = field(default_factory=Expiry)
    health_seconds: float = 2.0
    """How often the database is probed, so an outage is reported even when nobody moves."""
    web_dir: Path = WEB_DIR


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
    hub = Hub(storage, LocalPubSub(), settings.timing, settings.expiry)
    limiter = Limiter(settings.addresses)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.migrate()
        hub.start()
        watch = asyncio.create_task(storage.watch(settings.health_seconds))
        yield
        watch.cancel()
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

    @app.exception_handler(StorageUnavailable)
    async def storage_unavailable(_request: Request, exc: StorageUnavailable) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "2"})

    def client_address(connection: Request | WebSocket) -> str:
        return connection.client.host if connection.client is not None else "unknown"

    async def get_table(code: str) -> Table:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(404, f"no table {code}")
        return table

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {"presets": {name: rules.to_dict() for name, rules in PRESETS.items()}, "bots": LEVELS}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: CreateRequest, http: Request) -> dict[str, Any]:
        config = table_config(request)
        if (refusal := await limiter.refusal("table", client_address(http))) is not None:
            reason, wait = refusal
            raise HTTPException(429, reason, headers={"Retry-After": str(wait)})
        table = await hub.create(config)
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

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        if (refusal := await limiter.refusal("connection", client_address(websocket))) is not None:
            reason, wait = refusal
            await websocket.send_denial_response(
                PlainTextResponse(reason, status_code=429, headers={"Retry-After": str(wait)})
            )
            return
        await websocket.accept()
        await serve_connection(websocket, code, hub, settings.connection)

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

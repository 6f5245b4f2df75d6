"""Tables made and filled over HTTP: the presets, creating a table, its summary, joining, claiming an
invite, a seat handed to a bot, and the table's page."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.messages import Code
from chickenfoot.rules import MAX_PLAYERS, PRESETS
from chickenfoot.server.accounts.holders import SeatAs
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.seating.service import CreateRequest, Name, Seating, summary
from chickenfoot.server.table.pace import pace_facts


class JoinRequest(BaseModel):
    name: Name | None = None


class ClaimRequest(BaseModel):
    invite: str = Field(max_length=MAX_SECRET_LENGTH)
    name: Name | None = None


class BotRequest(BaseModel):
    token: str | None = Field(
        default=None, max_length=MAX_SECRET_LENGTH, description="The creator's seat credential (none: by the session)."
    )
    bot: str = Field(default="medium", max_length=40)


class SeatRequest(BaseModel):
    token: str | None = Field(
        default=None, max_length=MAX_SECRET_LENGTH, description="The creator's seat credential (none: by the session)."
    )


def invite_path(code: str, invite: str) -> str:
    return f"/t/{code}?invite={invite}"


@cache
def presets_json() -> bytes:
    """The presets, the bots and the largest table: the same for every request, written once."""
    return orjson.dumps(
        {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "bots": list(LEVELS),
            "default_bot": DEFAULT_LEVEL,
            "max_players": MAX_PLAYERS,
        }
    )


def seating_router(seating: Seating, limits: RateLimiter, web_dir: Path, seat_as: SeatAs) -> APIRouter:
    """``seat_as``: the seat a request acts for (server/accounts/holders.py)."""
    router = APIRouter()

    @router.get("/api/presets")
    async def presets() -> Response:
        return Response(presets_json(), media_type="application/json")

    @router.post("/api/tables", status_code=201)
    async def create_table(request: CreateRequest, http: Request) -> dict[str, Any]:
        """A new table: the creator's seat credential, and a single-use invite for every other human seat."""
        config = seating.configure(request)
        if request.rated:
            await seating.rated(config, http)
        await limits.check("table", client_address(http))
        created = await seating.create(config, http)
        table, code = created.table, created.table.code
        return {
            "code": code,
            "seat": table.config.creator,
            "token": created.token,
            "open": table.config.open,
            "public": table.config.public,
            "turn_timer": table.config.turn_timer,
            "pace": pace_facts(table.config.pace),
            "rated": table.config.rated,
            "seats": [
                {"seat": s, "kind": seat.kind}
                | ({"invite": invite_path(code, created.invites[s])} if s in created.invites else {})
                for s, seat in enumerate(table.config.seats)
            ],
        }

    @router.get("/api/tables/{code}")
    async def table_summary(code: str) -> dict[str, Any]:
        return summary(await seating.tables(code))

    @router.post("/api/tables/{code}/join")
    async def join(code: str, http: Request, request: JoinRequest | None = None) -> dict[str, Any]:
        """Take a free seat of an open table: a fresh seat credential."""
        seat, token = await seating.join(code, (request.name or "") if request else "", http)
        return {"seat": seat, "token": token}

    @router.post("/api/tables/{code}/claim")
    async def claim(code: str, request: ClaimRequest, http: Request) -> dict[str, Any]:
        """Exchange a single-use invite for the invited seat's credential (a fresh secret)."""
        seat, token = await seating.claim(code, request.invite, request.name or "", http)
        return {"seat": seat, "token": token}

    @router.post("/api/tables/{code}/seats/{seat}/bot")
    async def replace_with_bot(code: str, seat: int, request: BotRequest, http: Request) -> dict[str, Any]:
        """The creator hands an absent friend's seat to a bot; that seat's credential and invite open nothing after."""
        table = await seating.tables(code)
        acting = await seat_as(http, table.code, request.token, Code.ERROR_CREATOR_ONLY)
        return summary(await seating.replace_with_bot(table, acting, seat, request.bot))

    @router.post("/api/tables/{code}/invites")
    async def new_invites(code: str, http: Request, request: SeatRequest | None = None) -> dict[str, Any]:
        """The creator's new invite links for the seats nobody has taken (those made before open nothing
        after): for a device of the creator's account that does not hold the links."""
        table = await seating.tables(code)
        acting = await seat_as(http, table.code, request.token if request else None, Code.ERROR_ONLY_CREATOR)
        made = await seating.new_invites(table, acting)
        return {"invites": [{"seat": seat, "invite": invite_path(table.code, invite)} for seat, invite in made.items()]}

    @router.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str, request: Request) -> HTMLResponse:
        """The page itself; it reads the table code (and token) from its address."""
        return serve_page(web_dir, "index", request)

    return router

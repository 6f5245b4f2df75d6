"""The HTTP side of company at the table: leaving, reopening a seat, listing a table in the lobby,
the lobby's list and the rematch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server import lobby, rematch
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.hub import Hub
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table import Table
from chickenfoot.server.table_commands import AcceptRematch, Leave, Reopen, SetPublic


class SeatRequest(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="A seat credential of the table.")


class PublicRequest(SeatRequest):
    public: bool


def company_router(
    hub: Hub, listing: lobby.Lobby, get_table: Callable[[str], Awaitable[Table]], summary: Callable[[Table], Any]
) -> APIRouter:
    router = APIRouter()
    credentials = hub.credentials

    async def seat_of(table: Table, token: str) -> int:
        seat = await credentials.seat_of(table.code, token)
        if seat is None:
            raise Refusal.forbidden(Said.of(Code.ERROR_TOKEN_OPENS_NO_SEAT))
        return seat

    async def creator(table: Table, token: str) -> None:
        if await seat_of(table, token) != table.config.creator:
            raise Refusal.forbidden(Said.of(Code.ERROR_ONLY_CREATOR))

    @router.get("/api/lobby")
    async def open_tables(request: Request) -> Response:
        """Public tables waiting for players or in play; ``If-None-Match`` gets a 304 while nothing changed."""
        body, tag = await listing.body_and_tag()
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @router.post("/api/tables/{code}/public")
    async def make_public(code: str, request: PublicRequest) -> Any:
        """The creator lists the table in the lobby (a public table is open) or takes it off."""
        table = await get_table(code)
        await creator(table, request.token)
        await table.submit(SetPublic(request.public))
        return summary(table)

    @router.post("/api/tables/{code}/leave")
    async def leave(code: str, request: SeatRequest) -> Any:
        """The player leaves: a bot plays their seat until they come back with the same credential."""
        table = await get_table(code)
        await table.submit(Leave(await seat_of(table, request.token)))
        return summary(table)

    @router.post("/api/tables/{code}/seats/{seat}/reopen")
    async def reopen(code: str, seat: int, request: SeatRequest) -> Any:
        """The creator frees an absent player's seat: their credential opens nothing; a new invite for someone else."""
        table = await get_table(code)
        await creator(table, request.token)
        if not 0 <= seat < len(table.config.seats):
            raise Refusal.not_found(Said.of(Code.ERROR_NO_SEAT, number=seat))
        await table.submit(Reopen(seat, revoke=lambda: credentials.revoke(table.code, seat)))
        invite = await credentials.invite(table.code, seat)
        return summary(table) | {"invite": f"/t/{table.code}?invite={invite}"}

    @router.post("/api/tables/{code}/rematch")
    async def accept(code: str, request: SeatRequest) -> dict[str, Any]:
        """A seated player accepts a rematch (same seats, new match); the last acceptance makes the new table."""
        table = await get_table(code)
        return await table.submit(AcceptRematch(await seat_of(table, request.token), hub))

    @router.post("/api/tables/{code}/rematch/seat")
    async def rematch_seat(code: str, request: SeatRequest) -> dict[str, Any]:
        """The player's seat at the rematch's table: a fresh credential, handed out once."""
        table = await get_table(code)
        return await rematch.claim_seat(hub, hub.storage, credentials, table, await seat_of(table, request.token))

    return router

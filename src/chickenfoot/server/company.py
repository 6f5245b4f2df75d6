"""The HTTP side of company at the table: leaving, reopening a seat, listing a table in the lobby,
the lobby's list and the rematch; and what a client is told about them when it connects."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server import chat, lobby, rematch, seats
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.http.answers import Refused
from chickenfoot.server.hub import Hub
from chickenfoot.server.storage import StorageUnavailable
from chickenfoot.server.table import Table
from chickenfoot.server.table_config import TableConfig


class SeatRequest(BaseModel):
    token: str | None = Field(
        default=None, max_length=MAX_SECRET_LENGTH, description="A seat credential (none: the account's seat)."
    )


class PublicRequest(SeatRequest):
    public: bool


async def greetings(table: Table) -> list[dict[str, Any]]:
    """What a client gets after its first state: the series (at a rematch's table), the chat's kept lines
    (if any), and the rematch if one is asked for."""
    told = rematch.series(table)
    try:
        lines = await chat.history(table)
        messages = ([told] if told else []) + ([lines] if lines["lines"] else [])
        if table.match.is_over() and (offer := await asyncio.shield(rematch.status(table))) is not None:
            messages.append(offer)
    except StorageUnavailable:
        return [told] if told else []  # the client is told of the outage; the lines come with its next connection
    return messages


RematchOffered = Callable[[Table, int, list[int]], Awaitable[None]]
"""Told when a seat accepts a rematch that is not made yet (``table, seat, the seats that accepted``)."""


def company_router(
    hub: Hub,
    listing: lobby.Lobby,
    get_table: Callable[[str], Awaitable[Table]],
    summary: Callable[[Table], Any],
    seat_of: Callable[[Request, str, str | None], Awaitable[int]],
    rematch_offered: RematchOffered,
) -> APIRouter:
    """``seat_of``: the seat a request acts for, by its credential or its account's session (or 403)."""
    router = APIRouter()
    credentials = hub.credentials

    async def creator(http: Request, table: Table, token: str | None) -> None:
        if await seat_of(http, table.code, token) != table.config.creator:
            raise Refused(403, Said.of(Code.ERROR_ONLY_CREATOR))

    @router.get("/api/lobby")
    async def open_tables(request: Request) -> Response:
        """Public tables waiting for players or in play; ``If-None-Match`` gets a 304 while nothing changed."""
        body, tag = await listing.body_and_tag()
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @router.post("/api/tables/{code}/public")
    async def make_public(code: str, request: PublicRequest, http: Request) -> Any:
        """The creator lists the table in the lobby (a public table is open) or takes it off."""
        table = await get_table(code)
        await creator(http, table, request.token)

        def listed(config: TableConfig) -> None:
            config.public = config.open = request.public  # unlisted, the table is invite-only again

        async with table.lock:
            await table.change_config(listed)
        return summary(table)

    @router.post("/api/tables/{code}/leave")
    async def leave(code: str, http: Request, request: SeatRequest | None = None) -> Any:
        """The player leaves: a bot plays their seat until they come back with the same credential."""
        table = await get_table(code)
        await seats.leave(table, await seat_of(http, table.code, request.token if request else None))
        return summary(table)

    @router.post("/api/tables/{code}/seats/{seat}/reopen")
    async def reopen(code: str, seat: int, http: Request, request: SeatRequest | None = None) -> Any:
        """The creator frees an absent player's seat: their credential opens nothing; a new invite for someone else."""
        table = await get_table(code)
        await creator(http, table, request.token if request else None)
        if not 0 <= seat < len(table.config.seats):
            raise Refused(404, Said.of(Code.ERROR_NO_SEAT, number=seat))
        await seats.reopen(table, seat, revoke=lambda: credentials.revoke(table.code, seat))
        invite = await credentials.invite(table.code, seat)
        return summary(table) | {"invite": f"/t/{table.code}?invite={invite}"}

    @router.post("/api/tables/{code}/rematch")
    async def accept(code: str, http: Request, request: SeatRequest | None = None) -> dict[str, Any]:
        """A seated player accepts a rematch (same seats, new match); the last acceptance makes the new table."""
        table = await get_table(code)
        seat = await seat_of(http, table.code, request.token if request else None)
        status = await rematch.accept(hub, table, seat)
        if status["code"] is None:
            await rematch_offered(table, seat, status["accepted"])
        return status

    @router.post("/api/tables/{code}/rematch/seat")
    async def rematch_seat(code: str, http: Request, request: SeatRequest | None = None) -> dict[str, Any]:
        """The player's seat at the rematch's table: a fresh credential, handed out once."""
        table = await get_table(code)
        seat = await seat_of(http, table.code, request.token if request else None)
        return await rematch.claim_seat(hub, credentials, table, seat)

    return router

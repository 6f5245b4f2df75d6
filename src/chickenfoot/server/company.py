"""The HTTP side of company at the table: the ready step and starting with bots, leaving, reopening a
seat, listing a table in the lobby, the lobby's list and the rematch. Each route authorises the
request (by the seat's credential or the session of the account it follows: the ``seat_of`` port,
:mod:`chickenfoot.server.accounts.holders`) and submits the table's command
(:mod:`chickenfoot.server.table.commands`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.messages import Code, Said
from chickenfoot.server import lobby
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, Credentials
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table import rematch
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import AcceptRematch, Leave, Ready, Reopen, SetPublic, StartWithBots
from chickenfoot.server.table.registry import TableRegistry

SeatOf = Callable[[Request, str, str | None], Awaitable[int]]
"""The seat a request acts for at a table (by its code), by its credential or its account's session;
raises :class:`Refusal` (forbidden) when it acts for none."""
RematchOffered = Callable[[Table, int, list[int]], Awaitable[None]]
"""Told when a seat accepts a rematch that is not made yet (``table, seat, the seats that accepted``)."""


class TokenRequest(BaseModel):
    token: str | None = Field(
        default=None, max_length=MAX_SECRET_LENGTH, description="A seat credential (none: the account's seat)."
    )


class PublicRequest(TokenRequest):
    public: bool


class StartRequest(TokenRequest):
    bot: str = Field(default=DEFAULT_LEVEL, max_length=40, description="The level of the bots in the empty seats.")


def token_of(request: TokenRequest | None) -> str | None:
    """The credential a request body carries, if any (a signed-in player may send no body at all)."""
    return request.token if request else None


def readiness_router(
    credentials: Credentials,
    get_table: Callable[[str], Awaitable[Table]],
    bot_level: Callable[[str], str],
    summary: Callable[[Table], Any],
    seat_of: SeatOf,
) -> APIRouter:
    """The ready step (:mod:`chickenfoot.server.table.readiness`): a player is ready, the creator starts."""
    router = APIRouter()

    @router.post("/api/tables/{code}/ready")
    async def press_ready(code: str, request: TokenRequest, http: Request) -> Any:
        """The player is ready for the first deal (it comes once every seat is taken and ready)."""
        table = await get_table(code)
        await table.submit(Ready(await seat_of(http, table.code, request.token)))
        return summary(table)

    @router.post("/api/tables/{code}/start")
    async def start(code: str, request: StartRequest, http: Request) -> Any:
        """The creator starts the match now, with bots in the seats nobody has taken."""
        table = await get_table(code)
        if await seat_of(http, table.code, request.token) != table.config.creator:
            raise Refusal.forbidden(Said.of(Code.ERROR_START_CREATOR_ONLY))
        level = bot_level(request.bot)
        await table.submit(StartWithBots(level, lambda seat: credentials.revoke(table.code, seat)))
        return summary(table)

    return router


def company_router(
    tables: TableRegistry,
    listing: lobby.Lobby,
    get_table: Callable[[str], Awaitable[Table]],
    summary: Callable[[Table], Any],
    seat_of: SeatOf,
    rematch_offered: RematchOffered,
) -> APIRouter:
    router = APIRouter()
    credentials = tables.credentials

    async def creator(http: Request, table: Table, token: str | None) -> None:
        if await seat_of(http, table.code, token) != table.config.creator:
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
    async def make_public(code: str, request: PublicRequest, http: Request) -> Any:
        """The creator lists the table in the lobby (a public table is open) or takes it off."""
        table = await get_table(code)
        await creator(http, table, request.token)
        await table.submit(SetPublic(request.public))
        return summary(table)

    @router.post("/api/tables/{code}/leave")
    async def leave(code: str, http: Request, request: TokenRequest | None = None) -> Any:
        """The player leaves: a bot plays their seat until they come back with the same credential."""
        table = await get_table(code)
        await table.submit(Leave(await seat_of(http, table.code, token_of(request))))
        return summary(table)

    @router.post("/api/tables/{code}/seats/{seat}/reopen")
    async def reopen(code: str, seat: int, http: Request, request: TokenRequest | None = None) -> Any:
        """The creator frees an absent player's seat: their credential opens nothing; a new invite for someone else."""
        table = await get_table(code)
        await creator(http, table, token_of(request))
        if not 0 <= seat < len(table.config.seats):
            raise Refusal.not_found(Said.of(Code.ERROR_NO_SEAT, number=seat))
        await table.submit(Reopen(seat, revoke=lambda: credentials.revoke(table.code, seat)))
        invite = await credentials.invite(table.code, seat)
        return summary(table) | {"invite": f"/t/{table.code}?invite={invite}"}

    @router.post("/api/tables/{code}/rematch")
    async def accept(code: str, http: Request, request: TokenRequest | None = None) -> dict[str, Any]:
        """A seated player accepts a rematch (same seats, new match); the last acceptance makes the new table."""
        table = await get_table(code)
        seat = await seat_of(http, table.code, token_of(request))
        status = await table.submit(AcceptRematch(seat, tables))
        if status["code"] is None:
            await rematch_offered(table, seat, status["accepted"])
        return status

    @router.post("/api/tables/{code}/rematch/seat")
    async def rematch_seat(code: str, http: Request, request: TokenRequest | None = None) -> dict[str, Any]:
        """The player's seat at the rematch's table: a fresh credential, handed out once."""
        table = await get_table(code)
        seat = await seat_of(http, table.code, token_of(request))
        return await rematch.claim_seat(tables, tables.storage, credentials, table, seat)

    return router

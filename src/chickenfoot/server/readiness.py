"""The ready step: the match's first deal waits until every human seat is taken and its player
has pressed "Ready", or until the creator starts with bots in the seats still empty.

A table with a single person (the rest bots) has nothing to wait for: it starts at once. Who is
ready is stored in the table's configuration (each :class:`~chickenfoot.server.table_config.Seat`'s
``ready``), so a table read back from storage, and every process serving it, sees the same step.
"Ready" holds no rule of the game: it only decides when the table's ``playing_since`` is set,
which starts the first turn's clock and lets the seats move.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.messages import Code, Said
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, Credentials
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table_commands import Ready, StartWithBots
from chickenfoot.server.table_config import Seat, TableConfig
from chickenfoot.server.table_ports import ConfigPort, TableHandle


def may_start(config: TableConfig) -> bool:
    """Every human seat is taken and, when there are several people, each of them is ready.

    >>> from chickenfoot.rules import Rules
    >>> config = TableConfig(Rules(), [Seat("human", taken=True), Seat("bot", taken=True)], seed=1)
    >>> may_start(config)
    True
    >>> config.seats[1] = Seat("human", taken=True, ready=False)
    >>> may_start(config)
    False
    >>> config.seats[0].ready = config.seats[1].ready = True
    >>> may_start(config)
    True
    """
    people = [seat for seat in config.seats if seat.kind == "human"]
    return all(seat.taken for seat in people) and (len(people) == 1 or all(seat.ready for seat in people))


async def ready(table: ConfigPort, seat: int) -> None:
    """The player of ``seat`` is ready; the last one to be starts the match. Refuses (a conflict) a match
    that has begun."""
    if table.status != "waiting":
        raise Refusal.conflict(Said.of(Code.ERROR_READY_STARTED))

    def pressed(config: TableConfig) -> None:
        config.seats[seat].ready = True

    await table.change_config(pressed)


async def start_with_bots(table: ConfigPort, level: str, revoke: Callable[[int], Awaitable[None]]) -> None:
    """The creator starts now: every seat nobody has taken goes to a bot at ``level`` (``revoke``
    makes its invite open nothing first), and the people seated need not be ready."""
    if table.status != "waiting":
        raise Refusal.conflict(Said.of(Code.ERROR_READY_STARTED))
    empty = table.free_seats()
    for seat in empty:
        await revoke(seat)

    def filled(config: TableConfig) -> None:
        for seat in empty:
            config.seats[seat] = Seat("bot", bot=level, taken=True)
        for entry in config.seats:
            entry.ready = entry.ready or entry.kind == "human"

    await table.change_config(filled)


class ReadyRequest(BaseModel):
    token: str = Field(max_length=MAX_SECRET_LENGTH, description="The seat credential of the player.")


class StartRequest(ReadyRequest):
    bot: str = Field(default=DEFAULT_LEVEL, max_length=40, description="The level of the bots in the empty seats.")


def readiness_router(
    credentials: Credentials,
    get_table: Callable[[str], Awaitable[TableHandle]],
    bot_level: Callable[[str], str],
    summary: Callable[[Any], Any],
) -> APIRouter:
    router = APIRouter()

    async def seat_of(table: TableHandle, token: str) -> int:
        seat = await credentials.seat_of(table.code, token)
        if seat is None:
            raise Refusal.forbidden(Said.of(Code.ERROR_UNKNOWN_TOKEN))
        return seat

    @router.post("/api/tables/{code}/ready")
    async def press_ready(code: str, request: ReadyRequest) -> Any:
        """The player is ready for the first deal (it comes once every seat is taken and ready)."""
        table = await get_table(code)
        await table.submit(Ready(await seat_of(table, request.token)))
        return summary(table)

    @router.post("/api/tables/{code}/start")
    async def start(code: str, request: StartRequest) -> Any:
        """The creator starts the match now, with bots in the seats nobody has taken."""
        table = await get_table(code)
        if await seat_of(table, request.token) != table.config.creator:
            raise Refusal.forbidden(Said.of(Code.ERROR_START_CREATOR_ONLY))
        level = bot_level(request.bot)
        await table.submit(StartWithBots(level, lambda seat: credentials.revoke(table.code, seat)))
        return summary(table)

    return router

"""Seats changing hands: a player taking a seat, a player leaving (a bot plays until they come back),
the creator reopening an absent player's seat for someone else or handing it to a bot.

Each change is stored in the table's configuration (``left``, ``taken``) before they are announced, so
every server process sees the same seats.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusal import Refused
from chickenfoot.server.table import Table
from chickenfoot.server.table_config import Seat, TableConfig


async def take(table: Table, seat: int, name: str, ready: bool = True) -> None:
    """Record that a player now holds ``seat`` (its credential was issued) under ``name``; ``ready``:
    whether they are ready for the first deal already (a rematch's players accepted it)."""

    def taken(config: TableConfig) -> None:
        config.seats[seat].taken = True
        config.seats[seat].ready = ready
        if name:
            config.seats[seat].name = name

    async with table.lock:
        await table.change_config(taken)
    table.autoplay.schedule()


async def leave(table: Table, seat: int) -> None:
    """The player of ``seat`` leaves: from now on a bot plays it, until they connect again with their credential.

    Raises :class:`LookupError` when there is nothing to leave (a bot's seat, a finished match).
    """
    async with table.lock:
        entry = table.config.seats[seat]
        if entry.kind != "human" or not entry.taken:
            raise LookupError(f"seat {seat} is not a player's seat")
        if table.match.is_over():
            raise LookupError("the match is over: there is nothing to leave")
        if not entry.left:

            def away(config: TableConfig) -> None:
                config.seats[seat].left = True

            event = {"kind": "left", "seat": seat, "move": None} | Said.of(Code.EVENT_LEFT, seat=seat).wire()
            await table.change_config(away, [event])
    table.autoplay.schedule()


async def reopen(table: Table, seat: int, revoke: Callable[[], Awaitable[None]]) -> None:
    """Free an absent player's seat for someone else, after ``revoke`` of its credential and invite.

    Until the seat is taken again a bot plays it (once the match has begun). Raises
    :class:`LookupError` for the creator's seat, a bot's, a connected player's, or a finished match.
    """
    async with table.lock:
        entry = table.config.seats[seat]
        if entry.kind != "human" or seat == table.config.creator:
            raise LookupError(f"seat {seat} is not a friend's seat")
        if table.attendance.connections[seat]:
            raise LookupError(f"seat {seat} is connected: only an absent player's seat can be reopened")
        if table.match.is_over():
            raise LookupError("the match is over")
        await revoke()

        def free(config: TableConfig) -> None:
            config.seats[seat].taken = config.seats[seat].left = False
            config.seats[seat].name = None

        await table.change_config(free)
    table.autoplay.schedule()


async def replace_with_bot(table: Table, seat: int, level: str, revoke: Callable[[], Awaitable[None]]) -> None:
    """Hand an absent player's seat to a bot for the rest of the match, after ``revoke`` of its credential.

    Refuses (409) the creator's seat, a bot's, or a connected player's.
    """
    async with table.lock:
        entry = table.config.seats[seat]
        if entry.kind != "human" or seat == table.config.creator:
            raise Refused(409, Said.of(Code.ERROR_NOT_FRIENDS_SEAT, number=seat))
        if table.attendance.connections[seat]:
            raise Refused(409, Said.of(Code.ERROR_SEAT_CONNECTED, number=seat))
        await revoke()

        def to_bot(config: TableConfig) -> None:
            config.seats[seat] = Seat("bot", bot=level, taken=True)

        await table.change_config(to_bot)
    table.autoplay.schedule()

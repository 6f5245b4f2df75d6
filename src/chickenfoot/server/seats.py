"""Seats changing hands during a match: a player leaving (a bot plays until they come back) and the
creator reopening an absent player's seat for someone else.

Both are stored in the table's configuration (``left``, ``taken``) before they are announced, so
every server process sees the same seats.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chickenfoot.messages import Code, Said
from chickenfoot.server.table import Table, TableConfig


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
    table.schedule()


async def reopen(table: Table, seat: int, revoke: Callable[[], Awaitable[None]]) -> None:
    """Free an absent player's seat for someone else, after ``revoke`` of its credential and invite.

    Until the seat is taken again a bot plays it (once the match has begun). Raises
    :class:`LookupError` for the creator's seat, a bot's, a connected player's, or a finished match.
    """
    async with table.lock:
        entry = table.config.seats[seat]
        if entry.kind != "human" or seat == table.config.creator:
            raise LookupError(f"seat {seat} is not a friend's seat")
        if table.connections[seat]:
            raise LookupError(f"seat {seat} is connected: only an absent player's seat can be reopened")
        if table.match.is_over():
            raise LookupError("the match is over")
        await revoke()

        def free(config: TableConfig) -> None:
            config.seats[seat].taken = config.seats[seat].left = False
            config.seats[seat].name = None

        await table.change_config(free)
    table.schedule()

"""Seats changing hands: a player taking a seat, a player leaving (a bot plays until they come back),
the creator reopening an absent player's seat for someone else or handing it to a bot, a bot account
sitting down; and the table listed in the lobby or not.

Each change is stored in the table's configuration (``left``, ``taken``) before they are announced, so
every server process sees the same seats. Each runs in the table's turn (the table handles the
commands of :mod:`.table_commands` one at a time), through its :class:`~.table_ports.ConfigPort`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.ports import ConfigPort
from chickenfoot.server.table.readiness import ready


def refuse_aborted(config: TableConfig) -> None:
    """Refuse (a conflict) a seat at a table its creator called off (:func:`abort`): it never starts."""
    if config.aborted:
        raise Refusal.conflict(Said.of(Code.ERROR_ABORTED))


async def take(table: ConfigPort, seat: int, name: str, ready: bool = True) -> None:
    """Record that a player now holds ``seat`` (its credential was issued) under ``name``; ``ready``:
    whether they are ready for the first deal already (a rematch's players accepted it)."""

    def taken(config: TableConfig) -> None:
        config.seats[seat].taken = True
        config.seats[seat].ready = ready
        if name:
            config.seats[seat].name = name

    await table.change_config(taken)


async def leave(table: ConfigPort, seat: int) -> None:
    """The player of ``seat`` leaves: from now on a bot plays it, until they connect again with their credential.

    Refuses (a conflict) a seat that is not a player's, and a finished match (nothing to leave).
    """
    entry = table.config.seats[seat]
    if entry.kind != "human" or not entry.taken:
        raise Refusal.conflict(Said.of(Code.ERROR_NOT_PLAYERS_SEAT, number=seat))
    if table.status == "finished":  # played out, or lost on time
        raise Refusal.conflict(Said.of(Code.ERROR_NOTHING_TO_LEAVE))
    if not entry.left:

        def away(config: TableConfig) -> None:
            config.seats[seat].left = True

        event = {"kind": "left", "seat": seat, "move": None} | Said.of(Code.EVENT_LEFT, seat=seat).wire()
        await table.change_config(away, [event])


async def resign(table: ConfigPort, seat: int, level: str, revoke: Callable[[], Awaitable[None]]) -> None:
    """The player of ``seat`` resigns: a bot at ``level`` plays it to the end and its player cannot come
    back (at a rated table it counts as finishing last). Refuses (a conflict) a seat that is not a
    player's, and a match that has not begun or is over."""
    entry = table.config.seats[seat]
    if entry.kind != "human" or not entry.taken:
        raise Refusal.conflict(Said.of(Code.ERROR_NOT_PLAYERS_SEAT, number=seat))
    if table.status != "playing":
        raise Refusal.conflict(
            Said.of(Code.ERROR_NOTHING_TO_LEAVE if table.status == "finished" else Code.ERROR_NOT_STARTED)
        )
    await _to_bot(table, seat, level, revoke, Said.of(Code.EVENT_RESIGNED, seat=seat))


async def abort(table: ConfigPort, seat: int) -> None:
    """The creator (at ``seat``) calls the table off before its match begins: it never starts, and it
    leaves the lobby. Refuses anyone else (forbidden), and a match that has begun (a conflict: resign
    or leave instead)."""
    if seat != table.config.creator:
        raise Refusal.forbidden(Said.of(Code.ERROR_CREATOR_ONLY))
    if table.status != "waiting":
        raise Refusal.conflict(Said.of(Code.ERROR_ABORT_STARTED))

    def called_off(config: TableConfig) -> None:
        config.aborted = True
        config.public = config.open = False

    event = {"kind": "aborted", "seat": seat, "move": None} | Said.of(Code.EVENT_ABORTED).wire()
    await table.change_config(called_off, [event])


async def reopen(table: ConfigPort, seat: int, revoke: Callable[[], Awaitable[None]]) -> None:
    """Free an absent player's seat for someone else, after ``revoke`` of its credential and invite.

    Until the seat is taken again a bot plays it (once the match has begun). Refuses (a conflict) the
    creator's seat, a bot's, a connected player's, or a seat of a finished match.
    """
    entry = table.config.seats[seat]
    if entry.kind != "human" or seat == table.config.creator:
        raise Refusal.conflict(Said.of(Code.ERROR_NOT_FRIENDS_SEAT, number=seat))
    if table.counts.connections[seat]:
        raise Refusal.conflict(Said.of(Code.ERROR_SEAT_CONNECTED, number=seat))
    if table.status == "finished":
        raise Refusal.conflict(Said.of(Code.ERROR_MATCH_OVER))
    await revoke()

    def free(config: TableConfig) -> None:
        config.seats[seat].taken = config.seats[seat].left = False
        config.seats[seat].name = None

    await table.change_config(free)


async def replace_with_bot(table: ConfigPort, seat: int, level: str, revoke: Callable[[], Awaitable[None]]) -> None:
    """Hand an absent player's seat to a bot for the rest of the match, after ``revoke`` of its credential.

    Refuses (a conflict) the creator's seat, a bot's, or a connected player's.
    """
    entry = table.config.seats[seat]
    if entry.kind != "human" or seat == table.config.creator:
        raise Refusal.conflict(Said.of(Code.ERROR_NOT_FRIENDS_SEAT, number=seat))
    if table.counts.connections[seat]:
        raise Refusal.conflict(Said.of(Code.ERROR_SEAT_CONNECTED, number=seat))
    await _to_bot(table, seat, level, revoke)


async def cover_unclaimed(table: ConfigPort, seat: int, level: str, revoke: Callable[[], Awaitable[None]]) -> None:
    """A bot takes a human seat nobody ever took (quick play's player left first); any seat, the creator's too."""
    if table.config.seats[seat].kind == "human" and not table.config.seats[seat].taken:
        await _to_bot(table, seat, level, revoke)


async def _to_bot(
    table: ConfigPort, seat: int, level: str, revoke: Callable[[], Awaitable[None]], said: Said | None = None
) -> None:
    await revoke()

    def to_bot(config: TableConfig) -> None:
        config.seats[seat] = Seat("bot", bot=level, taken=True)

    events = None if said is None else [{"kind": "resigned", "seat": seat, "move": None} | said.wire()]
    await table.change_config(to_bot, events)


async def seat_bot_account(table: ConfigPort, seat: int) -> None:
    """A bot account sat at ``seat``: marked so (its name shows the BOT tag), and ready if the match
    has not begun (it has no ready button to press)."""

    def marked(config: TableConfig) -> None:
        config.seats[seat].bot_account = True

    await table.change_config(marked)
    if table.status == "waiting":
        await ready(table, seat)


async def list_publicly(table: ConfigPort, public: bool) -> None:
    """List the table in the lobby (a public table is open), or take it off."""

    def listed(config: TableConfig) -> None:
        config.public = config.open = public  # unlisted, the table is invite-only again

    await table.change_config(listed)

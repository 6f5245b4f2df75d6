"""Rematch: once a match is over, the same seats play a new match at a new table.

Every seated player who is present accepts (a vote stored per seat); the last acceptance makes
the new table: the same rules, seats, names, bots and turn timer, a new deal. Its code is stored
with the old table (the first process to store it wins; a table made by a losing process is never
played and is swept like any unplayed table) and announced on the old table's channel. No secret
travels with the announcement: each player's page then asks for its seat at the new table with
its old credential (:func:`claim_seat`), and gets a fresh one, once. A player who was away claims
theirs the same way when they come back; a player who left the match, or a seat reopened and never
taken again, has a bot in the new one.

The rematches of a table form a series: each new table stores the series so far (the previous
table's code, the matches played and won per seat) in its configuration, so a table tells its
series without walking the chain; the chat's kept lines are copied to the new table, so the talk
goes on there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import sqlalchemy as sa

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.messages import Code, Said
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.storage import Storage, StorageUnavailable, game_tables, rematch_votes
from chickenfoot.server.table import chat
from chickenfoot.server.table.commands import TableHandle, Take
from chickenfoot.server.table.config import Seat, Series, TableConfig
from chickenfoot.server.table.ports import ConfigPort, TableMaker, TableView


class Tables(Protocol):
    """Where a rematch's table is found by its code."""

    async def get(self, code: str) -> TableHandle | None: ...


def voters(table: TableView) -> list[int]:
    """The seats whose acceptance a rematch needs: seated players who are present."""
    presence = table.presence()
    return [
        s
        for s, seat in enumerate(table.config.seats)
        if seat.kind == "human" and seat.taken and not seat.left and presence.connected[s]
    ]


def new_config(config: TableConfig, seed: int, code: str, winners: list[int]) -> TableConfig:
    """The next match's table after table ``code`` (its match won by ``winners``): the same seats,
    free for their players to claim; a bot for whoever left, and for a seat nobody holds (reopened
    and never taken again: no credential could claim it, and the table would wait for it forever).

    It is invite-only and unlisted (nobody else may take a seat its player has not claimed yet);
    its creator may list it again. It carries the series on, and is rated when the match was: the
    same accounts sit in the same seats (a seat given to a bot gets a rated level).
    """
    seats = []
    for seat in config.seats:
        if seat.kind == "bot":
            seats.append(Seat("bot", seat.name, bot=seat.bot))
        elif seat.left or not seat.taken:
            seats.append(Seat("bot", bot=DEFAULT_LEVEL))
        else:
            seats.append(Seat("human", seat.name))
    humans = [s for s, seat in enumerate(seats) if seat.kind == "human"]
    creator = config.creator if config.creator in humans else humans[0]
    series = config.series or Series(code, 0, (0,) * len(seats))
    return TableConfig(
        config.rules,
        seats,
        seed,
        creator=creator,
        turn_timer=config.turn_timer,
        series=series.after(code, winners),
        rated=config.rated,
    )


def series(table: TableView) -> dict[str, Any] | None:
    """The ``series`` message: the matches before this table's, won per seat, and the previous table
    (``None`` for a table that is no rematch)."""
    done = table.config.series
    if done is None:
        return None
    return {"type": "series", "previous": done.previous, "played": done.played, "wins": list(done.wins)}


async def _stored(storage: Storage, table: TableView) -> tuple[list[int], str | None]:
    """The seats that accepted, and the new table's code once made."""
    async with storage.reading() as conn:
        mine = rematch_votes.c.table_code == table.code
        votes = await conn.execute(sa.select(rematch_votes.c.seat).where(mine).order_by(rematch_votes.c.seat))
        made = await conn.execute(sa.select(game_tables.c.rematch).where(game_tables.c.code == table.code))
        return [int(seat) for seat in votes.scalars()], made.scalar()


async def status(storage: Storage, table: TableView) -> dict[str, Any] | None:
    """The ``rematch`` message: who accepted, whose acceptance is still needed, the new table once made
    (``None`` while nobody has asked for one)."""
    accepted, code = await _stored(storage, table)
    if not accepted and code is None:
        return None
    waiting = [s for s in voters(table) if s not in accepted]
    return {"type": "rematch", "accepted": accepted, "waiting": waiting, "code": code}


async def accept(table: ConfigPort, seat: int, tables: TableMaker) -> dict[str, Any]:
    """``seat`` accepts a rematch; the last acceptance needed makes the new table (with ``tables``).
    Announces and returns the status.

    Refuses (a conflict) before the match is over, a seat that is not a seated player's, and once the
    rematch is made.
    """
    entry = table.config.seats[seat]
    if table.status != "finished":  # played out, or lost on time
        raise Refusal.conflict(Said.of(Code.ERROR_REMATCH_NOT_YET))
    if entry.kind != "human" or not entry.taken:
        raise Refusal.conflict(Said.of(Code.ERROR_NOT_PLAYERS_SEAT, number=seat))
    storage = table.storage
    accepted, code = await _stored(storage, table)
    if code is not None:
        raise Refusal.conflict(Said.of(Code.ERROR_REMATCH_MADE, table=code))
    if seat not in accepted:
        async with storage.transaction() as conn:
            await conn.execute(rematch_votes.insert().values(table_code=table.code, seat=seat))
        accepted.append(seat)
    if all(s in accepted for s in voters(table)):
        await _make(table, tables)
    message = await status(storage, table)
    assert message is not None
    await table.notify(message)
    return message


async def _make(table: ConfigPort, tables: TableMaker) -> None:
    config = new_config(table.config, tables.seeds(), table.code, table.winners())
    new = await tables.create(config)
    await chat.carry(table.storage, table.code, new.code)
    # The accounts that sat at the old table sit in the same seats of the new one (a bot's seat follows nobody).
    people = [seat for seat, entry in enumerate(config.seats) if entry.kind == "human"]
    await table.storage.link_rematch(table.code, new.code, people)


async def claim_seat(
    tables: Tables, storage: Storage, credentials: Credentials, table: TableView, seat: int
) -> dict[str, Any]:
    """A fresh credential for ``seat`` at the rematch's table, for the holder of the seat's old one (once).

    Refuses (a conflict) when there is no rematch yet or the seat there is not free for them.
    """
    _accepted, code = await _stored(storage, table)
    if code is None:
        raise Refusal.conflict(Said.of(Code.ERROR_NO_REMATCH_YET))
    new = await tables.get(code)
    if new is None or new.config.seats[seat].kind != "human" or new.config.seats[seat].taken:
        raise Refusal.conflict(Said.of(Code.ERROR_SEAT_TAKEN))
    token = await credentials.issue_seat(new.code, seat)
    if token is None:
        raise Refusal.conflict(Said.of(Code.ERROR_SEAT_TAKEN))
    await new.submit(Take(seat, ""))
    return {"code": new.code, "seat": seat, "token": token}


async def greetings(
    table: TableView, storage: Storage, chat_history: Callable[[], Awaitable[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """What a client gets after its first state: the series (at a rematch's table), the chat's kept lines
    (if any), and the rematch if one is asked for."""
    told = series(table)
    try:
        lines = await chat_history()
        messages = ([told] if told else []) + ([lines] if lines["lines"] else [])
        if table.status == "finished" and (offer := await asyncio.shield(status(storage, table))) is not None:
            messages.append(offer)
    except StorageUnavailable:
        return [told] if told else []  # the client is told of the outage; the lines come with its next connection
    return messages

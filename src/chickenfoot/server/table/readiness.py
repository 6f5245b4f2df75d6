"""The ready step: the match's first deal waits until every human seat is taken and its player
has pressed "Ready", or until the creator starts with bots in the seats still empty.

A table with a single person (the rest bots) has nothing to wait for: it starts at once. Who is
ready is stored in the table's configuration (each :class:`~chickenfoot.server.table.config.Seat`'s
``ready``), so a table read back from storage, and every process serving it, sees the same step.
"Ready" holds no rule of the game: it only decides when the table's ``playing_since`` is set,
which starts the first turn's clock and lets the seats move.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.ports import ConfigPort


def may_start(config: TableConfig) -> bool:
    """Every human seat is taken and, when there are several people, each of them is ready (and the
    table was not called off).

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
    if config.aborted:
        return False
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

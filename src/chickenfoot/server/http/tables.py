"""The table a request names: found in the table registry, or refused as not found."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.actor import Table

TableGetter = Callable[[str], Awaitable[Table | None]]
"""The registry's look-up: the table called ``code``, read from storage if need be, or ``None``."""
TableLookup = Callable[[str], Awaitable[Table]]
"""The table called ``code``; raises :class:`Refusal` (not found) when there is none."""


def no_table(code: str) -> Refusal:
    """The refusal of a request naming a table that does not exist."""
    return Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))


def table_lookup(get: TableGetter) -> TableLookup:
    """The look-up that refuses a table nobody has."""

    async def existing(code: str) -> Table:
        table = await get(code)
        if table is None:
            raise no_table(code)
        return table

    return existing

"""What the tournaments ask of the rest of the server, each through one narrow port the composition root
(``server/app.py``) fills in: tables made by the seating, a table's outcome read from the tables this
process holds, a bot account told of its new table, an account's rating, the entrants kept apart (a
block between them, from the friends and blocks), a job run off the event loop.
The tournaments never take a table's lock nor call its methods; they learn that a match ended from the
match-finished hook (``TableRegistry.on_match_finished``), and read a finished match as data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.match import Match
from chickenfoot.server.table.config import TableConfig

T = TypeVar("T")


class MakeTable(Protocol):
    async def __call__(self, conn: AsyncConnection, config: TableConfig, accounts: Mapping[int, int]) -> str:
        """Store a new table of ``config`` in the transaction ``conn`` (it exists when that commits), each
        seat of ``accounts`` (seat → account id) opened by that account's sessions or Bot API token; its code."""


@dataclass(frozen=True, slots=True)
class Played:
    """A table's match as the tournaments read it: over or not."""

    match: Match
    left: tuple[int, ...]
    """The seats whose player left the match (a bot played on for them)."""
    finished_at: datetime | None
    """When its last move was made (``None`` while the match goes on)."""


Outcome = Callable[[str], Awaitable[Played | None]]
"""Table ``code``'s match (``None``: no such table). Asking keeps the table in this process's memory, so its
automatic play (bots, a covered seat, the turn timer) goes on while its people are away."""

TellBot = Callable[[int, dict[str, Any]], Awaitable[None]]
"""Tell a bot account an event of its stream (``table_started``: the Bot API's usual news of a new table)."""

Apart = Callable[[AsyncConnection, Collection[int]], Awaitable[set[frozenset[int]]]]
"""The pairs of these accounts with a block between them, either way, read in the organiser's transaction:
they share a table only when no other seating exists."""


async def nobody_apart(_conn: AsyncConnection, _accounts: Collection[int]) -> set[frozenset[int]]:
    return set()


RatingOf = Callable[[int, int], Awaitable[float]]
"""An account's rating, as shown, for tables of that many players (the seeding)."""


class Runner(Protocol):
    async def __call__(self, job: Callable[..., T], /, *args: Any) -> T:
        """``job(*args)`` off the event loop (a worker process), plain data in and out."""

"""Retention of finished matches: their actions kept as one row each (``chickenfoot storage prune``).

A finished match never changes. Its thousands of ``actions`` rows (and their index entries) are the
part of the database that grows with play; once the match has been over for a while they move into
one archive row, from which its replays, record and review are read as before (:meth:`Storage.archive_finished`).
"""

from __future__ import annotations

from datetime import timedelta

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.storage import Storage, default_database_url

BATCH = 100
"""Tables archived per query: each is its own transaction, so a long run holds no long lock."""


async def prune(database_url: str | None, finished_days: float, clock: Clock) -> list[str]:
    """Archive the actions of every match that ended over ``finished_days`` days ago; their codes."""
    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        before = utc(clock) - timedelta(days=finished_days)
        archived: list[str] = []
        while batch := await storage.archive_finished(before, BATCH):
            archived += batch
        return archived
    finally:
        await storage.close()

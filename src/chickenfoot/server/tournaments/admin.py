"""The operator's ``chickenfoot tournament create`` and ``cancel``: a public event, listed for everyone and
started by the organiser at its time (perhaps again every day or week), made or called off on the command
line, with the same checks as the API's."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage, default_database_url
from chickenfoot.server.tournaments.settings import EventSettings, check_schedule, event_name
from chickenfoot.server.tournaments.store import Event, TournamentStore


async def create_public(
    database_url: str | None,
    name: str,
    wanted: dict[str, Any],
    starts_at: datetime | None,
    repeat: str | None,
    *,
    clock: Clock,
) -> Event:
    """A new public event of the settings ``wanted``, starting at ``starts_at`` and repeating ``repeat``;
    raises :class:`Refusal` (nothing made) naming what cannot be."""
    settings = EventSettings.checked(**wanted)
    check_schedule(starts_at, repeat, utc(clock), public=True)
    named = event_name(name)
    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        return await TournamentStore(storage).create(
            named,
            settings,
            public=True,
            creator_id=None,
            starts_at=starts_at,
            repeat=repeat,
            seed=secrets.randbits(62),
            at=utc(clock),
        )
    finally:
        await storage.close()


async def cancel_event(database_url: str | None, code: str, *, clock: Clock) -> Event:
    """Call off an event not over (a repeating one's series ends with it, when it has not started yet);
    raises :class:`Refusal` when there is no such event or it is over already."""
    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        store = TournamentStore(storage)
        event = await store.by_code(code)
        if event is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.TOURNAMENT_NOT_FOUND))
        if await store.cancel(event.id) is None:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        return event
    finally:
        await storage.close()

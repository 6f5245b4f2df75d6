"""What the tournaments do for the routes and the rest of the server: events made, listed and shown (their
standings served from a cache every process keeps per version), entrants joining, leaving and pausing,
the creator starting or cancelling a private event, and the match-finished hook. Every refusal is a
:class:`~chickenfoot.server.refusals.Refusal`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import SignedIn
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus, Unsubscribe
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.tournaments.organiser import Organiser, event_channel
from chickenfoot.server.tournaments.ports import RatingOf
from chickenfoot.server.tournaments.settings import EventSettings, Format, event_name
from chickenfoot.server.tournaments.store import Event, TournamentStore

log = logging.getLogger(__name__)

CACHE_SECONDS = 2.0
"""An event's page is built at most once per version and per this many seconds in each process, however
many watch it."""
CACHED_EVENTS = 256
MAX_MADE = 5
"""Private events one account may have scheduled or running at once."""
SHOWN_FINISHED = 60
"""An arena's finished tables listed on its page (the latest results; every result is in the standings),
read from the store without the others: an arena of 500 players may have thousands."""


@dataclass(frozen=True, slots=True)
class Page:
    """An event as its page shows it: the JSON body and its entity tag, for the version it was built at."""

    version: int
    body: bytes
    tag: str
    built: float


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def facts(event: Event) -> dict[str, Any]:
    """What a list of events shows of one."""
    settings = event.settings
    return {
        "code": event.code,
        "name": event.name,
        "format": settings.format.value,
        "duplicate": None if settings.duplicate is None else settings.duplicate.value,
        "table_size": settings.table_size,
        "rounds": settings.rounds,
        "minutes": settings.minutes,
        "rated": settings.rated,
        "public": event.public,
        "status": event.status,
        "starts_at": iso(event.starts_at),
        "started_at": iso(event.started_at),
        "ends_at": iso(event.ends_at),
        "repeat": event.repeat,
    }


class Tournaments:
    def __init__(
        self,
        store: TournamentStore,
        organiser: Organiser,
        bus: Bus,
        clock: Clock,
        rating_of: RatingOf,
    ) -> None:
        self.store, self.organiser, self.bus, self.clock = store, organiser, bus, clock
        self.rating_of = rating_of
        self._pages: OrderedDict[int, Page] = OrderedDict()
        self._ids: dict[str, int] = {}
        """Each event's id by its code (an event's code never changes)."""
        self._heard: dict[int, int] = {}
        """The latest version each event's watchers in this process heard of (a page older is built again)."""
        self._building: dict[int, asyncio.Lock] = {}
        self._listening: dict[int, Unsubscribe] = {}
        """The news of each event whose page is cached here: a change anywhere makes it stale."""
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self.organiser.start()

    async def stop(self) -> None:
        await self.organiser.stop()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for unsubscribe in self._listening.values():
            unsubscribe()
        self._listening.clear()

    # --- the match-finished hook ---------------------------------------------------------------------

    def match_finished(self, code: str) -> None:
        """A match ended in this process (a hook of ``TableRegistry.on_match_finished``): if it was an event's, its
        result is written (once, whichever process comes first) and the organiser looks at once."""

        async def record() -> None:
            try:
                if await self.store.table(code) is None:
                    return
                await self.organiser.settle(code)
            except Exception:  # the organiser writes it at the look woken below
                log.exception("tournaments: the result of table %s was not written now", code)
            await self.organiser.wake()  # whoever wrote it, the round may be complete now

        task = asyncio.ensure_future(record())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- events -------------------------------------------------------------------------------------

    async def create(
        self,
        name: str,
        settings: EventSettings,
        *,
        creator: int | None,
        public: bool,
        starts_at: datetime | None,
        repeat: str | None = None,
    ) -> Event:
        """A new event (the settings and schedule checked already). A player's is private: at most
        :data:`MAX_MADE` of theirs scheduled or running at once; an operator's public one has no creator."""
        if creator is not None and await self.store.unfinished_made_by(creator) >= MAX_MADE:
            raise Refusal(Why.TOO_MANY, Said.of(Code.TOURNAMENT_TOO_MANY_OPEN, limit=MAX_MADE))
        return await self.store.create(
            event_name(name),
            settings,
            public=public,
            creator_id=creator,
            starts_at=starts_at,
            repeat=repeat,
            seed=secrets.randbits(62),
            at=utc(self.clock),
        )

    async def event(self, code: str) -> Event:
        event = await self.store.by_code(code[:16])
        if event is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.TOURNAMENT_NOT_FOUND))
        return event

    async def listing(self, me: SignedIn | None) -> dict[str, Any]:
        """The public events (to come, running, lately finished) and the signed-in player's own."""
        public = [facts(event) for event in await self.store.listed()]
        mine = [] if me is None else [facts(event) for event in await self.store.of_account(me.account.id)]
        return {"public": public, "mine": mine}

    async def page(self, code: str) -> Page:
        """The event's page as JSON: built at most once per version (and per :data:`CACHE_SECONDS`) in this
        process, whoever asks."""
        event_id = self._ids.get(code)
        if event_id is not None and (known := self._pages.get(event_id)) is not None and self._fresh(event_id, known):
            return known
        event = await self.event(code)
        async with self._building.setdefault(event.id, asyncio.Lock()):
            known = self._pages.get(event.id)
            if known is not None and self._fresh(event.id, known):
                return known
            page = await self._build(await self.event(code))
            self._pages[event.id] = page
            self._ids[event.code] = event.id
            self._pages.move_to_end(event.id)
            self._listen(event.id)
            while len(self._pages) > CACHED_EVENTS:
                gone, _ = self._pages.popitem(last=False)
                self._building.pop(gone, None)
                self._listening.pop(gone)()
            return page

    def _fresh(self, event_id: int, page: Page) -> bool:
        young = self.clock.monotonic() - page.built < CACHE_SECONDS
        return young and self._heard.get(event_id, 0) <= page.version

    def _listen(self, event_id: int) -> None:
        """Hear every change of a cached event, in any process (its page is built again when next asked);
        news possibly missed drops the page."""
        if event_id in self._listening:
            return

        def hear(message: dict[str, Any]) -> None:
            if isinstance(version := message.get("version"), int):
                self.heard(event_id, version)

        def catch_up() -> None:
            self._pages.pop(event_id, None)

        self._listening[event_id] = self.bus.subscribe(event_channel(event_id), hear, catch_up)

    def heard(self, event_id: int, version: int) -> None:
        """A watcher in this process heard that the event changed: its page is built again when next asked."""
        self._heard[event_id] = max(version, self._heard.get(event_id, 0))

    async def _build(self, event: Event) -> Page:
        entrants = await self.store.entrants(event.id)
        if event.settings.format is Format.ARENA:
            tables = await self.store.shown(event.id, SHOWN_FINISHED)
        else:
            tables = await self.store.tables(event.id)
        shown = facts(event) | {
            "version": event.version,
            "settings": event.settings.to_json(),
            "round": event.round,
            "tiebreaks": [t.value for t in event.settings.tiebreaks],
            "entrants": [
                {"id": e.account_id, "name": e.name, "bot": e.bot, "state": e.state, "rating": round(e.rating)}
                for e in entrants
            ],
            "tables": [
                {
                    "code": t.code,
                    "round": t.round,
                    "deal": t.deal,
                    "seats": list(t.seats),
                    "points": None if t.points is None else list(t.points),
                    "places": None if t.places is None else list(t.places),
                    "started_at": iso(t.started_at),
                    "finished_at": iso(t.finished_at),
                }
                for t in tables
            ],
        }
        # The standings are the organiser's JSON, kept as text: set in as they are, not parsed and written again.
        body = orjson.dumps(shown)
        standings = (event.standings or "null").encode()
        body = b'{"standings":' + standings + b"," + body[1:]
        tag = f'"{event.id}-{event.version}"'
        return Page(event.version, body, tag, self.clock.monotonic())

    # --- entrants -----------------------------------------------------------------------------------

    async def join(self, code: str, account_id: int, *, bot: bool) -> int:
        """Enter an event (a bot account through the Bot API, only where the event allows bots)."""
        event = await self.event(code)
        settings = event.settings
        if bot and not settings.bot_accounts:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.TOURNAMENT_NO_BOT_ACCOUNTS))
        if event.status in ("finished", "cancelled"):
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        if event.status == "running" and settings.format is not Format.ARENA:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_STARTED))
        if event.status == "running" and event.ends_at is not None and utc(self.clock) >= event.ends_at:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        rating = await self.rating_of(account_id, settings.table_size)
        try:
            version = await self.store.join(event, account_id, rating, utc(self.clock))
        except LookupError:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_FULL, limit=settings.max_entrants)) from None
        await self._changed(event, version)
        return version

    async def leave(self, code: str, account_id: int) -> int:
        event = await self.event(code)
        if event.status in ("finished", "cancelled"):
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        version = await self.store.withdraw(event.id, account_id, started=event.status == "running")
        if version is None:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_NOT_ENTERED))
        await self._changed(event, version)
        return version

    async def pause(self, code: str, account_id: int, paused: bool) -> int:
        """An arena's entrant stops being seated (their points stay) or comes back."""
        event = await self.event(code)
        if event.settings.format is not Format.ARENA:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_PAUSE_ARENA))
        if event.status in ("finished", "cancelled"):
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        version = await self.store.pause(event.id, account_id, paused, utc(self.clock))
        if version is None:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_NOT_ENTERED))
        await self._changed(event, version)
        return version

    async def mine(self, code: str, account_id: int) -> dict[str, Any]:
        """The player's own part of the page: entered or not, paused, and the table they are seated at."""
        event = await self.event(code)
        entrant = await self.store.entrant(event.id, account_id)
        seated = None if entrant is None else await self.store.table_of(event.id, account_id)
        return {
            "entered": entrant is not None,
            "state": None if entrant is None else entrant.state,
            "table": None if seated is None else seated[0],
            "seat": None if seated is None else seated[1],
            "creator": event.creator_id == account_id,
            "version": event.version,
        }

    # --- the creator --------------------------------------------------------------------------------

    async def start_now(self, code: str, me: SignedIn) -> int:
        """The creator starts their event now (at the organiser's next look, in a second)."""
        event = await self.event(code)
        self._creator_only(event, me)
        version = await self.store.start_now(event.id, utc(self.clock))
        if version is None:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_STARTED))
        await self._changed(event, version)
        await self.organiser.wake()
        return version

    async def cancel(self, code: str, me: SignedIn) -> int:
        """Cancel an event not over: by its creator, or by an operator (a public event)."""
        event = await self.event(code)
        if not (event.public and me.account.operator):
            self._creator_only(event, me)
        version = await self.store.cancel(event.id)
        if version is None:
            raise Refusal.conflict(Said.of(Code.TOURNAMENT_OVER))
        await self._changed(event, version)
        return version

    @staticmethod
    def _creator_only(event: Event, me: SignedIn) -> None:
        if event.creator_id != me.account.id:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.TOURNAMENT_CREATOR_ONLY))

    async def _changed(self, event: Event, version: int) -> None:
        self.heard(event.id, version)
        await self.bus.publish(event_channel(event.id), {"version": version})

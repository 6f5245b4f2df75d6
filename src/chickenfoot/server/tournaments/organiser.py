"""The organiser: starts the events that are due, seats their tables, writes each finished table's result
and keeps the standings, in one process at a time.

The process that holds the lease ``tournaments:organiser`` (the cluster's lease port: Redis among
several processes, always held by a process alone) looks at every running event each second and as
soon as a match of an event ends (the match-finished hook wakes it, in any process, over the bus). Its
state is rows: a process that takes the lease over, after the holder was killed, rebuilds from them
at its first look. What it decides, the library decides (:mod:`chickenfoot.tournament`), in a worker
process: an arena pairs its free players, a Swiss pairs the next round from the standings once every
table of a round is over, a round-robin plays the schedule it made once at the start.

Nobody is seated twice: reading who is at a table in play and storing the new tables is one
transaction holding the event's row, marked with the lease's fencing token, so even a holder that lost
the lease without knowing it (paused past its expiry) changes nothing once a newer holder has acted.
No result is lost: it is written by whichever process saw the match end (the hook), once, by table code;
and the organiser keeps every table in play of its events open in its own process and writes the
result of any it finds over without one (a process killed between the last move and the hook).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from chickenfoot.server.clock import Clock, Timer, utc, woken
from chickenfoot.server.cluster.fanout import Bus
from chickenfoot.server.cluster.leases import LeaseKeeper, Leases
from chickenfoot.server.ratings.rated import why_not_rated
from chickenfoot.server.storage import StorageUnavailable
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.tournaments.compute import (
    Ranking,
    ResultData,
    arena_job,
    schedule_job,
    standings_job,
    swiss_job,
)
from chickenfoot.server.tournaments.ports import Apart, MakeTable, Outcome, Runner, TellBot, nobody_apart
from chickenfoot.server.tournaments.settings import REPEATS, EventSettings, Format, next_start
from chickenfoot.server.tournaments.store import Entrant, Event, Fenced, Organising, TableRow, TournamentStore
from chickenfoot.server.worker_process import Worker
from chickenfoot.tournament import ArenaSettings, Result, Seating, deal_seed

log = logging.getLogger(__name__)

LEASE = "tournaments:organiser"
ORGANISER_CHANNEL = "tournaments:organiser"
"""Where any process wakes the organiser (a match of an event ended, an event was started by hand)."""
LOOK_SECONDS = 1.0
"""How often the organiser looks at its events when nothing wakes it (an arena's waiting players)."""
NO_CREATOR = -1
"""An event's table has no creator: nobody at it may hand a seat to a bot or reopen it."""


def event_channel(event_id: int) -> str:
    """The channel of an event's news (``{"version": n}``: something its watchers see changed)."""
    return f"tournament:{event_id}"


def player(account_id: int | None) -> str | None:
    """An account as the library's player (its id as text); a bot stays ``None``."""
    return None if account_id is None else str(account_id)


def account(player_id: str | None) -> int | None:
    return None if player_id is None else int(player_id)


def result_data(table: TableRow) -> ResultData:
    assert table.finished_at is not None and table.points is not None and table.places is not None
    players = tuple(player(seat) for seat in table.seats)
    return (table.code, players, table.points, table.places, table.deal, table.finished_at.timestamp())


def ranking_of(event: Event) -> Ranking:
    settings = event.settings
    ends = event.ends_at.timestamp() if settings.format is Format.ARENA and event.ends_at is not None else None
    scoring = None if settings.duplicate is None else settings.duplicate.value
    return Ranking(tuple(t.value for t in settings.tiebreaks), scoring, ends)


def seeding(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The seeding: the highest rating first, then the order of entry."""
    return sorted(entrants, key=lambda e: (-e.rating, e.number))


def table_config(
    settings: EventSettings, seats: Seating, entrants: dict[str, Entrant], seed: int, now: float
) -> TableConfig:
    """An event's table: every person seated and ready (named by their account, a bot account marked), a
    bot of the event's level in every other seat, playing from ``now``."""
    chosen: list[Seat] = []
    for seat in seats:
        if seat is None:
            chosen.append(Seat("bot", bot=settings.bot_level))
        else:
            entrant = entrants[seat]
            chosen.append(Seat("human", entrant.name, taken=True, ready=True, bot_account=entrant.bot))
    rules = settings.rules()
    rated = settings.rated and why_not_rated(rules, chosen) is None and any(s.kind == "human" for s in chosen)
    return TableConfig(
        rules,
        chosen,
        seed,
        creator=NO_CREATOR,
        turn_timer=settings.turn_timer,
        playing_since=now,
        rated=rated,
        organised=True,
    )


@dataclass(slots=True)
class Known:
    """An event's results read so far, in the order they were written (the organiser's memory of it)."""

    results: list[ResultData] = field(default_factory=list)


class Organiser:
    def __init__(
        self,
        store: TournamentStore,
        make_table: MakeTable,
        outcome: Outcome,
        leases: Leases,
        bus: Bus,
        clock: Clock,
        seeds: Callable[[], int],
        tell_bot: TellBot,
        *,
        fenced: bool,
        run: Runner | None = None,
        apart: Apart = nobody_apart,
    ) -> None:
        """``fenced``: several processes share the leases (a process alone has nothing to fence); ``run``:
        where the dear jobs run (by default a low-priority worker process of the organiser's own);
        ``apart``: the entrants with a block between them, seated together only when nothing else can be."""
        self.store, self.make_table, self.outcome = store, make_table, outcome
        self.bus, self.clock, self.seeds, self.tell_bot = bus, clock, seeds, tell_bot
        self._worker: Worker | None = None
        if run is None:
            self._worker = Worker()
            run = self._worker.run
        self.run: Runner = run
        self.fenced = fenced
        self.apart = apart
        self.keeper = LeaseKeeper(leases, LEASE, self._lease_changed)
        self.known: dict[int, Known] = {}
        self._ends: dict[int, Timer] = {}
        """A wake at the end of each running arena, whatever the organiser is doing then."""
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: Any = None

    # --- running ------------------------------------------------------------------------------------

    def start(self) -> None:
        self._unsubscribe = self.bus.subscribe(ORGANISER_CHANNEL, lambda _message: self._wake.set())
        self._tasks = [asyncio.create_task(self.keeper.run()), asyncio.create_task(self._look_forever())]

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in self._tasks:
            task.cancel()
        for timer in self._ends.values():
            timer.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._worker is not None:
            self._worker.close()

    async def wake(self) -> None:
        """Have the organiser look now, wherever it runs."""
        self._wake.set()
        await self.bus.publish(ORGANISER_CHANNEL, {"wake": True})

    def _lease_changed(self, hold: object) -> None:
        # Won or lost: what was known came from another holder's time; it is read again from the rows.
        self.known.clear()
        if hold is not None:
            log.info("tournaments: this process organises the events")
            self._wake.set()

    async def _look_forever(self) -> None:
        while True:
            await woken(self._wake, self.clock, LOOK_SECONDS)
            self._wake.clear()
            hold = self.keeper.hold
            if hold is None:
                continue
            try:
                await self.look(hold.token if self.fenced else None)
            except StorageUnavailable:
                pass  # reported already; the next look tries again
            except Exception:
                log.exception("tournaments: the organiser's look failed")

    async def look(self, token: int | None) -> None:
        """Move every due event on, as far as it can go now."""
        for event in await self.store.due(utc(self.clock)):
            try:
                await self.advance(event, token)
            except Fenced as exc:
                log.warning("tournaments: %s", exc)
            except StorageUnavailable:
                raise
            except Exception:
                log.exception("tournaments: event %s could not move on", event.code)

    async def advance(self, event: Event, token: int | None) -> None:
        if event.status == "scheduled":
            await self.begin(event, token)
            started = await self.store.by_id(event.id)
            if started is None or started.status != "running":
                return
            event = started  # its first tables are seated at once
        await self.settle_playing(event.id)
        if event.settings.format is Format.ARENA:
            await self.arena(event, token)
        else:
            await self.next_round(event, token)
        await self.settle_playing(event.id)  # the tables just seated are opened here, and play
        await self.standings(event.id)

    async def settle_playing(self, event_id: int) -> None:
        """Keep every table in play of the event open in this process, and write the result of any found
        over without one."""
        for table in await self.store.playing(event_id):
            await self.settle(table.code)

    # --- results ------------------------------------------------------------------------------------

    async def settle(self, code: str) -> bool:
        """Keep table ``code`` open here, and write its result if its match is over and it has none yet
        (whichever process does: once). Whether a result was written now."""
        played = await self.outcome(code)
        if played is None or not played.match.is_over() or played.finished_at is None:
            return False
        found = await self.store.table(code)
        if found is None or found[1].finished_at is not None:
            return False
        seats = found[1].seats
        result = Result.from_match(code, tuple(player(s) for s in seats), played.match)
        left = [account_id for s in played.left if (account_id := seats[s]) is not None]
        written = await self.store.write_result(code, result.points, result.places, played.finished_at, left)
        if written is None:
            return False
        log.info("tournaments: table %s's result written", code)
        await self.bus.publish(event_channel(written.event_id), {"version": written.version})
        return True

    async def results(self, event_id: int) -> list[ResultData]:
        """Every result of the event, read once and then only the new ones."""
        known = self.known.setdefault(event_id, Known())
        known.results += [result_data(t) for t in await self.store.results_after(event_id, len(known.results))]
        return known.results

    async def standings(self, event_id: int) -> None:
        """Compute the standings again (in the worker) when results came since they were last kept."""
        event = await self.store.by_id(event_id)
        if event is None:
            return
        results = await self.results(event_id)
        if event.standings is not None and len(results) <= event.standings_of:
            return
        players = [str(e.account_id) for e in seeding(await self.store.entrants(event_id))]
        made = await self.run(standings_job, ranking_of(event), results, players)
        version = await self.store.save_standings(event_id, made, len(results))
        if version is not None:
            await self.bus.publish(event_channel(event_id), {"version": version})

    # --- starting -----------------------------------------------------------------------------------

    async def begin(self, event: Event, token: int | None) -> None:
        """Start an event that is due: an arena's clock runs, a round-robin makes its schedule; an event of
        rounds with fewer than two entrants is cancelled. A repeating event schedules its next one."""
        now = utc(self.clock)
        async with self.store.organising(event.id, token) as step:
            if step.event.status != "scheduled":
                return
            settings = step.event.settings
            entrants = [e for e in seeding(await step.entrants()) if e.state != "left"]
            if settings.format is not Format.ARENA and len(entrants) < 2:
                await step.update(status="cancelled")
            else:
                values: dict[str, Any] = {"status": "running", "started_at": now}
                if settings.format is Format.ARENA:
                    assert settings.minutes is not None
                    values["ends_at"] = now + timedelta(minutes=settings.minutes)
                if settings.format is Format.ROUND_ROBIN:
                    assert settings.rounds is not None
                    players = [str(e.account_id) for e in entrants]
                    made = await self.run(schedule_job, players, settings.table_size, settings.rounds, event.seed)
                    values["schedule"] = json.dumps([[[account(p) for p in t] for t in tables] for tables in made])
                await step.update(**values)
            first, repeat = step.event.starts_at, step.event.repeat
            if repeat in REPEATS and not step.event.next_made and first is not None:
                await self.store.insert_next(step.conn, step.event, next_start(first, repeat, now), now)
                await step.update(next_made=True)
        await self._told(event.id, step)

    async def _told(self, event_id: int, step: Organising) -> None:
        if step.version is not None:
            await self.bus.publish(event_channel(event_id), {"version": step.version})

    # --- seating ------------------------------------------------------------------------------------

    async def arena(self, event: Event, token: int | None) -> None:
        """Seat the arena's free players (or finish it, once its time is up and no table is in play)."""
        now = utc(self.clock)
        assert event.started_at is not None and event.ends_at is not None and event.settings.minutes is not None
        settings = event.settings
        arena = ArenaSettings(
            settings.table_size,
            event.started_at.timestamp(),
            event.ends_at.timestamp(),
            closing=settings.closing_minutes * 60,
            max_wait=settings.max_wait,
            bots=settings.bots,
        )
        if event.id not in self._ends:
            wait = (event.ends_at - now).total_seconds()
            self._ends[event.id] = self.clock.call_later(max(0.0, wait), self._wake.set)
        results = await self.results(event.id)
        async with self.store.organising(event.id, token) as step:
            if step.event.status != "running":
                return
            playing = await step.playing()
            if now >= event.ends_at:
                if not playing:
                    await step.update(status="finished")
                    self._ends.pop(event.id).cancel()  # set above, in this look
                made = []
            else:
                entrants = await step.entrants()
                waiting = [(str(e.account_id), e.since.timestamp(), e.state != "in") for e in entrants]
                seated = [tuple(player(s) for s in t.seats) for t in playing]
                apart = await self._apart(step, [e.account_id for e in entrants if e.state == "in"])
                pairs = await self.run(arena_job, arena, waiting, seated, results, now.timestamp(), apart)
                made = await self._seat(step, pairs, entrants, None, None, self.seeds)
        await self._told(event.id, step)
        await self._tell_bots(made)

    async def next_round(self, event: Event, token: int | None) -> None:
        """Once every table of the round in play is over, pair the next round (or finish the event)."""
        settings = event.settings
        assert settings.rounds is not None
        results = await self.results(event.id)
        async with self.store.organising(event.id, token) as step:
            current = step.event.round
            if step.event.status != "running" or any(
                t.finished_at is None for t in await step.tables_of_round(current)
            ):
                return
            entrants = await step.entrants()
            present = [e for e in entrants if e.state != "left"]
            if current >= settings.rounds or len(present) < 2:
                await step.update(status="finished", ends_at=utc(self.clock))
                made = []
            else:
                number = current + 1
                if settings.format is Format.SWISS:
                    order = [str(e.account_id) for e in seeding(entrants)]
                    out = [str(e.account_id) for e in entrants if e.state == "left"]
                    ranking = ranking_of(step.event)
                    apart = await self._apart(step, [e.account_id for e in present])
                    pairs = await self.run(swiss_job, ranking, results, order, out, settings.table_size, apart)
                else:
                    pairs = self._scheduled(step.event, number, present)
                deal = number if settings.duplicate is not None else None
                if deal is not None and settings.par:
                    pairs.append((None,) * settings.table_size)
                seed = deal_seed(step.event.seed, number) if deal is not None else None
                made = await self._seat(
                    step, pairs, entrants, number, deal, self.seeds if seed is None else lambda: seed
                )
                await step.update(round=number)
        await self._told(event.id, step)
        await self._tell_bots(made)

    async def _apart(self, step: Organising, account_ids: Sequence[int]) -> list[tuple[str, str]]:
        """The pairs of these entrants with a block between them, as the library's players."""
        pairs = await self.apart(step.conn, account_ids)
        return [(str(a), str(b)) for a, b in (sorted(p) for p in pairs)]

    @staticmethod
    def _scheduled(event: Event, number: int, present: Sequence[Entrant]) -> list[Seating]:
        """Round ``number`` of the round-robin's schedule, a bot in the seat of anyone who has left (a
        table left to bots alone is not played)."""
        assert event.schedule is not None
        still = {e.account_id for e in present}
        tables = [tuple(player(s) if s in still else None for s in t) for t in event.schedule[number - 1]]
        return [t for t in tables if any(s is not None for s in t)]

    async def _seat(
        self,
        step: Organising,
        pairs: Sequence[Seating],
        entrants: Sequence[Entrant],
        round_: int | None,
        deal: int | None,
        seed: Callable[[], int],
    ) -> list[tuple[str, int, int]]:
        """Store a table for each seating, in the organiser's transaction; the bot accounts seated, each as
        (table, seat, account)."""
        now = utc(self.clock)
        by_player = {str(e.account_id): e for e in entrants}
        made = []
        for seats in pairs:
            config = table_config(step.event.settings, seats, by_player, seed(), now.timestamp())
            accounts = {s: int(p) for s, p in enumerate(seats) if p is not None}
            code = await self.make_table(step.conn, config, accounts)
            await step.add_table(code, [account(p) for p in seats], now, round_, deal)
            made += [(code, s, int(p)) for s, p in enumerate(seats) if p is not None and by_player[p].bot]
        if pairs:
            log.info("tournaments: event %s seated %d tables", step.event.code, len(pairs))
        return made

    async def _tell_bots(self, made: Sequence[tuple[str, int, int]]) -> None:
        """Bot accounts hear of their new table on their stream, as of any table they sit at."""
        for code, seat, bot in made:
            try:
                await self.tell_bot(bot, {"type": "table_started", "table": code, "seat": seat})
            except Exception:
                log.exception("tournaments: bot account %d was not told of table %s", bot, code)

"""A table's automatic play: bots' moves, covered seats' moves, forced moves, the next round, a turn
whose timer ran out, and covering a seat whose player has gone.

All of it waits on the table's :class:`~chickenfoot.server.clock.Clock`. Moves are driven by one
pending timer per table: the timer belongs to the table's situation (its version and what is due),
so connections coming and going never postpone it. A seat whose last socket went is covered by a
bot after the grace period (a timer per seat), unless its player comes back first. Only the process
that drives the table (it holds the table's lease, or is alone) does any of it.

Automatic play sees its table through a narrow port (:class:`~.table_ports.AutoplayPort`): it reads
the table and asks it (an action, a seat covered), and the table handles each ask in its turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from chickenfoot.bots import DEFAULT_LEVEL, Bot, Budget, make_bot
from chickenfoot.server.clock import Timer
from chickenfoot.server.ops import events
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.ports import AutoplayPort
from chickenfoot.server.table.protocol import NEXT_ROUND

log = logging.getLogger(__name__)

Action = Callable[[int], Awaitable[None]]


class Autoplay:
    """What a table does by itself, and when."""

    def __init__(self, table: AutoplayPort) -> None:
        self.table = table
        config = table.config
        self.bots = {
            s: make_bot(seat.bot or DEFAULT_LEVEL, config.seed + s)
            for s, seat in enumerate(config.seats)
            if seat.kind == "bot"
        }
        self._cover_bots: dict[int, Bot] = {}
        self._generation = 0
        self._planned: tuple[int, str] | None = None
        self._timer: Timer | None = None
        """Wakes the planned automatic action: one timer per table, stopped when the plan changes."""
        self._grace: dict[int, Timer] = {}
        """Seats whose player has gone, each with the timer that covers it when its grace is over."""
        self.grace_until: dict[int, float] = {}
        """When each of those seats is covered (wall time): the others are shown the countdown."""
        self.deadlines: dict[int, float] = {}
        """When each seat whose player has gone is, or was, covered, until the player is back: kept with
        the table's counts, so that a table read back continues the grace instead of starting it again."""

    def adopt(self, config: TableConfig) -> list[int]:
        """A new configuration: a seat given to a bot gets its bot; returns those seats (no longer
        covered: their own bot plays them)."""
        given = []
        for seat, entry in enumerate(config.seats):
            if entry.kind == "bot" and seat not in self.bots:
                self.bots[seat] = make_bot(entry.bot or DEFAULT_LEVEL, config.seed + seat)
                self.deadlines.pop(seat, None)
                given.append(seat)
        return given

    def graces(self, seats: int) -> list[float | None]:
        """When each of ``seats`` is covered, if its player has gone (the countdown shown)."""
        return [self.grace_until.get(seat) for seat in range(seats)]

    def grace_periods(self) -> list[tuple[int, float]]:
        """The grace periods running: each seat and when it is covered."""
        return sorted(self.grace_until.items())

    def recall(self, deadlines: dict[int, float]) -> None:
        """The grace deadlines kept for the table (it was read back, or this process won its lease): a
        seat still gone is covered when its deadline comes (at once if it is past), not a grace later."""
        for seat, at in deadlines.items():
            self.deadlines.setdefault(seat, at)
            self.grace_until.setdefault(seat, at)

    def heard_graces(self, graces: dict[int, float]) -> None:
        """The lease holder (another process) says when it covers the seats whose player has gone."""
        self.grace_until = graces
        log.debug("table %s: grace periods heard %s", self.table.code, graces)

    # --- covering -----------------------------------------------------------------------------

    def returned(self, seats: list[int]) -> None:
        """Players of ``seats`` are connected: their grace periods stop."""
        for seat in seats:
            if (timer := self._grace.pop(seat, None)) is not None:
                timer.cancel()
                log.info("table %s: seat %d back within its grace", self.table.code, seat)
            self.grace_until.pop(seat, None)
            self.deadlines.pop(seat, None)

    def gone(self, seats: list[int]) -> None:
        """``seats`` lost their last socket: each is covered once its grace period is over."""
        table = self.table
        if table.config.pace is not None:
            return  # leaving the page is normal at a turn-based table: its clock goes on (no grace)
        started = False
        for seat in seats:
            covered = table.covered(seat)  # an unseen seat stays gone while its bot plays
            if table.driving and not table.closed and not covered and seat not in self._grace:
                # A countdown heard from the lease's previous holder, or kept before a read-back, goes on
                # where it was: its deadline stays (one already past covers the seat at once).
                now = table.clock.now()
                until = self.grace_until.get(seat, now + table.timing.grace)
                delay = max(0.0, until - now)
                self._grace[seat] = table.clock.call_later(delay, self._grace_over, seat)
                self.grace_until[seat] = self.deadlines[seat] = until
                started = True
                log.info("table %s: seat %d gone, covered in %.1f s", table.code, seat, delay)
        if started:  # the other processes' clients are shown the countdown too
            table.covering_changed()

    def _grace_over(self, seat: int) -> None:
        # The seat stays among the graces until the table has covered it: a recount meanwhile must
        # not start another grace.
        self.grace_until.pop(seat, None)
        self.table.cover(seat)

    def grace_ended(self, seat: int) -> None:
        """The table has handled the end of ``seat``'s grace (covered it, or its player is back)."""
        self._grace.pop(seat, None)

    def stop(self) -> None:
        """Drop the plan and every grace period (the lease is lost, or the table closes)."""
        self._drop_plan()
        for timer in self._grace.values():
            timer.cancel()
        self._grace.clear()
        self.grace_until.clear()

    # --- the plan -----------------------------------------------------------------------------

    def _due(self) -> tuple[str, float, Action] | None:
        """The automatic action the table waits for now, with its pause; ``None`` when it waits for a person."""
        table, timing = self.table, self.table.timing
        match, paced = table.match, table.config.pace is not None
        # A turn-based table plays on with nobody watching: its players come back when they will.
        if table.closed or not table.driving or (table.counts.idle() and not paced):
            return None
        if table.status != "playing":
            return None
        if match.round.is_over():
            if paced or any(table.automatic(s) for s in range(len(table.config.seats))):
                return "next_round", timing.next_round_delay, self._next_round
            return None
        if table.automatic(match.to_move):
            return "bot", timing.bot_delay, self._bot_move
        if match.round.forced_move() is not None:
            return "forced", timing.forced_delay, self._forced_move
        if (deadline := table.turn_deadline()) is not None:
            wait = max(0.0, deadline - table.clock.now())
            pace = table.config.pace
            if pace is None or pace.on_timeout == "move":
                return "turn_timer", wait, self._bot_move
            return "time_ran_out", wait, self._time_ran_out
        return None

    def schedule(self) -> None:
        """Plan the next automatic action (a bot's or covered seat's move, a forced move, a new round).

        A plan already pending for the same version and the same kind of action stands: arrivals
        and departures do not restart its pause. A newer plan stops the older one's timer; an action
        already under way is never cancelled (it could be mid-write): it gives up when it sees the
        generation moved on.
        """
        due = self._due()
        key = None if due is None else (self.table.version, due[0])
        if key is not None and key == self._planned:
            return
        self._drop_plan()
        self._planned = key
        if due is not None:
            self._timer = self.table.clock.call_later(due[1], self._wake, self._generation, due[2])

    def _drop_plan(self) -> None:
        # A timer rather than a sleeping task per plan: a table with a turn timer plans at every
        # version, and thousands of tasks asleep for a minute each were a large part of the heap.
        self._generation += 1
        self._planned = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self, generation: int, action: Action) -> None:
        self._timer = None
        self.table.spawn(self._perform(generation, action))

    async def _perform(self, generation: int, action: Action) -> None:
        if generation != self._generation or not self.table.driving:
            return
        try:
            await action(generation)
        except Refusal:
            pass  # the table moved on meanwhile, or the action could not be stored
        except Exception:
            log.exception("automatic action failed at table %s", self.table.code)
        finally:
            if generation == self._generation:
                self._planned = None  # nothing is pending any more: the next schedule() plans afresh

    # --- the actions --------------------------------------------------------------------------

    async def _next_round(self, _generation: int) -> None:
        table = self.table
        # A bot's seat deals; at a turn-based table of people, the first seat (dealing is nobody's choice).
        seat = next((s for s in range(len(table.config.seats)) if table.automatic(s)), 0)
        await table.play(seat, NEXT_ROUND, table.version)

    async def _forced_move(self, _generation: int) -> None:
        table = self.table
        forced = table.match.round.forced_move()
        if forced is not None:
            await table.play(table.match.to_move, str(forced), table.version)

    async def _time_ran_out(self, _generation: int) -> None:
        table = self.table
        table.time_ran_out(table.match.to_move, table.version)

    async def _bot_move(self, generation: int) -> None:
        """A bot's move: for a bot seat, a covered seat, or a human whose turn timer ran out."""
        table, timing = self.table, self.table.timing
        seat, version = table.match.to_move, table.version
        entry = table.config.seats[seat]
        bot = self.bots[seat] if entry.kind == "bot" else self._cover_bot(seat)
        view = table.match.view(seat)
        budget = Budget(seconds=timing.bot_seconds) if timing.bot_seconds is not None else None
        started = table.clock.monotonic()
        move = await asyncio.to_thread(bot.choose, view, budget)
        level = (entry.bot or DEFAULT_LEVEL) if entry.kind == "bot" else timing.cover_bot
        events.bot_thought(level, table.clock.monotonic() - started)

        def still_due() -> bool:
            """The seat's owner may have come back, or moved, while the bot thought (asked in the table's turn)."""
            deadline = table.turn_deadline()
            timed_out = deadline is not None and table.clock.now() >= deadline
            current = generation == self._generation and version == table.version and table.driving
            return current and (table.automatic(seat) or timed_out)

        if still_due():
            await table.play(seat, str(move), version, still_due)

    def _cover_bot(self, seat: int) -> Bot:
        if seat not in self._cover_bots:
            self._cover_bots[seat] = make_bot(self.table.timing.cover_bot, self.table.config.seed + seat)
        return self._cover_bots[seat]

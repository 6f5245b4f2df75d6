"""A table: the one object in the process that owns a match, authorises actions and announces them.

Every action is checked against the engine, stored (committed) and only then applied and
published: check → store → apply → publish, under the table's lock. The rest is done by small
collaborators, each with one job: who is at the table (:mod:`.attendance`), the ``state`` texts
sent to its connections (:mod:`.state_texts`), what it does by itself and when (:mod:`.autoplay`),
the chat lines kept for newcomers (:mod:`.chat`) and the rename throttle (:mod:`.renaming`). Time
comes from the table's :class:`~chickenfoot.server.clock.Clock`, never from the system directly.

When several processes serve the same tables, each process's table follows the database: the
insert of an action is refused when another process stored that version first, and the table
then catches up from storage (:meth:`Table.catch_up`, also called when another process says it
moved on). Only the process holding the table's lease (:attr:`Table.keeper`) does its timed work.
When this table applies the action that ends the match, it calls the ``finished`` hook of its
:class:`Services` (the hub's: reviews and the lobby listen there).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from chickenfoot.i18n import english
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.server.attendance import Attendance
from chickenfoot.server.autoplay import Autoplay
from chickenfoot.server.chat import KeptLines
from chickenfoot.server.clock import SYSTEM_CLOCK, Clock, utc
from chickenfoot.server.cluster import Cluster, local
from chickenfoot.server.fanout import Bus, table_channel
from chickenfoot.server.lease import LeaseKeeper
from chickenfoot.server.ops.logs import context_of_table
from chickenfoot.server.protocol import (
    NEXT_ROUND,
    Presence,
    ProtocolError,
    match_over_event,
    parse_move,
    raw_events,
    round_start_events,
    stale_version,
)
from chickenfoot.server.readiness import may_start
from chickenfoot.server.renaming import RenameThrottle
from chickenfoot.server.state_texts import StateTexts
from chickenfoot.server.storage import Storage, StoredAction, VersionTaken
from chickenfoot.server.table_config import TableConfig, Timing
from chickenfoot.view import SeatView

log = logging.getLogger(__name__)

EVENT_LOG = 1000
"""Versions whose events are kept for reconnecting clients (older ones get a full snapshot)."""


def nobody_listens(_code: str) -> None:
    """The default ``finished`` hook: nothing happens when a match ends."""


@dataclass(frozen=True, slots=True)
class Services:
    """What a table works with besides its own state: one set per process, shared by its tables."""

    storage: Storage
    fanout: Bus
    """Carries the table's news to this process's connections."""
    timing: Timing
    cluster: Cluster = field(default_factory=local)
    clock: Clock = SYSTEM_CLOCK
    finished: Callable[[str], None] = nobody_listens
    """Called with the table's code when this process applies the action that ends its match."""
    ended: Callable[[str], None] = nobody_listens
    """Called with the table's code when an operator ended it, here or in another process (the hub lets it go)."""


class Table:
    """One table's match and seats; all changes go through :meth:`act` and :meth:`change_config`."""

    def __init__(self, code: str, config: TableConfig, match: Match, services: Services) -> None:
        self.code = code
        self.config = config
        self.match = match
        self.storage, self.fanout, self.cluster = services.storage, services.fanout, services.cluster
        self.timing, self.clock, self._finished = services.timing, services.clock, services.finished
        self._ended = services.ended
        self.keeper: LeaseKeeper | None = None
        """The table's lease among several processes (``None``: this process drives the table alone)."""
        self.version = 0
        self.events: deque[tuple[int, list[dict[str, Any]]]] = deque(maxlen=EVENT_LOG)
        self.lock = asyncio.Lock()
        self.closed = False
        self.turn_started = config.playing_since or self.clock.now()
        """When the current turn began (seconds since the epoch): the turn timer counts from it,
        moved on by any time its player spent away (:meth:`_clock_follows_presence`)."""
        self.away_since: float | None = None
        """Since when the seat to move has had no socket anywhere (its turn clock stands meanwhile)."""
        self.attendance = Attendance(len(config.seats))
        self.texts = StateTexts(self)
        self.autoplay = Autoplay(self)
        self.chat = KeptLines()
        self.renames = RenameThrottle(self.clock)
        self._tasks: set[asyncio.Task[None]] = set()

    # --- building -----------------------------------------------------------------------------

    @classmethod
    def restore(cls, code: str, config: TableConfig, actions: list[str], services: Services) -> Table:
        """Rebuild a table from its stored actions (replaying them through the engine)."""
        table = cls(code, config, Match(config.rules, len(config.seats), config.seed), services)
        for action in actions:
            table._apply(action)
        return table

    def resume_clock(self, last_action: datetime | None) -> None:
        """Restart the turn clock where storage says the turn began (after a restart, not afresh)."""
        times = [t for t in (self.config.playing_since, last_action.timestamp() if last_action else None) if t]
        if times:
            self.turn_started = max(times)

    def turn_deadline(self) -> float | None:
        """When the seat to move loses its turn to its bot (seconds since the epoch), if it can.

        A clock runs only for a player who has the table open: while the seat to move has no socket
        its clock stands (``None``), and its bot covers it once the grace period is over.
        """
        timer, match = self.config.turn_timer, self.match
        if timer is None or self.status != "playing" or match.round.is_over() or self.automatic(match.to_move):
            return None
        if self.away_since is not None or self.attendance.connections[match.to_move] == 0:
            return None
        return self.turn_started + timer

    def _turn_begins(self, at: float) -> None:
        """A new turn's clock starts at ``at`` (standing at once if its player is away)."""
        self.turn_started = at
        self.away_since = None
        self._clock_follows_presence()

    def _clock_follows_presence(self) -> None:
        """Stop the turn clock while the seat to move has no socket; on its return, move the turn's
        start on by the time away, so the clock goes on from where it stood."""
        now, seat = self.clock.now(), self.match.to_move
        present = self.attendance.connections[seat] > 0
        if not present and self.away_since is None:
            self.away_since = max(now, self.turn_started)
        elif present and self.away_since is not None:
            self.turn_started += max(0.0, now - self.away_since)
            self.away_since = None

    def _apply(self, action: str) -> list[dict[str, Any]]:
        """Apply a checked action to the match; returns its events and records them."""
        match = self.match
        if action == NEXT_ROUND:
            match.next_round()
            events = round_start_events(match)
        else:
            match.push(Move.parse(action))
            events = raw_events(match.round.events_of_last(), match.round_number)
            if match.is_over():
                events.append(match_over_event(match))
        self.version += 1
        self.events.append((self.version, events))
        return events

    # --- who is who ---------------------------------------------------------------------------

    def presence(self) -> Presence:
        return self.attendance.presence(self.config)

    @property
    def status(self) -> str:
        if self.match.is_over():
            return "finished"
        if self.config.playing_since is not None or may_start(self.config):
            return "playing"  # a seat reopened once the match began is played by a bot meanwhile
        return "waiting"

    def automatic(self, seat: int) -> bool:
        entry = self.config.seats[seat]
        return entry.kind == "bot" or seat in self.attendance.covered or entry.left or not entry.taken

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [s for s, seat in enumerate(self.config.seats) if seat.kind == "human" and not seat.taken]

    @property
    def driving(self) -> bool:
        """This process does the table's timed work (it holds the lease, or it is alone)."""
        return self.keeper is None or self.keeper.hold is not None

    # --- messages -----------------------------------------------------------------------------

    def events_since(self, since: int | None) -> list[dict[str, Any]] | None:
        """Events of every version after ``since``, or ``None`` when a full snapshot is needed."""
        if since is None or since > self.version or since < 0:
            return None
        if since == self.version:
            return []
        if not self.events or self.events[0][0] > since + 1:
            return None
        return [event for version, events in self.events if version > since for event in events]

    def channel(self) -> str:
        return table_channel(self.code)

    async def publish(self, events: list[dict[str, Any]], presence: bool = False) -> None:
        """Tell this process's connections."""
        if presence:
            self.attendance.epoch += 1
        await self.fanout.publish(self.channel(), {"version": self.version, "events": events})

    async def tell_others(self, **what: Any) -> None:
        """Tell the other processes: the table's version, and what else changed (see docs/scale-out.md)."""
        if self.driving and what.get("presence"):
            what["covered"] = sorted(self.attendance.covered)  # the lease holder decides who is covered
            what["grace"] = sorted(self.autoplay.grace_until.items())  # and when
        await self.cluster.bus.publish(self.channel(), {"version": self.version, "from": self.cluster.process, **what})

    async def notify(self, notice: dict[str, Any]) -> None:
        """Tell every client, in every process, ``notice`` (a chat line, a rematch): no game action."""
        self.chat.heard(notice)
        await self.fanout.publish(self.channel(), {"notice": notice})
        await self.tell_others(notice=notice)

    def relay(self, notice: dict[str, Any]) -> None:
        """Another process's :meth:`notify`: tell this process's clients."""
        self.chat.heard(notice)
        self.spawn(self.fanout.publish(self.channel(), {"notice": notice}))

    async def seat_moved(self, seat: int, credential_digest: str) -> None:
        """``seat`` moved to the device holding the credential of this digest: its other connections
        (by an older credential or by an account's session), in every process, end and come back
        watching (server/handover/)."""
        moved = {"seat": seat, "to": credential_digest}
        await self.fanout.publish(self.channel(), {"moved": moved})
        await self.tell_others(moved=moved)

    def relay_moved(self, moved: dict[str, Any]) -> None:
        """Another process's :meth:`seat_moved`: tell this process's connections."""
        self.spawn(self.fanout.publish(self.channel(), {"moved": moved}))

    async def end(self) -> bool:
        """An operator ends the table (server/moderation): unless its match is over (``False``: a finished
        match is history), it is deleted from storage with everything of it, the hub lets it go at once
        (nothing more is planned or read back), and its connections, in every process, are told and closed."""
        async with self.lock:
            if self.match.is_over():
                return False
            await self.storage.delete_table(self.code)
            self._ended(self.code)
        await self.fanout.publish(self.channel(), {"ended": True})
        await self.tell_others(ended=True)
        return True

    def relay_ended(self) -> None:
        """Another process's :meth:`end`: this process's connections are told, and the hub lets the table go."""
        self.spawn(self.fanout.publish(self.channel(), {"ended": True}))
        self._ended(self.code)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the caller (cancelled when the table closes)."""
        task = asyncio.create_task(work, context=context_of_table(self.code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- actions ------------------------------------------------------------------------------

    def check(self, seat: int | None, action: str, version: int | None) -> str:
        """The action in canonical form if ``seat`` may do it now; raises :class:`ProtocolError`."""
        match = self.match
        if self.closed:
            raise ProtocolError.of(Said.of(Code.ERROR_SHUTTING_DOWN))
        if seat is None:
            raise ProtocolError.of(Said.of(Code.ERROR_SPECTATOR_MOVE))
        if version is not None and version != self.version:
            raise stale_version(version, self.version)
        if self.status == "waiting":
            raise ProtocolError.of(Said.of(Code.ERROR_NOT_STARTED))
        if action == NEXT_ROUND:
            if not match.round.is_over():
                raise ProtocolError("the round is not over", Said.of(Code.ERROR_ROUND_NOT_OVER))
            if match.is_over():
                raise ProtocolError("the match is over", Said.of(Code.ERROR_MATCH_OVER))
            return action
        if match.is_over():
            raise ProtocolError("the match is over", Said.of(Code.ERROR_MATCH_OVER))
        if match.round.is_over():
            raise ProtocolError("the round is over", Said.of(Code.ILLEGAL_ROUND_OVER))
        if seat != match.to_move:
            turn = Said.of(Code.ERROR_NOT_YOUR_TURN, seat=match.to_move)
            raise ProtocolError(f"not your turn (seat {match.to_move} is to move)", turn)
        move = parse_move(action)
        if not match.round.is_legal(move):
            reason = match.round.illegal_reason(move)
            said = Said.of(Code.ILLEGAL_MOVE, move=str(move), reason=reason)
            raise ProtocolError(f"illegal move {move}: {english(reason)}", said)
        return str(move)

    async def act(self, seat: int | None, action: str, version: int | None = None) -> None:
        """Check, store, apply and publish one action; raises :class:`ProtocolError` when refused."""
        async with self.lock:
            canonical = self.check(seat, action, version)
            if not self.storage.available:
                raise ProtocolError(
                    "moves are refused while the game store is unavailable; try again shortly",
                    Said.of(Code.ERROR_STORE_DOWN),
                )
            judged, now = self.version, utc(self.clock)
            at = now.timestamp()
            refused: ProtocolError | None = None
            try:
                await self.storage.append_action(self.code, judged + 1, canonical, now)
            except VersionTaken:
                # Another process (or an earlier attempt whose commit went through after all) was first.
                await self._catch_up_or_refuse()
                refused = stale_version(judged, self.version)
            except Exception:
                log.exception("cannot store action %d of table %s", judged + 1, self.code)
                raise ProtocolError.of(Said.of(Code.ERROR_MOVE_NOT_STORED)) from None
            else:
                events = self._apply(canonical)
                self._turn_begins(at)  # as stored: a restart resumes the same clock
                await self.publish(events)
                # The stored action itself: the others apply it without reading it back.
                await self.tell_others(action=[canonical, at])
                if self.match.is_over():
                    self._finished(self.code)
        self.autoplay.schedule()
        if refused is not None:
            raise refused

    # --- following the other processes ---------------------------------------------------------

    async def catch_up(self, heard: Mapping[int, StoredAction] | None = None, latest: int | None = None) -> None:
        """Apply the actions other processes stored since this table's version, and tell the connections.

        ``heard``: stored actions other processes announced, by version, applied without reading
        them back; ``latest``: the highest version announced. The rest (all, when ``latest`` is
        unknown) is read from storage.
        """
        async with self.lock:
            await self._catch_up(heard or {}, latest)
        self.autoplay.schedule()

    async def _catch_up(self, heard: Mapping[int, StoredAction], latest: int | None = None) -> None:
        if self.closed:
            return
        was_over = self.match.is_over()
        try:
            await self._apply_heard_and_stored(heard, latest)
        finally:
            if not was_over and self.match.is_over():
                self._finished(self.code)

    async def _apply_heard_and_stored(self, heard: Mapping[int, StoredAction], latest: int | None) -> None:
        events: list[dict[str, Any]] = []
        while (stored := heard.get(self.version + 1)) is not None:
            events += self._apply_stored(stored)
        if events:
            await self.publish(events)  # before a read that may fail
            events = []
        if latest is None or self.version < latest:
            for stored in await self.storage.load_actions(self.code, self.version):
                if stored.version != self.version + 1:
                    log.error("table %s: stored action %d follows version %d", self.code, stored.version, self.version)
                    break
                events += self._apply_stored(stored)
        if events:
            await self.publish(events)

    def _apply_stored(self, stored: StoredAction) -> list[dict[str, Any]]:
        events = self._apply(stored.action)
        if stored.at is not None:
            self._turn_begins(stored.at.timestamp())
        return events

    async def _catch_up_or_refuse(self) -> None:
        try:
            await self._catch_up({})
        except Exception:
            log.exception("cannot catch up table %s", self.code)
            raise ProtocolError.of(Said.of(Code.ERROR_MOVE_NOT_STORED)) from None

    async def reload_config(self) -> None:
        """Read the configuration again (another process seated a player or gave a seat to a bot)."""
        async with self.lock:  # read under the lock: a change of this process is not undone by an older read
            data = await self.storage.load_config(self.code)
            if data is None:
                return
            self._adopt(TableConfig.from_json(data))
            await self.publish([], presence=True)
        self.autoplay.schedule()

    async def change_config(
        self, change: Callable[[TableConfig], None], events: list[dict[str, Any]] | None = None
    ) -> None:
        """Apply ``change`` to the stored configuration (whatever other processes changed meanwhile),
        adopt the result and tell every client, with ``events``; the first turn's clock starts once
        every human seat is taken and ready (:func:`~chickenfoot.server.readiness.may_start`).
        Called holding :attr:`lock` (``autoplay.schedule()`` after)."""

        def edit(data: dict[str, Any]) -> dict[str, Any]:
            config = TableConfig.from_json(data)
            change(config)
            if config.playing_since is None and may_start(config):
                config.playing_since = self.clock.now()
            return config.to_json()

        self._adopt(TableConfig.from_json(await self.storage.edit_config(self.code, edit)))
        await self.publish(events or [], presence=True)
        await self.tell_others(config=True, events=events or [])

    def _adopt(self, config: TableConfig) -> None:
        """Take ``config`` (as stored) as the table's configuration."""
        self.autoplay.adopt(config)
        if config.playing_since is not None and self.config.playing_since is None:
            self.turn_started = config.playing_since
        self.config = config
        self.texts.names_changed()  # the log names the seats

    # --- presence -----------------------------------------------------------------------------

    def arrive(self, seat: int | None) -> None:
        """Count a new connection of ``seat`` (before its first state is built); hand a covered seat back."""
        self.attendance.arrive(seat)
        if seat is not None:
            self.autoplay.returned([seat])

    async def announce(self, seat: int | None) -> None:
        """Tell everyone that ``seat`` connected (after :meth:`arrive`)."""
        await self.cluster.connections.arrive(self.code, self.attendance.slot(seat))
        await self._recount(list(self.attendance.connections))
        if seat is None:
            await self.publish([], presence=True)  # the spectator count
            await self.tell_others(presence=True, events=[])
            self.autoplay.schedule()  # a spectator alone also wakes a paused table
            return
        if self.config.seats[seat].left:  # back after leaving: the seat is theirs again

            def back(config: TableConfig) -> None:
                config.seats[seat].left = False

            async with self.lock:
                await self.change_config(back)
        connected = [{"kind": "connected", "seat": seat, "move": None}]
        await self.publish(connected, presence=True)
        await self.tell_others(presence=True, events=connected)
        self.autoplay.schedule()

    async def disconnect(self, seat: int | None) -> None:
        fallback = self.attendance.depart(seat)
        await self.cluster.connections.leave(self.code, self.attendance.slot(seat))
        await self._recount(fallback)  # a seat left by all its sockets is covered after the grace period
        if seat is None:
            await self.publish([], presence=True)  # the spectator count
            await self.tell_others(presence=True, events=[])
        elif self.attendance.connections[seat] == 0:
            disconnected = [{"kind": "disconnected", "seat": seat, "move": None}]
            await self.publish(disconnected, presence=True)
            await self.tell_others(presence=True, events=disconnected)
        else:  # the seat's other devices learn that they are its only ones now
            await self.publish([], presence=True)
            await self.tell_others(presence=True, events=[])
        self.autoplay.schedule()  # a turn clock stands while its player is away

    async def refresh_presence(
        self, events: list[dict[str, Any]], covered: list[int] | None, grace: dict[int, float] | None = None
    ) -> None:
        """Count the sockets again (another process's came or went) and tell the connections.

        ``covered``: the seats the lease holder covers, when it says so; ``grace``: when it covers
        the seats whose player has gone (shown as a countdown).
        """
        if covered is not None:
            self.attendance.covered = {seat for seat in covered if 0 <= seat < len(self.config.seats)}
        if grace is not None and not self.driving:
            self.autoplay.grace_until = {seat: at for seat, at in grace.items() if 0 <= seat < len(self.config.seats)}
            log.debug("table %s: grace periods heard %s", self.code, self.autoplay.grace_until)
        await self._recount(list(self.attendance.connections))
        await self.publish(events, presence=True)
        self.autoplay.schedule()

    async def _recount(self, fallback: list[int]) -> None:
        """The sockets of every process; ``fallback`` (the seats' counts) if they cannot be read."""
        attendance = self.attendance
        try:
            counts = await self.cluster.connections.counts(self.code, len(self.config.seats) + 1)
        except Exception as exc:
            log.warning("table %s: connections not counted (%s)", self.code, exc)
            counts = [*fallback, max(attendance.audience, attendance.spectators)]
        present, gone = attendance.recounted(counts)
        log.debug("table %s: sockets %s, present %s, gone %s", self.code, counts, present, gone)
        self._clock_follows_presence()
        self.autoplay.returned(present)
        self.autoplay.gone(gone)

    async def share_covering(self, asking: bool) -> None:
        """What the lease holder decided (who is covered, when each grace ends) travels only in its
        presence messages: the holder says it (again, or because it was asked); another process
        that may have missed it (``asking``: its subscription is new or was broken) asks the holder."""
        if self.driving:
            await self.tell_others(presence=True, events=[])
        elif asking:
            await self.tell_others(ask="covering")

    def lease_changed(self, held: bool) -> None:
        """The table's lease was won (plan the timed work) or lost (drop it)."""
        if held:
            # Seats left while another process held the lease (or that process died) are counted
            # out afresh: each is covered after its grace, as if this process had seen it go.
            self.expect_people()
            self.spawn(self._take_over())
        else:
            self.autoplay.stop()

    async def _take_over(self) -> None:
        await self.refresh_presence([], None)
        await self.share_covering(asking=False)  # an ask made while nobody held the lease is answered

    def expect_people(self) -> None:
        """Count every person's seat gone until a socket of theirs is counted (a table just read back
        from storage, or a lease just won: no count of this process has seen who left meanwhile)."""
        seats = self.config.seats
        people = [s for s, seat in enumerate(seats) if seat.kind == "human" and seat.taken and not seat.left]
        self.attendance.read_back(people)

    def hint_view(self, seat: int | None) -> SeatView:
        """What a hint for ``seat`` is searched from (:mod:`.hints`); only the seat to move may ask."""
        view = None if seat is None else self.match.round.view(seat)
        if view is None or not view.my_turn:
            raise ProtocolError("a hint is for the seat to move", Said.of(Code.ERROR_HINT_NOT_YOUR_TURN))
        return view

    async def close(self) -> None:
        """Stop automatic play; waits for an action being stored, so none is cut off mid-write."""
        async with self.lock:
            self.closed = True
            self.autoplay.stop()
            for task in self._tasks:
                task.cancel()

"""A table: the one object in the process that owns a match, authorises actions and announces them.

The table is an actor, as Lichess's round is: whoever wants it changed submits a typed command
(:mod:`.table_commands`) with :meth:`Table.submit`; the table takes the commands from its bounded
mailbox and handles them one at a time, in its own task, each to its end before the next. Nobody
else holds its lock, because there is none to hold: the mailbox is the lock. After every command
the table plans its own automatic play. An action is checked against the engine, stored
(committed) and only then applied and published: check → store → apply → publish.

The rest is done by small collaborators, each with one job and each seeing the table only through
the narrow port it needs (:mod:`.table_ports`): who is at the table (:mod:`.attendance`), the
turn's clock (:mod:`.turn_clock`), the ``state`` texts (:mod:`.state_texts`), what it does by
itself and when (:mod:`.autoplay`), seats changing hands (:mod:`.seats`), the ready step
(:mod:`.readiness`), renaming (:mod:`.renaming`), chat (:mod:`.chat`) and rematches
(:mod:`.rematch`). Time comes from the table's :class:`~chickenfoot.server.clock.Clock`.

When several processes serve the same tables, each process's table follows the database: the
insert of an action is refused when another process stored that version first, and the table then
catches up from storage. What it tells the other processes, and whether it drives its timed work
(its lease), go through its :class:`~.table_ports.Peers` (the sync room, :mod:`.sync`). When this
table applies the action that ends the match, it calls the ``finished`` hook of its
:class:`Services` (the registry's: reviews, ratings and the lobby listen there).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar, cast

from chickenfoot.i18n import english
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.server.clock import Clock, Timer, utc
from chickenfoot.server.ops.context import context_of_table
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.storage import Storage, StoredAction, VersionTaken
from chickenfoot.server.table import chat, readiness, rematch, renaming, seats
from chickenfoot.server.table.attendance import Attendance
from chickenfoot.server.table.autoplay import Autoplay
from chickenfoot.server.table.commands import (
    Abort,
    AcceptRematch,
    Announce,
    Attach,
    Attached,
    CatchUp,
    Close,
    Command,
    Cover,
    CoverUnclaimed,
    Detach,
    End,
    Ended,
    LeaseChanged,
    Leave,
    NextRound,
    Notify,
    Play,
    PlayAutomatically,
    Ready,
    Recount,
    Relay,
    ReloadConfig,
    Rename,
    Reopen,
    ReplaceWithBot,
    Resign,
    Say,
    SeatBotAccount,
    SeatMoved,
    SetAway,
    SetPublic,
    StartWithBots,
    Take,
    TimeRanOut,
    Wake,
)
from chickenfoot.server.table.config import TableConfig, Timing
from chickenfoot.server.table.pace import move_deadline
from chickenfoot.server.table.ports import (
    NO_NEWS,
    Counts,
    DeadlineKeeper,
    Events,
    Listener,
    Peers,
    Publisher,
    SocketCounts,
    TurnNews,
    table_channel,
)
from chickenfoot.server.table.protocol import (
    NEXT_ROUND,
    LogSent,
    Presence,
    match_over_event,
    parse_move,
    raw_events,
    round_start_events,
    stale_version,
)
from chickenfoot.server.table.readiness import may_start
from chickenfoot.server.table.state_texts import StateTexts
from chickenfoot.server.table.turn_clock import TurnClock
from chickenfoot.view import SeatView

log = logging.getLogger(__name__)

R = TypeVar("R")

EVENT_LOG = 1000
"""Versions whose events are kept for reconnecting clients (older ones get a full snapshot)."""
EVENTS_READ_BACK = 50
"""Versions whose events a table read back from storage rebuilds: building them is nineteen parts in
twenty of a replay's cost, and a process that stopped sends its tables' clients to the others all at once,
each at most a few versions behind (an older one gets a full snapshot)."""
MAILBOX = 64
"""Commands a table holds waiting; past them a person's command is refused (slow down)."""
PRESENCE_TELLS = 8
"""Arrivals and departures told at once, one after another; past them they are told once a
:data:`PRESENCE_TICK`, all of a tick's in one message: a crowd coming or going costs each client one
state a tick, not one per socket."""
PRESENCE_TICK = 0.25


def nobody_listens(_code: str) -> None:
    """The default ``finished`` hook: nothing happens when a match ends."""


_SEATINGS = itertools.count(1)
"""Seating generations, unique in the process: a table read back never reuses one of its earlier self."""


class TableClosed(Exception):
    """The table closed (it left this process's memory): read it again from the registry."""


@dataclass(frozen=True, slots=True)
class Services:
    """What a table works with besides its own state: one set per process, shared by its tables."""

    storage: Storage
    fanout: Publisher
    """Carries the table's news to this process's connections."""
    timing: Timing
    counts: SocketCounts
    """The sockets of each seat over every process."""
    clock: Clock
    finished: Callable[[str], None] = nobody_listens
    """Called with the table's code when this process applies the action that ends its match."""
    ended: Callable[[str], None] = nobody_listens
    """Called with the table's code when an operator ended it, here or in another process (the registry
    lets it go)."""
    deadlines: DeadlineKeeper | None = None
    """Where turn-based tables keep what they wait for next (``None``: nowhere; a unit test's)."""
    news: TurnNews = NO_NEWS
    """Tells a turn-based table's players that it is their turn, or that a line was said."""


class Table:
    """One table's match and seats; every change is a command handed to :meth:`submit`."""

    def __init__(self, code: str, config: TableConfig, match: Match, services: Services, peers: Peers) -> None:
        self._code = code
        self._config = config
        self._match = match
        self._services = services
        self._peers = peers
        self._version = 0
        self._events: deque[tuple[int, Events]] = deque(maxlen=EVENT_LOG)
        self._closed = False
        self._turn = TurnClock(config.playing_since or services.clock.now())
        self._attendance = Attendance(len(config.seats))
        self._inside = Inside(self)
        self._texts = StateTexts(self)
        self._autoplay = Autoplay(self._inside)
        self._chat = chat.KeptLines()
        self._renames = renaming.RenameThrottle(services.clock)
        self._mailbox: deque[tuple[Command[Any], asyncio.Future[Any] | None]] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._deadline_kept: tuple[int, float | None, int | None] | None = None
        """The version, deadline and seat waited for that this table last stored (turn-based tables only)."""
        self._seating = next(_SEATINGS)
        self._recall_graces = False
        """The grace deadlines kept with the counts are read at the next recount (after a read-back)."""
        self._kept_graces: dict[int, float] = {}
        """The grace deadlines as last kept with the counts."""
        self._comings: Events | None = None
        """Arrivals and departures counted but not told yet: a burst of them (a reconnecting crowd)
        is told once, with all their events, before the next command of another kind."""
        self._tells = float(PRESENCE_TELLS)
        """Arrivals and departures that may be told at once now (refilled one a tick)."""
        self._tells_at = services.clock.monotonic()
        self._tell_later: Timer | None = None
        """Wakes the table when the comings held back are due (:data:`PRESENCE_TICK`)."""

    # --- building -----------------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        code: str,
        config: TableConfig,
        actions: list[str],
        services: Services,
        peers: Peers,
    ) -> Table:
        """Rebuild a table from its stored actions (replaying them through the engine)."""
        table = cls(code, config, Match(config.rules, len(config.seats), config.seed), services, peers)
        recent = len(actions) - EVENTS_READ_BACK
        for index, action in enumerate(actions):
            table._apply(action, recorded=index >= recent)
        return table

    @classmethod
    def read_back(
        cls,
        code: str,
        config: TableConfig,
        actions: list[str],
        last_action: datetime | None,
        services: Services,
        peers: Peers,
    ) -> Table:
        """A table read back from storage (:meth:`restore`), ``last_action`` the stored time of its
        last action: its turn clock goes on where it stood, and nobody is counted at it yet, so its
        people are gone until they connect (their seats are covered after the grace period, as if
        seen leaving)."""
        table = cls.restore(code, config, actions, services, peers)
        table._turn.resume(config.playing_since, last_action)
        table._expect_people()
        return table

    # --- what anyone may read -----------------------------------------------------------------

    @property
    def code(self) -> str:
        return self._code

    @property
    def version(self) -> int:
        return self._version

    @property
    def config(self) -> TableConfig:
        return self._config

    @property
    def match(self) -> Match:
        return self._match

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def clock(self) -> Clock:
        return self._services.clock

    @property
    def seating(self) -> int:
        """Moves whenever who may hold which seat may have changed (a configuration adopted, a seat's
        credential moved): what was learnt of the seats' credentials under an older one is stale."""
        return self._seating

    @property
    def counts(self) -> Counts:
        return self._attendance

    @property
    def driving(self) -> bool:
        """This process does the table's timed work (it holds the lease, or it is alone)."""
        return self._peers.driving

    @property
    def over(self) -> bool:
        """The match is finished: played to its end, or lost on time (which the engine's match, its rounds
        not all played, does not know: the table's rule ended it)."""
        return self._match.is_over() or self._config.lost_on_time is not None

    @property
    def status(self) -> str:
        if self.over:
            return "finished"
        if self._config.aborted:
            return "aborted"
        if self._config.playing_since is not None or may_start(self._config):
            return "playing"  # a seat reopened once the match began is played by a bot meanwhile
        return "waiting"

    def presence(self) -> Presence:
        return self._attendance.presence(self._config)

    def winners(self) -> list[int]:
        """The seats that won the finished match: by the rules, or the other player of a match lost on time."""
        lost = self._config.lost_on_time
        if lost is not None:
            return [seat for seat in range(len(self._config.seats)) if seat != lost]
        return self._match.winners()

    def automatic(self, seat: int) -> bool:
        entry = self._config.seats[seat]
        covered = seat in self._attendance.covered or entry.left or entry.replaced
        return entry.kind == "bot" or covered or not entry.taken

    def plays_unwatched(self) -> bool:
        """A rated match a person is absent from (gone, covered or left) goes on when nobody is connected,
        and stays in memory: the bots covering its absent seats play it to its end, so that abandoning it
        counts as finishing last (docs/bots/ratings.md); so does a tournament's table, whose event waits
        for nobody. Any other table nobody watches pauses."""
        if self.status != "playing":
            return False
        if self._config.organised:
            return True
        if not self._config.rated:
            return False
        graces = self.graces()
        people = [s for s, seat in enumerate(self._config.seats) if seat.kind == "human"]
        return any(self.automatic(s) or graces[s] is not None for s in people)

    def absent(self) -> list[int]:
        """The people's seats a bot covers now, their player away."""
        return sorted(self._attendance.covered)

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [s for s, seat in enumerate(self._config.seats) if seat.kind == "human" and not seat.taken]

    def turn_deadline(self) -> float | None:
        """When the seat to move loses its turn to its bot (seconds since the epoch), if it can.

        A clock runs only for a player who has the table open: while the seat to move has no socket
        its clock stands (``None``), and its bot covers it once the grace period is over. At a
        turn-based table it runs all the same (:mod:`.pace`), standing only for a vacation.
        """
        timer, match, pace = self._config.turn_timer, self._match, self._config.pace
        if pace is not None:
            if self.status != "playing" or match.round.is_over() or self.automatic(match.to_move):
                return None
            return move_deadline(pace, self._turn.started, self._config.seats[match.to_move])
        if timer is None or self.status != "playing" or match.round.is_over() or self.automatic(match.to_move):
            return None
        if self._attendance.connections[match.to_move] == 0:
            return None
        return self._turn.deadline(timer)

    def next_due(self) -> float | None:
        """When a turn-based table's next automatic action is due (a bot's or forced move, the next
        round, a player's time running out): what it stores for every process to find."""
        match, timing = self._match, self._services.timing
        if self._config.pace is None or self.status != "playing":
            return None
        started = self._turn.started
        if match.round.is_over():
            return started + timing.next_round_delay
        if self.automatic(match.to_move):
            return started + timing.bot_delay
        if match.round.forced_move() is not None:
            return started + timing.forced_delay
        return self.turn_deadline()

    def graces(self) -> list[float | None]:
        """When each seat whose player has gone is covered (``None``: no countdown)."""
        return self._autoplay.graces(len(self._config.seats))

    def covering(self) -> tuple[list[int], list[tuple[int, float]]]:
        """Who is covered, and when each grace ends: what the lease holder tells the others."""
        return sorted(self._attendance.covered), self._autoplay.grace_periods()

    def channel(self) -> str:
        return table_channel(self._code)

    def events_since(self, since: int | None) -> Events | None:
        """Events of every version after ``since``, or ``None`` when a full snapshot is needed."""
        if since is None or since > self._version or since < 0:
            return None
        if since == self._version:
            return []
        if not self._events or self._events[0][0] > since + 1:
            return None
        return [event for version, events in self._events if version > since for event in events]

    def state_text(
        self, seat: int | None, events: Events, log_sent: LogSent | None = None, watching: str | None = None
    ) -> tuple[str, LogSent]:
        """The ``state`` message for ``seat`` (:meth:`.state_texts.StateTexts.state`)."""
        return self._texts.state(seat, events, log_sent, watching)

    def hint_view(self, seat: int | None) -> SeatView:
        """What a hint for ``seat`` is searched from (:mod:`.hints`); only the seat to move may ask, and
        never at a rated table (its match is the players' own play: refused before anything is searched)."""
        if self._config.rated:
            raise Refusal.forbidden(Said.of(Code.RATING_NO_HINTS))
        view = None if seat is None else self._match.round.view(seat)
        if view is None or not view.my_turn:
            raise Refusal.conflict(Said.of(Code.ERROR_HINT_NOT_YOUR_TURN), text="a hint is for the seat to move")
        return view

    async def chat_history(self) -> dict[str, Any]:
        """The ``chat`` message a client gets on connecting: the kept lines (read once, until a line is said)."""
        return await chat.history(self._chat, self._services.storage, self._code)

    async def greetings(self) -> list[dict[str, Any]]:
        """What a client gets after its first state: the series (at a rematch's table), the chat's kept
        lines (if any), and the rematch if one is asked for."""
        return await rematch.greetings(self, self._services.storage, self.chat_history)

    def watched_here(self) -> bool:
        """Someone is connected to this process (otherwise the table may leave its memory)."""
        return self._attendance.watched_here()

    def idle(self) -> bool:
        """Nobody is connected to any process."""
        return self._attendance.idle()

    # --- the one way in -----------------------------------------------------------------------

    async def submit(self, command: Command[R]) -> R:
        """Hand ``command`` to the table and wait for its answer (or what refused it). Cancelling the
        wait does not cancel the command: once taken, it is handled to its end."""
        if command.at_once:
            return cast(R, self._handle_at_once(command))
        answer: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._post(command, answer)
        return await answer

    def tell(self, command: Command[Any]) -> None:
        """Hand ``command`` to the table without waiting (what refuses it is logged)."""
        if command.at_once:
            self._handle_at_once(command)
        else:
            self._post(command, None)

    async def settled(self) -> None:
        """Wait until the commands taken before now are handled (a closed table's last action is stored)."""
        await self.submit(Wake())

    def _post(self, command: Command[Any], answer: asyncio.Future[Any] | None) -> None:
        if command.bounded and len(self._mailbox) >= MAILBOX:
            raise Refusal.too_many(Said.of(Code.ERROR_SLOW_DOWN))
        self._mailbox.append((command, answer))
        if self._worker is None:  # the table's own work: the lines it logs belong to the table
            self._worker = asyncio.get_running_loop().create_task(self._work(), context=context_of_table(self._code))

    async def _work(self) -> None:
        """Handle the mailbox's commands in order, then stop (a table waiting for nothing has no task)."""
        try:
            while self._mailbox:
                command, answer = self._mailbox.popleft()
                try:
                    result = await self._handle(command)
                    if self._comings is not None and not self._more_comings() and self._may_tell():
                        await self._tell_comings()
                except Exception as exc:
                    if answer is not None and not answer.done():
                        answer.set_exception(exc)
                    elif not isinstance(exc, Refusal | TableClosed):
                        log.exception("table %s: %s failed", self._code, type(command).__name__)
                else:
                    if answer is not None and not answer.done():
                        answer.set_result(result)
                await self._keep_deadline()
                self._autoplay.schedule()
        finally:
            self._worker = None
            while self._mailbox:  # only when this task is cancelled (the loop stops)
                _, answer = self._mailbox.popleft()
                if answer is not None:
                    answer.cancel()

    def _more_comings(self) -> bool:
        return bool(self._mailbox) and isinstance(self._mailbox[0][0], Announce | Detach)

    def _may_tell(self) -> bool:
        """Whether the comings may be told now; if not, the table is woken when they may."""
        if self._tell_later is not None:
            return False  # held back already: told when the tick is over
        now = self.clock.monotonic()
        self._tells = min(PRESENCE_TELLS, self._tells + (now - self._tells_at) / PRESENCE_TICK)
        self._tells_at = now
        if self._tells >= 1:
            self._tells -= 1
            return True
        self._tell_later = self.clock.call_later((1 - self._tells) * PRESENCE_TICK, self._tick_over)
        return False

    def _tick_over(self) -> None:
        self._tell_later = None
        if not self._closed:
            self.tell(Wake())

    def _handle_at_once(self, command: Command[Any]) -> Any:
        """A command that waits for nothing, handled on arrival (then the automatic play is planned)."""
        try:
            match command:
                case Attach(seat, listener, since, watching):
                    return self._attach(seat, listener, since, watching)
                case Close():
                    self._close()
                    return None
                case _:
                    raise TypeError(f"a table handles no {type(command).__name__} at once")
        finally:
            self._autoplay.schedule()

    async def _handle(self, command: Command[Any]) -> Any:
        port = self._inside
        match command:
            case Play(seat, action, version):
                await self._play(seat, action, version)
            case NextRound(seat):
                if seat is None or self._config.seats[seat].kind != "human":
                    raise Refusal.forbidden(Said.of(Code.ERROR_NEXT_ROUND_SEATED))
                await self._play(seat, NEXT_ROUND, None)
            case PlayAutomatically(seat, action, version, still_due):
                if still_due is None or still_due():
                    await self._play(seat, action, version)
            case Cover(seat):
                await self._cover(seat)
            case TimeRanOut(seat, version):
                await self._time_ran_out(seat, version)
            case SetAway(seat, since, until):
                await self._set_away(seat, since, until)
            case Wake():
                pass
            case Announce(seat, first):
                await self._announce(seat, first)
            case Detach(seat):
                await self._detach(seat)
            case Take(seat, name, ready):
                await seats.take(port, seat, name, ready)
            case Leave(seat):
                await seats.leave(port, seat)
            case Resign(seat, level, revoke):
                await seats.resign(port, seat, level, revoke)
            case Abort(seat):
                await seats.abort(port, seat)
            case Reopen(seat, revoke):
                await seats.reopen(port, seat, revoke)
            case ReplaceWithBot(seat, level, revoke):
                await seats.replace_with_bot(port, seat, level, revoke)
            case CoverUnclaimed(seat, level, revoke):
                await seats.cover_unclaimed(port, seat, level, revoke)
            case SeatBotAccount(seat):
                await seats.seat_bot_account(port, seat)
            case Ready(seat):
                await readiness.ready(port, seat)
            case StartWithBots(level, revoke):
                await readiness.start_with_bots(port, level, revoke)
            case SetPublic(public):
                await seats.list_publicly(port, public)
            case Rename(seat, name):
                await renaming.rename(port, self._renames, seat, name)
            case Say(seat, request, speaker):
                number = await chat.say(port, seat, request, speaker)
                if self._config.pace is not None:  # its players hear of it wherever they are
                    name = "" if seat is None else self._config.seats[seat].name or ""
                    self._spawn(self._services.news.chat_line(self._code, seat, name, number))
            case Notify(notice):
                await self._notify(notice)
            case AcceptRematch(seat, tables):
                return await rematch.accept(port, seat, tables)
            case SeatMoved(seat, credential):
                await self._seat_moved(seat, credential)
            case CatchUp(heard, latest):
                await self._catch_up(heard, latest)
            case ReloadConfig():
                await self._reload_config()
            case Recount(events, covered, grace):
                await self._recount_and_tell(events, covered, grace)
            case LeaseChanged(held):
                await self._lease_changed(held)
            case Relay(message):
                self._relay(message)
            case End():
                return await self._end()
            case Ended():
                await self._ended()
            case _:
                raise TypeError(f"a table handles no {type(command).__name__}")
        return None

    # --- actions ------------------------------------------------------------------------------

    def _check(self, seat: int | None, action: str, version: int | None) -> str:
        """The action in canonical form if ``seat`` may do it now; raises :class:`~.refusals.Refusal`."""
        match = self._match
        if self._closed:
            raise Refusal.busy(Said.of(Code.ERROR_SHUTTING_DOWN))
        if seat is None:
            raise Refusal.forbidden(Said.of(Code.ERROR_SPECTATOR_MOVE))
        if version is not None and version != self._version:
            raise stale_version(version, self._version)
        if self.status == "waiting":
            raise Refusal.conflict(Said.of(Code.ERROR_NOT_STARTED))
        if self.status == "aborted":
            raise Refusal.conflict(Said.of(Code.ERROR_ABORTED))
        if action == NEXT_ROUND:
            if not match.round.is_over():
                raise Refusal.conflict(Said.of(Code.ERROR_ROUND_NOT_OVER), text="the round is not over")
            if match.is_over():
                raise Refusal.conflict(Said.of(Code.ERROR_MATCH_OVER), text="the match is over")
            return action
        if self.over:
            raise Refusal.conflict(Said.of(Code.ERROR_MATCH_OVER), text="the match is over")
        if match.round.is_over():
            raise Refusal.conflict(Said.of(Code.ILLEGAL_ROUND_OVER), text="the round is over")
        if seat != match.to_move:
            turn = Said.of(Code.ERROR_NOT_YOUR_TURN, seat=match.to_move)
            raise Refusal.conflict(turn, text=f"not your turn (seat {match.to_move} is to move)")
        move = parse_move(action)
        if not match.round.is_legal(move):
            reason = match.round.illegal_reason(move)
            said = Said.of(Code.ILLEGAL_MOVE, move=str(move), reason=reason)
            raise Refusal.conflict(said, text=f"illegal move {move}: {english(reason)}")
        return str(move)

    async def _play(self, seat: int | None, action: str, version: int | None) -> None:
        """Check, store, apply and publish one action; raises :class:`~.refusals.Refusal` when refused."""
        canonical = self._check(seat, action, version)
        storage = self._services.storage
        if not storage.available:
            text = "moves are refused while the game store is unavailable; try again shortly"
            raise Refusal.busy(Said.of(Code.ERROR_STORE_DOWN), text=text)
        judged, now = self._version, utc(self.clock)
        at = now.timestamp()
        try:
            await storage.append_action(self._code, judged + 1, canonical, now)
        except VersionTaken:
            # Another process (or an earlier attempt whose commit went through after all) was first.
            try:
                await self._catch_up({})
            except Exception:
                log.exception("cannot catch up table %s", self._code)
                raise Refusal.busy(Said.of(Code.ERROR_MOVE_NOT_STORED)) from None
            raise stale_version(judged, self._version) from None
        except Exception:
            log.exception("cannot store action %d of table %s", judged + 1, self._code)
            raise Refusal.busy(Said.of(Code.ERROR_MOVE_NOT_STORED)) from None
        events = self._apply(canonical)
        self._turn_begins(at)  # as stored: a restart resumes the same clock
        # What the table waits for now is stored before anyone hears of the move: the top bar's count of
        # the tables waiting for a player (``/api/turns``) and the "your turn" notice read it.
        await self._keep_deadline()
        await self._publish(events)
        # The stored action itself: the others apply it without reading it back.
        await self._peers.action_stored(self._version, canonical, at)
        if self._match.is_over():
            self._services.finished(self._code)
        elif self._config.pace is not None:
            self._tell_the_mover()

    def _tell_the_mover(self) -> None:
        """At a turn-based table, tell the player now to move, wherever they are, that it is their turn:
        only a move of their own choice (a forced draw or pass is the table's to make, at once)."""
        match = self._match
        if self.status != "playing" or match.round.is_over() or match.round.forced_move() is not None:
            return
        if not self.automatic(match.to_move):
            self._spawn(self._services.news.your_turn(self._code, match.to_move, self._version))

    # --- turn-based tables --------------------------------------------------------------------

    async def _keep_deadline(self) -> None:
        """Store what this turn-based table waits for next, when it changed (the driving process only)."""
        deadlines = self._services.deadlines
        if deadlines is None or self._config.pace is None or not self.driving or self._closed:
            return
        due, match = self.next_due(), self._match
        waiting = due is not None and due == self.turn_deadline()
        kept = (self._version, due, match.to_move if waiting else None)
        if kept == self._deadline_kept:
            return
        try:
            await deadlines.keep(self._code, *kept)
        except Exception as exc:  # the sweep finds the row behind the table's actions, and comes back
            log.warning("table %s: its deadline is not stored (%s)", self._code, exc)
            return
        self._deadline_kept = kept

    async def _time_ran_out(self, seat: int, version: int) -> None:
        """``seat``'s time ran out at ``version``: the table's rule (a bot replaces the player, or the
        match is lost on time), if it is still so now."""
        pace, match = self._config.pace, self._match
        deadline = self.turn_deadline()
        if pace is None or version != self._version or match.to_move != seat or not self.driving:
            return
        if deadline is None or self.clock.now() < deadline:
            return
        if pace.on_timeout == "lose" and len(self._config.seats) == 2:

            def lost(config: TableConfig) -> None:
                config.lost_on_time, config.lost_at = seat, deadline

            said = Said.of(Code.EVENT_LOST_ON_TIME, seat=seat)
            await self._change_config(lost, [{"kind": "lost_on_time", "seat": seat, "move": None} | said.wire()])
            self._services.finished(self._code)
            return

        def replaced(config: TableConfig) -> None:
            config.seats[seat].replaced = True

        said = Said.of(Code.EVENT_TIME_REPLACED, seat=seat)
        await self._change_config(replaced, [{"kind": "replaced", "seat": seat, "move": None} | said.wire()])

    async def _set_away(self, seat: int, since: float | None, until: float | None) -> None:
        """``seat``'s player is on vacation from ``since`` to ``until`` (``None``: not any more)."""
        if self._config.pace is None or not 0 <= seat < len(self._config.seats):
            return

        def away(config: TableConfig) -> None:
            config.seats[seat].away_from, config.seats[seat].away_until = since, until

        await self._change_config(away)

    def _apply(self, action: str, *, recorded: bool = True) -> Events:
        """Apply a checked action to the match; returns its events and records them (with ``recorded``
        false, only applies it: a replay's older versions, whose events no client will ask for)."""
        match = self._match
        self._version += 1
        if action == NEXT_ROUND:
            match.next_round()
            if not recorded:
                return []
            events = round_start_events(match)
        else:
            match.push(Move.parse(action))
            if not recorded:
                return []
            events = raw_events(match.round.events_of_last(), match.round_number)
            if match.is_over():
                events.append(match_over_event(match))
        self._events.append((self._version, events))
        return events

    def _turn_begins(self, at: float) -> None:
        self._turn.begin(at, self._mover_present(), self.clock.now())

    def _mover_present(self) -> bool:
        """The seat to move has a socket; at a turn-based table its clock runs all the same."""
        return self._config.pace is not None or self._attendance.connections[self._match.to_move] > 0

    # --- messages -----------------------------------------------------------------------------

    async def _publish(self, events: Events, presence: bool = False) -> None:
        """Tell this process's connections."""
        if presence:
            self._attendance.epoch += 1
        await self._services.fanout.publish(self.channel(), {"version": self._version, "events": events})

    async def _tell_presence(self, events: Events) -> None:
        """Tell the other processes that someone came or went (the lease holder adds what it decided)."""
        await self._peers.presence(self._version, events, self.covering() if self.driving else None)

    async def _notify(self, notice: dict[str, Any]) -> None:
        """Tell every client, in every process, ``notice`` (a chat line, a rematch): no game action."""
        self._chat.heard(notice)
        await self._services.fanout.publish(self.channel(), {"notice": notice})
        await self._peers.notice(self._version, notice)

    async def _seat_moved(self, seat: int, credential: str) -> None:
        self._seating = next(_SEATINGS)
        moved = {"seat": seat, "to": credential}
        await self._services.fanout.publish(self.channel(), {"moved": moved})
        await self._peers.seat_moved(self._version, seat, credential)

    def _relay(self, message: dict[str, Any]) -> None:
        """Another process's notice or seat move: tell this process's connections."""
        if "notice" in message:
            self._chat.heard(message["notice"])
        if "moved" in message:
            self._seating = next(_SEATINGS)
        self._spawn(self._services.fanout.publish(self.channel(), message))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the table (cancelled when the table closes)."""
        task = asyncio.create_task(work, context=context_of_table(self._code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- ended by an operator -----------------------------------------------------------------

    async def _end(self) -> bool:
        """Delete the table unless its match is over, and tell everyone, in every process (:class:`End`)."""
        if self.over:
            return False
        await self._services.storage.delete_table(self._code)
        await self._ended()
        await self._peers.table_ended(self._version)
        return True

    async def _ended(self) -> None:
        """The table was deleted: this process's connections are told, and the registry lets it go."""
        await self._services.fanout.publish(self.channel(), {"ended": True})
        self._services.ended(self._code)

    # --- configuration ------------------------------------------------------------------------

    async def _change_config(self, change: Callable[[TableConfig], None], events: Events | None = None) -> None:
        """Apply ``change`` to the stored configuration (whatever other processes changed meanwhile),
        adopt the result and tell every client, with ``events``; the first turn's clock starts once
        every human seat is taken and ready (:func:`~chickenfoot.server.table.readiness.may_start`)."""

        def edit(data: dict[str, Any]) -> dict[str, Any]:
            config = TableConfig.from_json(data)
            change(config)
            if config.playing_since is None and may_start(config):
                config.playing_since = self.clock.now()
            return config.to_json()

        waiting_to_begin = self._config.playing_since is None
        self._adopt(TableConfig.from_json(await self._services.storage.edit_config(self._code, edit)))
        await self._keep_deadline()  # a match begun, a seat given to a bot, one lost on time: before it is told
        await self._publish(events or [], presence=True)
        await self._peers.config_changed(self._version, events or [])
        if waiting_to_begin and self._config.playing_since is not None and self._config.pace is not None:
            self._tell_the_mover()  # the first mover may not be the player whose readiness began the match

    async def _reload_config(self) -> None:
        """Read the configuration again (another process seated a player or gave a seat to a bot)."""
        if self._closed:
            return
        data = await self._services.storage.load_config(self._code)
        if data is None:  # deleted by an operator while this process was not listening: nothing to follow
            await self._ended()
            return
        self._adopt(TableConfig.from_json(data))
        await self._publish([], presence=True)

    def _adopt(self, config: TableConfig) -> None:
        """Take ``config`` (as stored) as the table's configuration."""
        self._seating = next(_SEATINGS)
        for seat in self._autoplay.adopt(config):
            self._attendance.covered.discard(seat)  # its own bot plays it now
        if config.playing_since is not None and self._config.playing_since is None:
            self._turn.started = config.playing_since
        self._config = config
        self._texts.names_changed()  # the log names the seats

    # --- following the other processes ---------------------------------------------------------

    async def _catch_up(self, heard: Mapping[int, StoredAction], latest: int | None = None) -> None:
        """Apply the actions other processes stored since this table's version, and tell the connections:
        those ``heard`` (announced, by version) without reading them back, the rest up to ``latest``
        (all, when it is unknown) from storage."""
        if self._closed:
            return
        was_over = self._match.is_over()
        try:
            events: Events = []
            while (stored := heard.get(self._version + 1)) is not None:
                events += self._apply_stored(stored)
            if events:
                await self._publish(events)  # before a read that may fail
                events = []
            if latest is None or self._version < latest:
                for stored in await self._services.storage.load_actions(self._code, self._version):
                    if stored.version != self._version + 1:
                        log.error(
                            "table %s: stored action %d follows version %d", self._code, stored.version, self._version
                        )
                        break
                    events += self._apply_stored(stored)
            if events:
                await self._publish(events)
        finally:
            if not was_over and self._match.is_over():
                self._services.finished(self._code)

    def _apply_stored(self, stored: StoredAction) -> Events:
        events = self._apply(stored.action)
        if stored.at is not None:
            self._turn_begins(stored.at.timestamp())
        return events

    async def _lease_changed(self, held: bool) -> None:
        if self._closed:
            return
        if not held:
            self._autoplay.stop()
            return
        self._deadline_kept = None  # the new holder stores what the table waits for, as it sees it
        # Seats left while another process held the lease (or that process died) are counted out
        # afresh: each is covered after its grace, as if this process had seen it go.
        self._expect_people()
        await self._recount_and_tell([], None)
        await self._tell_presence([])  # an ask made while nobody held the lease is answered

    # --- presence -----------------------------------------------------------------------------

    def _attach(self, seat: int | None, listener: Listener, since: int | None, watching: str | None) -> Attached:
        if self._closed:
            raise TableClosed(self._code)
        seat_was_empty = seat is None or self._attendance.connections[seat] == 0
        self._attendance.arrive(seat)
        if seat is not None:
            self._autoplay.returned([seat])
        # The first state and the subscription with nothing between them: nothing can be missed.
        first, log_sent = self._texts.state(seat, self.events_since(since) or [], watching=watching)
        listener.attached(first, log_sent)
        attached = Attached(self._services.fanout.subscribe(self.channel(), listener.on_change))
        self._post(Announce(seat, seat_was_empty), None)  # before any command a later arrival or this connection sends
        return attached

    async def _announce(self, seat: int | None, first: bool) -> None:
        """Tell everyone that ``seat`` connected (after :class:`Attach`)."""
        await self._services.counts.arrive(self._code, self._attendance.slot(seat))
        await self._recount(list(self._attendance.connections))
        if seat is None:
            self._came_or_went([])  # the spectator count
            return
        if self._config.seats[seat].left:  # back after leaving: the seat is theirs again

            def back(config: TableConfig) -> None:
                config.seats[seat].left = False

            await self._change_config(back)
        # The seat's other devices learn of one more (``devices``); the others, only of its first.
        self._came_or_went([{"kind": "connected", "seat": seat, "move": None}] if first else [])

    async def _detach(self, seat: int | None) -> None:
        fallback = self._attendance.depart(seat)
        await self._services.counts.leave(self._code, self._attendance.slot(seat))
        await self._recount(fallback)  # a seat left by all its sockets is covered after the grace period
        events: Events = []
        if seat is not None and self._attendance.connections[seat] == 0:
            events = [{"kind": "disconnected", "seat": seat, "move": None}]
        # Else the spectator count, or the seat's other devices learn that they are its only ones now.
        self._came_or_went(events)

    def _came_or_went(self, events: Events) -> None:
        self._comings = [*(self._comings or []), *events]

    async def _tell_comings(self) -> None:
        """Tell everyone, in every process, who came and went since they were last told."""
        events, self._comings = self._comings or [], None
        await self._publish(events, presence=True)
        await self._tell_presence(events)

    async def _recount_and_tell(
        self, events: Events, covered: list[int] | None, grace: dict[int, float] | None = None
    ) -> None:
        """Count the sockets again (another process's came or went) and tell the connections.

        ``covered``: the seats the lease holder covers, when it says so; ``grace``: when it covers
        the seats whose player has gone (shown as a countdown).
        """
        if self._closed:
            return
        if covered is not None:
            self._attendance.covered = {seat for seat in covered if 0 <= seat < len(self._config.seats)}
        if grace is not None and not self.driving:
            self._autoplay.heard_graces({seat: at for seat, at in grace.items() if 0 <= seat < len(self._config.seats)})
        await self._recount(list(self._attendance.connections))
        await self._publish(events, presence=True)

    async def _recount(self, fallback: list[int]) -> None:
        """The sockets of every process; ``fallback`` (the seats' counts) if they cannot be read."""
        attendance = self._attendance
        try:
            counts = await self._services.counts.counts(self._code, len(self._config.seats) + 1)
        except Exception as exc:
            log.warning("table %s: connections not counted (%s)", self._code, exc)
            counts = [*fallback, attendance.watching()]
        if self._recall_graces:
            self._recall_graces = False
            kept = await self._kept_graces_read()
            self._autoplay.recall({seat: at for seat, at in kept.items() if seat in attendance.unseen})
        present, gone = attendance.recounted(counts)
        log.debug("table %s: sockets %s, present %s, gone %s", self._code, counts, present, gone)
        self._turn.follow(self._mover_present(), self.clock.now())
        self._autoplay.returned(present)
        self._autoplay.gone(gone)
        await self._keep_graces()

    async def _kept_graces_read(self) -> dict[int, float]:
        seats = len(self._config.seats)
        try:
            kept = await self._services.counts.graces(self._code)
        except Exception as exc:
            log.warning("table %s: grace deadlines not read (%s)", self._code, exc)
            return {}
        self._kept_graces = {seat: at for seat, at in kept.items() if 0 <= seat < seats}
        return self._kept_graces

    async def _keep_graces(self) -> None:
        """Keep the grace deadlines with the counts when they changed (a read-back continues them)."""
        deadlines = self._autoplay.deadlines
        if deadlines == self._kept_graces or not self.driving:  # the lease holder's are the table's
            return
        try:
            await self._services.counts.keep_graces(self._code, dict(deadlines))
        except Exception as exc:
            log.warning("table %s: grace deadlines not kept (%s)", self._code, exc)
            return
        self._kept_graces = dict(deadlines)

    async def _cover(self, seat: int) -> None:
        """A grace is over: a bot covers ``seat`` if its player did not come back; tell everyone."""
        self._autoplay.grace_ended(seat)
        if self._attendance.connections[seat] == 0 and self.driving and not self._closed:
            self._attendance.covered.add(seat)
            log.info("table %s: seat %d covered", self._code, seat)
            await self._publish([], presence=True)
            await self._tell_presence([])

    def _expect_people(self) -> None:
        """Count every person's seat gone until a socket of theirs is counted (a table just read back
        from storage, or a lease just won: no count of this process has seen who left meanwhile)."""
        seats_ = self._config.seats
        people = [s for s, seat in enumerate(seats_) if seat.kind == "human" and seat.taken and not seat.left]
        self._attendance.read_back(people)
        self._recall_graces = True

    def _close(self) -> None:
        """Stop automatic play and refuse actions from now on; the command in progress, if any, ends
        as it would (:meth:`settled` waits for it)."""
        self._closed = True
        self._autoplay.stop()
        if self._tell_later is not None:
            self._tell_later.cancel()
        for task in self._tasks:
            task.cancel()


class Inside:
    """The table as its collaborators see it in its turn: the reads they need, and what they may ask
    (:class:`~.table_ports.ConfigPort`, :class:`~.table_ports.AutoplayPort`)."""

    __slots__ = ("_table",)

    def __init__(self, table: Table) -> None:
        self._table = table

    @property
    def code(self) -> str:
        return self._table.code

    @property
    def version(self) -> int:
        return self._table.version

    @property
    def config(self) -> TableConfig:
        return self._table.config

    @property
    def match(self) -> Match:
        return self._table.match

    @property
    def status(self) -> str:
        return self._table.status

    @property
    def closed(self) -> bool:
        return self._table.closed

    @property
    def counts(self) -> Counts:
        return self._table.counts

    @property
    def clock(self) -> Clock:
        return self._table.clock

    @property
    def storage(self) -> Storage:
        return self._table._services.storage

    @property
    def timing(self) -> Timing:
        return self._table._services.timing

    @property
    def driving(self) -> bool:
        return self._table.driving

    def presence(self) -> Presence:
        return self._table.presence()

    def free_seats(self) -> list[int]:
        return self._table.free_seats()

    def winners(self) -> list[int]:
        return self._table.winners()

    def automatic(self, seat: int) -> bool:
        return self._table.automatic(seat)

    def covered(self, seat: int) -> bool:
        return seat in self._table._attendance.covered

    def turn_deadline(self) -> float | None:
        return self._table.turn_deadline()

    def time_ran_out(self, seat: int, version: int) -> None:
        self._table.tell(TimeRanOut(seat, version))

    def plays_unwatched(self) -> bool:
        return self._table.plays_unwatched()

    async def change_config(self, change: Callable[[TableConfig], None], events: Events | None = None) -> None:
        await self._table._change_config(change, events)

    async def notify(self, notice: dict[str, Any]) -> None:
        await self._table._notify(notice)

    async def play(self, seat: int, action: str, version: int, still_due: Callable[[], bool] | None = None) -> None:
        await self._table.submit(PlayAutomatically(seat, action, version, still_due))

    def cover(self, seat: int) -> None:
        self._table.tell(Cover(seat))

    def covering_changed(self) -> None:
        self._table._spawn(self._table._tell_presence([]))

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        self._table._spawn(work)

"""A table: the one object in the process that owns a match, authorises actions and announces them.

Every action is checked against the engine, stored (committed) and only then applied and
published. Bots, covered seats and forced moves are driven by one pending timer per table: the
timer belongs to the table's situation (its version and what is due), so connections coming and
going never postpone it.

When several processes serve the same tables, each process's table follows the database: the
insert of an action is refused when another process stored that version first, and the table
then catches up from storage (:meth:`Table.catch_up`, also called when another process says it
moved on). Only the process holding the table's lease (:attr:`Table.keeper`) does its timed work.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from chickenfoot.bots import DEFAULT_LEVEL, Bot, Budget, hint, make_bot
from chickenfoot.i18n import english
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.server.cluster import Cluster, local
from chickenfoot.server.lease import LeaseKeeper
from chickenfoot.server.protocol import (
    LogCache,
    LogSent,
    Presence,
    ProtocolError,
    dumps,
    events_for,
    log_texts,
    match_over_event,
    parse_move,
    public_json,
    raw_events,
    round_start_events,
    seat_json,
    state_with_log,
)
from chickenfoot.server.pubsub import PubSub, table_channel
from chickenfoot.server.refusal import Refused
from chickenfoot.server.storage import Storage, StoredAction, VersionTaken
from chickenfoot.view import SeatView, seated

log = logging.getLogger(__name__)

NEXT_ROUND = "next_round"
EVENT_LOG = 1000
"""Versions whose events are kept for reconnecting clients (older ones get a full snapshot)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses of the automatic play, in seconds (all 0 in tests)."""

    bot_delay: float = 0.8
    forced_delay: float = 0.8
    next_round_delay: float = 6.0
    grace: float = 20.0
    bot_seconds: float | None = None
    """A cap on a bot's thinking per move (``None``: each level's own budget)."""
    cover_bot: str = DEFAULT_LEVEL


RENAME_SECONDS = 5.0
"""A seat may change its name once in this many seconds (each change is stored and announced to all)."""

TURN_TIMERS = (30, 60, 120)
"""Seconds a human may take per turn, when the table has a turn timer."""


@dataclass(slots=True)
class Seat:
    kind: Literal["human", "bot"]
    name: str | None = None
    """The name its player chose; ``None`` until then (each reader sees "Player 2" in their own language)."""
    bot: str | None = None
    taken: bool = False
    """A player holds the seat's credential (the credential itself is in storage, as a digest)."""
    left: bool = False
    """The player left the match: a bot plays the seat until they come back with their credential."""


@dataclass(slots=True)
class TableConfig:
    """What is stored about a table besides its actions (never a secret)."""

    rules: Rules
    seats: list[Seat]
    seed: int
    creator: int = 0
    open: bool = False
    """Anyone with the room code may take a free seat (otherwise only invited friends)."""
    public: bool = False
    """Listed in the lobby (a public table is open)."""
    turn_timer: int | None = None
    playing_since: float | None = None
    """When the last human seat was taken (seconds since the epoch): the first turn's clock starts."""

    def bot_levels(self) -> list[str | None]:
        """Each seat's bot level, ``None`` for a person's seat (a bot's default name says its level)."""
        return [(seat.bot or DEFAULT_LEVEL) if seat.kind == "bot" else None for seat in self.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [asdict(s) for s in self.seats],
            "seed": self.seed,
            "creator": self.creator,
            "open": self.open,
            "public": self.public,
            "turn_timer": self.turn_timer,
            "playing_since": self.playing_since,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            Rules.from_dict(data["rules"]),
            [Seat(**s) for s in data["seats"]],
            int(data["seed"]),
            creator=int(data.get("creator", 0)),
            open=bool(data.get("open", False)),
            public=bool(data.get("public", False)),
            turn_timer=data.get("turn_timer"),
            playing_since=data.get("playing_since"),
        )


@functools.lru_cache(maxsize=256)
def hint_for(view: SeatView) -> tuple[Move, Said]:
    """A suggested move for the seat to move, with the reason (the search's second of thinking is
    spent once per position, however often it is asked for)."""
    suggestion = hint(view)
    return suggestion.move, suggestion.why


class Table:
    """One table's match, seats and connections; all changes go through :meth:`act`."""

    def __init__(
        self,
        code: str,
        config: TableConfig,
        storage: Storage,
        pubsub: PubSub,
        timing: Timing,
        match: Match,
        cluster: Cluster | None = None,
    ) -> None:
        self.code = code
        self.config = config
        self.storage = storage
        self.pubsub = pubsub
        """The fan-out to this process's connections."""
        self.timing = timing
        self.match = match
        self.cluster = cluster or local()
        self.keeper: LeaseKeeper | None = None
        """The table's lease among several processes (``None``: this process drives the table alone)."""
        self.version = 0
        self.events: deque[tuple[int, list[dict[str, Any]]]] = deque(maxlen=EVENT_LOG)
        self.here = [0] * len(config.seats)
        """Sockets of each seat in this process."""
        self.spectators = 0
        """Spectators' sockets in this process."""
        self.connections = [0] * len(config.seats)
        """Sockets of each seat in every process (as last counted)."""
        self.audience = 0
        """Spectators' sockets in every process (as last counted)."""
        self.covered: set[int] = set()
        self.chat_kept: list[dict[str, Any]] | None = None
        """The chat's kept lines as last read from storage (``None``: read them again)."""
        self.chat_changes = 0
        """Chat lines said since the table was loaded (a read begun before one is not kept)."""
        self.lock = asyncio.Lock()
        self.bots = {
            s: make_bot(seat.bot or DEFAULT_LEVEL, config.seed + s)
            for s, seat in enumerate(config.seats)
            if seat.kind == "bot"
        }
        self._cover_bots: dict[int, Bot] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._generation = 0
        self._planned: tuple[int, str] | None = None
        self._timer: asyncio.TimerHandle | None = None
        """Wakes the planned automatic action: one timer per table, stopped when the plan changes."""
        self.closed = False
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._built_for: tuple[int, int] | None = None
        """The version and presence the STATE's parts below were built for."""
        self._public_text = ""
        self._seats_built: dict[int | None, tuple[str, list[str]]] = {}
        """Each recipient seat's own fields (JSON) and log entries."""
        self._presence_epoch = 0
        self._log_cache: LogCache = {}
        self._log_round = 0
        self._renamed: dict[int, float] = {}
        """When each seat last changed its name (``time.monotonic()``)."""
        self.turn_started = config.playing_since or time.time()
        """When the current turn began (seconds since the epoch): the turn timer counts from it."""

    # --- building -----------------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        code: str,
        config: TableConfig,
        actions: list[str],
        storage: Storage,
        pubsub: PubSub,
        timing: Timing,
        cluster: Cluster | None = None,
    ) -> Table:
        """Rebuild a table from its stored actions (replaying them through the engine)."""
        match = Match(config.rules, len(config.seats), config.seed)
        table = cls(code, config, storage, pubsub, timing, match, cluster)
        for action in actions:
            table._apply(action)
        return table

    def resume_clock(self, last_action: datetime | None) -> None:
        """Restart the turn clock where storage says the turn began (after a restart, not afresh)."""
        times = [t for t in (self.config.playing_since, last_action.timestamp() if last_action else None) if t]
        if times:
            self.turn_started = max(times)

    def turn_deadline(self) -> float | None:
        """When the seat to move loses its turn to its bot (seconds since the epoch), if it can."""
        timer, match = self.config.turn_timer, self.match
        if timer is None or self.status != "playing" or match.round.is_over() or self.automatic(match.to_move):
            return None
        return self.turn_started + timer

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
        seats = self.config.seats
        return Presence(
            names=tuple(seat.name for seat in seats),
            bots=tuple(self.config.bot_levels()),
            kinds=tuple(seat.kind for seat in seats),
            connected=tuple(seat.kind == "bot" or self.connections[s] > 0 for s, seat in enumerate(seats)),
            covered=tuple(s in self.covered for s in range(len(seats))),
        )

    @property
    def status(self) -> str:
        if self.match.is_over():
            return "finished"
        if self.config.playing_since is not None or not self.free_seats():
            return "playing"  # a seat reopened once the match began is played by a bot meanwhile
        return "waiting"

    def automatic(self, seat: int) -> bool:
        entry = self.config.seats[seat]
        return entry.kind == "bot" or seat in self.covered or entry.left or not entry.taken

    # --- messages -----------------------------------------------------------------------------

    def state_text(
        self, seat: int | None, events: list[dict[str, Any]], log_sent: LogSent | None = None
    ) -> tuple[str, LogSent]:
        """The ``state`` message for ``seat``, and what it leaves its recipient holding of the log.

        ``log_sent``: the log the recipient holds already (from the last state sent on its
        connection); the message carries only the entries after it (``log_from``). The fields
        every recipient shares are built once per version and presence, each seat's own once
        more: every connection of a seat (and every spectator) shares them, and only the events
        and the log's start differ.
        """
        if self._built_for != (self.version, self._presence_epoch):
            self._build_states()
        built = self._seats_built.get(seat)
        if built is None:  # no connection of this seat was here when the version was built
            built = self._seats_built[seat] = self._own_part(self.match.round.view(seat), self.presence())
        round_number = self._log_round
        own, entries = built
        start = 0
        if log_sent is not None and log_sent.round == round_number and log_sent.entries <= len(entries):
            start = log_sent.entries
        shown = dumps(events_for(events, seat))
        state = state_with_log(self._public_text, own, entries, start)
        return (
            f'{{"type":"state","version":{self.version},"state":{state},"events":{shown}}}',
            LogSent(round_number, len(entries)),
        )

    def _build_states(self) -> None:
        """The shared part of this version's STATE, and the own part of every seat connected here.

        Built at once and kept as text: the views they come from are dropped straight away, so the
        garbage collector never walks them (a kept view per table was a third of its walk).
        """
        self._built_for = (self.version, self._presence_epoch)
        self._seats_built.clear()
        round_number = self.match.round_number
        if self._log_round != round_number:
            self._log_cache.clear()  # entries of past rounds are never shown again
            self._log_round = round_number
        config, round_, presence = self.config, self.match.round, self.presence()
        public = round_.view(None)
        self._public_text = public_json(
            self.code,
            self.status,
            self.match,
            public,
            presence,
            open=config.open,
            creator=config.creator,
            public=config.public,
            left=[seat.left for seat in config.seats],
            turn_timer=config.turn_timer,
            turn_deadline=self.turn_deadline(),
            free_seats=self.free_seats(),
        )
        for seat, connected in enumerate(self.here):
            if connected:
                self._seats_built[seat] = self._own_part(seated(public, round_, seat), presence)
        if self.spectators:
            self._seats_built[None] = self._own_part(public, presence)

    def _own_part(self, view: SeatView, presence: Presence) -> tuple[str, list[str]]:
        """The recipient's own fields (JSON) and its log's entries (JSON texts)."""
        return seat_json(view), log_texts(self._log_round, view, presence, self._log_cache)

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

    async def _publish(self, events: list[dict[str, Any]], presence: bool = False) -> None:
        """Tell this process's connections."""
        if presence:
            self._presence_epoch += 1
        await self.pubsub.publish(self.channel(), {"version": self.version, "events": events})

    async def _tell_others(self, **what: Any) -> None:
        """Tell the other processes: the table's version, and what else changed (see docs/scale-out.md)."""
        if self.driving and what.get("presence"):
            what["covered"] = sorted(self.covered)  # the lease holder decides who is covered
        await self.cluster.pubsub.publish(
            self.channel(), {"version": self.version, "from": self.cluster.process, **what}
        )

    async def notify(self, notice: dict[str, Any]) -> None:
        """Tell every client, in every process, ``notice`` (a chat line, a rematch): no game action."""
        self._noticed(notice)
        await self.pubsub.publish(self.channel(), {"notice": notice})
        await self._tell_others(notice=notice)

    def relay(self, notice: dict[str, Any]) -> None:
        """Another process's :meth:`notify`: tell this process's clients."""
        self._noticed(notice)
        self._spawn(self.pubsub.publish(self.channel(), {"notice": notice}))

    def _noticed(self, notice: dict[str, Any]) -> None:
        if notice.get("type") == "chat":  # the kept lines changed: read them again for the next connection
            self.chat_kept = None
            self.chat_changes += 1

    # --- actions ------------------------------------------------------------------------------

    def check(self, seat: int | None, action: str, version: int | None) -> str:
        """The action in canonical form if ``seat`` may do it now; raises :class:`ProtocolError`."""
        match = self.match
        if self.closed:
            raise ProtocolError("the server is shutting down")
        if seat is None:
            raise ProtocolError("spectators cannot play")
        if version is not None and version != self.version:
            raise ProtocolError(f"stale version {version} (the table is at version {self.version})")
        if self.status == "waiting":
            raise ProtocolError("waiting for every player to join")
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
            judged, now = self.version, datetime.now(UTC)
            at = now.timestamp()
            refused: ProtocolError | None = None
            try:
                await self.storage.append_action(self.code, judged + 1, canonical, now)
            except VersionTaken:
                # Another process (or an earlier attempt whose commit went through after all) was first.
                await self._catch_up_or_refuse()
                refused = ProtocolError(f"stale version {judged} (the table is at version {self.version})")
            except Exception:
                log.exception("cannot store action %d of table %s", judged + 1, self.code)
                raise ProtocolError("the move could not be stored; try again") from None
            else:
                events = self._apply(canonical)
                self.turn_started = at  # as stored: a restart resumes the same clock
                await self._publish(events)
                # The stored action itself: the others apply it without reading it back.
                await self._tell_others(action=[canonical, at])
        self.schedule()
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
        self.schedule()

    async def _catch_up(self, heard: Mapping[int, StoredAction], latest: int | None = None) -> None:
        if self.closed:
            return
        events: list[dict[str, Any]] = []
        while (stored := heard.get(self.version + 1)) is not None:
            events += self._apply_stored(stored)
        if events:
            await self._publish(events)  # before a read that may fail
            events = []
        if latest is None or self.version < latest:
            for stored in await self.storage.load_actions(self.code, self.version):
                if stored.version != self.version + 1:
                    log.error("table %s: stored action %d follows version %d", self.code, stored.version, self.version)
                    break
                events += self._apply_stored(stored)
        if events:
            await self._publish(events)

    def _apply_stored(self, stored: StoredAction) -> list[dict[str, Any]]:
        events = self._apply(stored.action)
        if stored.at is not None:
            self.turn_started = stored.at.timestamp()
        return events

    async def _catch_up_or_refuse(self) -> None:
        try:
            await self._catch_up({})
        except Exception:
            log.exception("cannot catch up table %s", self.code)
            raise ProtocolError("the move could not be stored; try again") from None

    async def reload_config(self) -> None:
        """Read the configuration again (another process seated a player or gave a seat to a bot)."""
        async with self.lock:  # read under the lock: a change of this process is not undone by an older read
            data = await self.storage.load_config(self.code)
            if data is None:
                return
            self._adopt(TableConfig.from_json(data))
            await self._publish([], presence=True)
        self.schedule()

    def _adopt(self, config: TableConfig) -> None:
        """Take ``config`` (as stored) as the table's configuration."""
        for seat, entry in enumerate(config.seats):
            if entry.kind == "bot" and seat not in self.bots:
                self.bots[seat] = make_bot(entry.bot or DEFAULT_LEVEL, config.seed + seat)
                self.covered.discard(seat)
        if config.playing_since is not None and self.config.playing_since is None:
            self.turn_started = config.playing_since
        self.config = config
        self._log_cache.clear()  # the log names the seats

    async def refresh_presence(self, events: list[dict[str, Any]], covered: list[int] | None) -> None:
        """Count the sockets again (another process's came or went) and tell the connections.

        ``covered``: the seats the lease holder covers, when it says so.
        """
        if covered is not None:
            self.covered = {seat for seat in covered if 0 <= seat < len(self.config.seats)}
        await self._recount(list(self.connections))
        await self._publish(events, presence=True)
        self.schedule()

    async def _recount(self, fallback: list[int]) -> None:
        """The sockets of every process; ``fallback`` (the seats' counts) if they cannot be read."""
        seats = len(self.config.seats)
        try:
            counts = await self.cluster.connections.counts(self.code, seats + 1)  # the last: spectators
        except Exception as exc:
            log.warning("table %s: connections not counted (%s)", self.code, exc)
            counts = [*fallback, max(self.audience, self.spectators)]
        # This process's own sockets count even when the shared count has not heard of them yet
        # (a recount may run between a socket's arrival here and its announcement).
        counts = [max(count, here) for count, here in zip(counts, [*self.here, self.spectators], strict=True)]
        for seat in range(seats):
            if counts[seat] > 0:
                self.covered.discard(seat)
                if (task := self._grace.pop(seat, None)) is not None:
                    task.cancel()
            elif self.connections[seat] > 0 and self.driving and not self.closed and seat not in self._grace:
                self._grace[seat] = asyncio.create_task(self._cover_later(seat))
        self.connections, self.audience = counts[:seats], counts[seats]
        self._presence_epoch += 1

    @property
    def driving(self) -> bool:
        """This process does the table's timed work (it holds the lease, or it is alone)."""
        return self.keeper is None or self.keeper.hold is not None

    def lease_changed(self, held: bool) -> None:
        """The table's lease was won (plan the timed work) or lost (drop it)."""
        if held:
            self._spawn(self.refresh_presence([], None))  # seats of a process that died are counted out
            return
        self._drop_plan()
        for task in self._grace.values():
            task.cancel()
        self._grace.clear()

    async def hint(self, seat: int | None) -> tuple[Move, Said]:
        if seat is None or not self.match.round.view(seat).my_turn:
            raise ProtocolError("a hint is for the seat to move", Said.of(Code.ERROR_HINT_NOT_YOUR_TURN))
        return await asyncio.to_thread(hint_for, self.match.round.view(seat))

    # --- presence -----------------------------------------------------------------------------

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [s for s, seat in enumerate(self.config.seats) if seat.kind == "human" and not seat.taken]

    async def change_config(
        self, change: Callable[[TableConfig], None], events: list[dict[str, Any]] | None = None
    ) -> None:
        """Apply ``change`` to the stored configuration (whatever other processes changed meanwhile),
        adopt the result and tell every client, with ``events``; the first turn's clock starts once
        every human seat is taken. Called holding :attr:`lock` (:meth:`schedule` after)."""

        def edit(data: dict[str, Any]) -> dict[str, Any]:
            config = TableConfig.from_json(data)
            change(config)
            if config.playing_since is None and all(s.taken for s in config.seats if s.kind == "human"):
                config.playing_since = time.time()
            return config.to_json()

        self._adopt(TableConfig.from_json(await self.storage.edit_config(self.code, edit)))
        await self._publish(events or [], presence=True)
        await self._tell_others(config=True, events=events or [])

    async def seated(self, seat: int, name: str) -> None:
        """Record that a player now holds ``seat`` (its credential was issued) under ``name``."""

        def take(config: TableConfig) -> None:
            config.seats[seat].taken = True
            if name:
                config.seats[seat].name = name

        async with self.lock:
            await self.change_config(take)
        self.schedule()

    async def rename(self, seat: int | None, name: str) -> None:
        """A seated player's new name (checked plain text), stored and announced to every client.

        Raises :class:`ProtocolError` for a spectator, a bot's seat, a name changed too recently, or
        a store that cannot keep it.
        """
        async with self.lock:
            if seat is None or self.config.seats[seat].kind != "human":
                raise ProtocolError(
                    "only a player at the table can change their name", Said.of(Code.ERROR_RENAME_SPECTATOR)
                )
            entry = self.config.seats[seat]
            if entry.name == name:
                return
            wait = self._renamed.get(seat, -RENAME_SECONDS) + RENAME_SECONDS - time.monotonic()
            if wait > 0:
                seconds = math.ceil(wait)
                raise ProtocolError(
                    f"you changed your name a moment ago: try again in {seconds} s",
                    Said.of(Code.ERROR_RENAME_WAIT, seconds=seconds),
                )
            # A seat without a name was shown by its default name, in each reader's language.
            old = entry.name if entry.name is not None else Said.of(Code.SEAT_DEFAULT, number=seat + 1)
            renamed = Said.of(Code.EVENT_RENAMED, seat=seat, old=old)

            def named(config: TableConfig) -> None:
                config.seats[seat].name = name

            try:
                await self.change_config(named, [{"kind": "renamed", "seat": seat, "move": None} | renamed.wire()])
            except Exception:
                log.exception("cannot store a new name at table %s", self.code)
                raise ProtocolError(
                    "your name could not be stored; try again shortly", Said.of(Code.ERROR_NAME_NOT_STORED)
                ) from None
            self._renamed[seat] = time.monotonic()

    async def replace_with_bot(self, seat: int, level: str, revoke: Callable[[], Awaitable[None]]) -> None:
        """Hand an absent player's seat to a bot for the rest of the match, after ``revoke`` of its credential.

        Refuses (409) the creator's seat, a bot's, or a connected player's.
        """
        async with self.lock:
            entry = self.config.seats[seat]
            if entry.kind != "human" or seat == self.config.creator:
                raise Refused(409, Said.of(Code.ERROR_NOT_FRIENDS_SEAT, number=seat))
            if self.connections[seat]:
                raise Refused(409, Said.of(Code.ERROR_SEAT_CONNECTED, number=seat))
            await revoke()

            def to_bot(config: TableConfig) -> None:
                config.seats[seat] = Seat("bot", bot=level, taken=True)

            await self.change_config(to_bot)
        self.schedule()

    def idle(self) -> bool:
        """Nobody is connected to any process: the table pauses (bots too)."""
        return max(self.audience, self.spectators) == 0 and not any(self.connections)

    def watched_here(self) -> bool:
        """Someone is connected to this process (otherwise the table may leave its memory)."""
        return self.spectators > 0 or any(self.here)

    def arrive(self, seat: int | None) -> None:
        """Count a new connection of ``seat`` (before its first state is built); hand a covered seat back."""
        self._presence_epoch += 1
        if seat is None:
            self.spectators += 1
            return
        self.here[seat] += 1
        self.connections[seat] += 1
        if (task := self._grace.pop(seat, None)) is not None:
            task.cancel()
        self.covered.discard(seat)

    def _slot(self, seat: int | None) -> int:
        """Where ``seat``'s sockets are counted: spectators after the seats."""
        return len(self.config.seats) if seat is None else seat

    async def announce(self, seat: int | None) -> None:
        """Tell everyone that ``seat`` connected (after :meth:`arrive`)."""
        await self.cluster.connections.arrive(self.code, self._slot(seat))
        await self._recount(list(self.connections))
        if seat is None:
            await self._tell_others(presence=True, events=[])
            self.schedule()  # a spectator alone also wakes a paused table
            return
        if self.config.seats[seat].left:  # back after leaving: the seat is theirs again

            def back(config: TableConfig) -> None:
                config.seats[seat].left = False

            async with self.lock:
                await self.change_config(back)
        connected = [{"kind": "connected", "seat": seat, "move": None}]
        await self._publish(connected, presence=True)
        await self._tell_others(presence=True, events=connected)
        self.schedule()

    async def disconnect(self, seat: int | None) -> None:
        if seat is None:
            self.spectators -= 1
        else:
            self.here[seat] -= 1
        await self.cluster.connections.leave(self.code, self._slot(seat))
        fallback = list(self.connections)
        if seat is not None:
            fallback[seat] = self.here[seat]
        await self._recount(fallback)  # a seat left by all its sockets is covered after the grace period
        if seat is None:
            await self._tell_others(presence=True, events=[])
        elif self.connections[seat] == 0:
            disconnected = [{"kind": "disconnected", "seat": seat, "move": None}]
            await self._publish(disconnected, presence=True)
            await self._tell_others(presence=True, events=disconnected)

    async def _cover_later(self, seat: int) -> None:
        await asyncio.sleep(self.timing.grace)
        self._grace.pop(seat, None)
        if self.connections[seat] == 0 and self.driving:
            self.covered.add(seat)
            await self._publish([], presence=True)
            await self._tell_others(presence=True, events=[])
            self.schedule()

    # --- automatic play -----------------------------------------------------------------------

    def _due(self) -> tuple[str, float, Callable[[int], Awaitable[None]]] | None:
        """The automatic action the table waits for now, with its pause; ``None`` when it waits for a person."""
        match = self.match
        if self.closed or not self.driving or self.idle() or match.is_over() or self.status == "waiting":
            return None
        if match.round.is_over():
            if any(self.automatic(s) for s in range(len(self.config.seats))):
                return "next_round", self.timing.next_round_delay, self._next_round
            return None
        if self.automatic(match.to_move):
            return "bot", self.timing.bot_delay, self._bot_move
        if match.round.forced_move() is not None:
            return "forced", self.timing.forced_delay, self._forced_move
        if (deadline := self.turn_deadline()) is not None:
            return "turn_timer", max(0.0, deadline - time.time()), self._bot_move
        return None

    def schedule(self) -> None:
        """Plan the next automatic action (a bot's or covered seat's move, a forced move, a new round).

        A plan already pending for the same version and the same kind of action stands: arrivals
        and departures do not restart its pause. A newer plan stops the older one's timer; an action
        already under way is never cancelled (it could be mid-write): it gives up when it sees the
        generation moved on.
        """
        due = self._due()
        key = None if due is None else (self.version, due[0])
        if key is not None and key == self._planned:
            return
        self._drop_plan()
        self._planned = key
        if due is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(due[1], self._wake, self._generation, due[2])

    def _drop_plan(self) -> None:
        # A timer rather than a sleeping task per plan: a table with a turn timer plans at every
        # version, and thousands of tasks asleep for a minute each were a large part of the heap.
        self._generation += 1
        self._planned = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self, generation: int, action: Callable[[int], Awaitable[None]]) -> None:
        self._timer = None
        self._spawn(self._perform(generation, action))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _perform(self, generation: int, action: Callable[[int], Awaitable[None]]) -> None:
        if generation != self._generation or not self.driving:
            return
        try:
            await action(generation)
        except ProtocolError:
            pass  # the table moved on meanwhile, or the action could not be stored
        except Exception:
            log.exception("automatic action failed at table %s", self.code)
        finally:
            if generation == self._generation:
                self._planned = None  # nothing is pending any more: the next schedule() plans afresh

    async def _next_round(self, _generation: int) -> None:
        seat = next(s for s in range(len(self.config.seats)) if self.automatic(s))
        await self.act(seat, NEXT_ROUND, self.version)

    async def _forced_move(self, _generation: int) -> None:
        forced = self.match.round.forced_move()
        if forced is not None:
            await self.act(self.match.to_move, str(forced), self.version)

    async def _bot_move(self, generation: int) -> None:
        """A bot's move: for a bot seat, a covered seat, or a human whose turn timer ran out."""
        seat, version = self.match.to_move, self.version
        bot = self.bots[seat] if self.config.seats[seat].kind == "bot" else self._cover_bot(seat)
        view = self.match.view(seat)
        budget = Budget(seconds=self.timing.bot_seconds) if self.timing.bot_seconds is not None else None
        move = await asyncio.to_thread(bot.choose, view, budget)
        # The seat's owner may have come back, or moved, while the bot thought.
        deadline = self.turn_deadline()
        timed_out = deadline is not None and time.time() >= deadline
        current = generation == self._generation and version == self.version and self.driving
        if current and (self.automatic(seat) or timed_out):
            await self.act(seat, str(move), version)

    def _cover_bot(self, seat: int) -> Bot:
        if seat not in self._cover_bots:
            self._cover_bots[seat] = make_bot(self.timing.cover_bot, self.config.seed + seat)
        return self._cover_bots[seat]

    async def close(self) -> None:
        """Stop automatic play; waits for an action being stored, so none is cut off mid-write."""
        async with self.lock:
            self.closed = True
            self._drop_plan()
            for task in [*self._tasks, *self._grace.values()]:
                task.cancel()

"""The commands a table handles, one at a time: the one way to change a table.

Whoever wants a table changed (a connection, an HTTP route, the Bot API, the sync room following
the other processes, the table's own automatic play) submits one of these with
:meth:`Table.submit <chickenfoot.server.table.actor.Table.submit>` and awaits its answer. The table takes
them from its mailbox in order and handles each to its end before the next: check, store, apply,
publish, then plan its automatic play. A command a person sent is refused when the table's mailbox is
full (:attr:`Command.bounded`); the table's own and the cluster's are always taken. One command waits
for nothing and is handled on arrival instead, between two steps of the command in progress
(:attr:`Command.at_once`): a connection attaching, so it hears everything published from the moment
it comes (a chat line being stored for someone else does not keep it waiting), and the table closing,
so a connection coming a moment later finds it closed (the command in progress still ends as it would:
an action being stored is never cut off).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from chickenfoot.server.storage import StoredAction
from chickenfoot.server.table.ports import Covering, Events, Listener, Peers, TableMaker, TableView, Unsubscribe
from chickenfoot.server.table.protocol import ChatMessage, ReactMessage

R = TypeVar("R")
Revoke = Callable[[], Awaitable[None]]
"""Makes a seat's credential and invite open nothing (done before the seat changes hands)."""


class Command(Generic[R]):
    """A request to a table, answered with an ``R`` once handled."""

    __slots__ = ()
    bounded: ClassVar[bool] = True
    """Refused when the table's mailbox is full (a person's request); else always taken."""
    at_once: ClassVar[bool] = False
    """Handled on arrival, without waiting for anything (it changes nothing another command reads
    across a wait)."""


# --- play ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Command[None]):
    """``seat`` plays ``action`` (a move in notation, or the next round) chosen at ``version``."""

    seat: int | None
    action: str
    version: int | None = None


@dataclass(frozen=True, slots=True)
class NextRound(Command[None]):
    """A seated person deals the next round."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class PlayAutomatically(Command[None]):
    """The table's automatic play: ``action`` for ``seat`` at ``version``, if ``still_due()`` in its turn."""

    bounded: ClassVar[bool] = False
    seat: int
    action: str
    version: int
    still_due: Callable[[], bool] | None = None


@dataclass(frozen=True, slots=True)
class TimeRanOut(Command[None]):
    """At a turn-based table, ``seat``'s time ran out at ``version``: the table's rule says what follows
    (a bot replaces the player, or the match is lost on time), if it is still so in the table's turn."""

    bounded: ClassVar[bool] = False
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class SetAway(Command[None]):
    """``seat``'s player is on vacation from ``since`` to ``until`` (wall times; ``None``: back): their
    turn-based clock stands meanwhile, and everyone sees it."""

    bounded: ClassVar[bool] = False
    seat: int
    since: float | None
    until: float | None


@dataclass(frozen=True, slots=True)
class Cover(Command[None]):
    """The grace of ``seat``'s player is over: a bot covers the seat if nobody came back."""

    bounded: ClassVar[bool] = False
    seat: int


@dataclass(frozen=True, slots=True)
class Wake(Command[None]):
    """Nothing to change: plan the automatic play afresh (a table just added, the store back)."""

    bounded: ClassVar[bool] = False


# --- presence -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attached:
    """The answer to :class:`Attach`: how the connection stops hearing the table."""

    unsubscribe: Unsubscribe


@dataclass(frozen=True, slots=True)
class Attach(Command[Attached]):
    """A connection of ``seat`` (``None``: a spectator) comes: counted, subscribed, and given its
    first state (the events after ``since`` when it had seen that version); refused with
    :class:`~chickenfoot.server.table.actor.TableClosed` by a table that closed. Handled at once; the
    table then announces the arrival (:class:`Announce`, in its turn)."""

    at_once: ClassVar[bool] = True
    seat: int | None
    listener: Listener
    since: int | None = None
    watching: str | None = None


@dataclass(frozen=True, slots=True)
class Announce(Command[None]):
    """Tell everyone, in every process, that a connection of ``seat`` came (the table's own, after
    :class:`Attach`)."""

    bounded: ClassVar[bool] = False
    seat: int | None
    first: bool
    """The seat had no connection before this one: everyone is told it connected (else only the seat's
    devices learn that they are one more)."""


@dataclass(frozen=True, slots=True)
class Detach(Command[None]):
    """A connection of ``seat`` ended."""

    bounded: ClassVar[bool] = False
    seat: int | None


# --- seats and configuration ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Take(Command[None]):
    """A player now holds ``seat`` (its credential was issued) under ``name`` (``""``: none chosen);
    ``ready``: ready for the first deal already (a rematch's players accepted it)."""

    seat: int
    name: str
    ready: bool = True


@dataclass(frozen=True, slots=True)
class Leave(Command[None]):
    """The player of ``seat`` leaves: a bot plays it until they come back."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reopen(Command[None]):
    """The creator frees an absent player's ``seat`` for someone else (after ``revoke``)."""

    seat: int
    revoke: Revoke


@dataclass(frozen=True, slots=True)
class ReplaceWithBot(Command[None]):
    """The creator hands an absent player's ``seat`` to a bot at ``level`` (after ``revoke``)."""

    seat: int
    level: str
    revoke: Revoke


@dataclass(frozen=True, slots=True)
class CoverUnclaimed(Command[None]):
    """A bot at ``level`` takes ``seat`` if nobody ever took it (quick play's player left first)."""

    seat: int
    level: str
    revoke: Revoke


@dataclass(frozen=True, slots=True)
class Ready(Command[None]):
    """The player of ``seat`` is ready for the first deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class StartWithBots(Command[None]):
    """The creator starts now: bots at ``level`` in the seats nobody took (each ``revoke(seat)`` first)."""

    level: str
    revoke: Callable[[int], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class SeatBotAccount(Command[None]):
    """A bot account sat at ``seat``: shown with the BOT tag, and ready (it has no button to press)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetPublic(Command[None]):
    """List the table in the lobby (a public table is open), or take it off (invite-only again)."""

    public: bool


@dataclass(frozen=True, slots=True)
class Rename(Command[None]):
    """The player of ``seat`` changes their name."""

    seat: int | None
    name: str


# --- messages ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Say(Command[None]):
    """A chat line or a reaction from ``seat`` (``None``: a spectator), said by the account ``speaker``
    (``None``: a guest)."""

    seat: int | None
    request: ChatMessage | ReactMessage
    speaker: int | None = None


@dataclass(frozen=True, slots=True)
class Notify(Command[None]):
    """Tell every client, in every process, ``notice`` (a rating change): no game action."""

    bounded: ClassVar[bool] = False
    notice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AcceptRematch(Command[dict[str, Any]]):
    """``seat`` accepts a rematch; the last acceptance makes the new table (with ``tables``)."""

    seat: int
    tables: TableMaker


@dataclass(frozen=True, slots=True)
class SeatMoved(Command[None]):
    """``seat`` moved to the device holding the credential of digest ``credential``: its other
    connections (by an older credential or by an account's session), in every process, end and come
    back watching (:mod:`chickenfoot.server.handover`)."""

    seat: int
    credential: str


# --- following the other processes ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CatchUp(Command[None]):
    """Apply the actions other processes stored: ``heard`` (announced, by version) without reading
    them back, the rest up to ``latest`` (all, when ``None``) from storage."""

    bounded: ClassVar[bool] = False
    heard: Mapping[int, StoredAction]
    latest: int | None = None


@dataclass(frozen=True, slots=True)
class ReloadConfig(Command[None]):
    """Read the configuration again (another process changed it)."""

    bounded: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Recount(Command[None]):
    """Count the sockets again (another process's came or went) and tell the connections, with ``events``;
    ``covered`` and ``grace``: the lease holder's decisions, when it said them."""

    bounded: ClassVar[bool] = False
    events: Events
    covered: list[int] | None = None
    grace: dict[int, float] | None = None


@dataclass(frozen=True, slots=True)
class LeaseChanged(Command[None]):
    """The table's lease was won (plan the timed work) or lost (drop it)."""

    bounded: ClassVar[bool] = False
    held: bool


@dataclass(frozen=True, slots=True)
class Relay(Command[None]):
    """Another process's notice or seat move: tell this process's connections."""

    bounded: ClassVar[bool] = False
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class End(Command[bool]):
    """An operator ends the table (server/moderation): unless its match is over (``False``: a finished
    match is history), it is deleted from storage with everything of it, and its connections, in every
    process, are told and closed; the registry lets it go."""

    bounded: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Ended(Command[None]):
    """Another process ended the table (:class:`End`): this process's connections are told and closed."""

    bounded: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Close(Command[None]):
    """Stop the table: no automatic play, no action from now on. Handled at once."""

    at_once: ClassVar[bool] = True


# --- who submits them ---------------------------------------------------------------------------


class TableHandle(TableView, Protocol):
    """A table as the edge and the features use it: read it, and submit commands."""

    async def submit(self, command: Command[R]) -> R:
        """Hand ``command`` to the table; returns its answer once the table has handled it (raises
        what the table refused it with)."""
        ...


class Followed(TableHandle, Protocol):
    """What the sync room sees of its table: its reads, its commands, and the lease holder's decisions."""

    def tell(self, command: Command[Any]) -> None: ...
    def covering(self) -> Covering: ...


class Following(Peers, Protocol):
    """The peers of one table that follow the other processes for it while it is in memory
    (:class:`~chickenfoot.server.cluster.sync.TableSync`)."""

    def follow(self, table: Followed) -> None:
        """Start following, for ``table`` (built with these peers)."""
        ...

    async def stop(self) -> None:
        """Stop following (the table left memory)."""
        ...

"""What a table's collaborators may see of it, and what it sees of the world: narrow, declared ports.

A collaborator never gets the whole :class:`~chickenfoot.server.table.actor.Table`. It gets the port it
needs: what it may read, and what it may ask (in the table's turn). The table sees the fan-out to
this process's connections, the other processes and the connection counts through ports it declares
here too, implemented above it by the cluster (:mod:`chickenfoot.server.cluster`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from chickenfoot.match import Match
from chickenfoot.server.clock import Clock
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.config import TableConfig, Timing
from chickenfoot.server.table.protocol import LogSent, Presence

Events = list[dict[str, Any]]
Message = dict[str, Any]
"""A message on a channel: JSON-ready."""
Subscriber = Callable[[Message], None]
Unsubscribe = Callable[[], None]


def table_channel(code: str) -> str:
    """The channel of table ``code``'s news."""
    return f"table:{code}"


class Publisher(Protocol):
    """Carries a table's news to this process's connections (:class:`~chickenfoot.server.cluster.fanout.LocalBus`)."""

    async def publish(self, channel: str, message: Message, /) -> None:
        """Deliver ``message`` to every current subscriber of ``channel``, in publish order."""
        ...

    def subscribe(self, channel: str, callback: Subscriber, /) -> Unsubscribe:
        """Call ``callback`` (synchronously: it only enqueues) with each message on ``channel`` from now on."""
        ...


class TableView(Protocol):
    """What anyone may read of a table (between two of its commands it does not change)."""

    @property
    def code(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def config(self) -> TableConfig: ...
    @property
    def match(self) -> Match: ...
    @property
    def status(self) -> str: ...
    @property
    def closed(self) -> bool: ...

    def presence(self) -> Presence: ...
    def free_seats(self) -> list[int]: ...


class Counts(Protocol):
    """Who is at a table, as last counted (read only)."""

    @property
    def epoch(self) -> int: ...
    @property
    def connections(self) -> list[int]: ...
    @property
    def here(self) -> list[int]: ...
    @property
    def spectators(self) -> int: ...

    def watching(self) -> int: ...
    def idle(self) -> bool: ...


class StateSource(TableView, Protocol):
    """What the ``state`` texts are built from (:mod:`chickenfoot.server.table.state_texts`)."""

    @property
    def counts(self) -> Counts: ...

    def turn_deadline(self) -> float | None: ...
    def graces(self) -> list[float | None]:
        """When each seat whose player has gone is covered (``None``: no countdown)."""
        ...


class ConfigPort(TableView, Protocol):
    """What a configuration change may read and ask, in the table's turn (seats, readiness, renaming,
    company, rematch)."""

    @property
    def counts(self) -> Counts: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def storage(self) -> Storage: ...

    def winners(self) -> list[int]:
        """The seats that won the finished match (the other player of one lost on time)."""
        ...

    async def change_config(self, change: Callable[[TableConfig], None], events: Events | None = None) -> None:
        """Apply ``change`` to the stored configuration and tell every client (with ``events``)."""
        ...

    async def notify(self, notice: dict[str, Any]) -> None:
        """Tell every client, in every process, ``notice`` (a chat line, a rematch)."""
        ...


class AutoplayPort(TableView, Protocol):
    """What automatic play reads of its table, and what it asks of it (:mod:`chickenfoot.server.table.autoplay`)."""

    @property
    def timing(self) -> Timing: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def driving(self) -> bool: ...
    @property
    def counts(self) -> Counts: ...

    def automatic(self, seat: int) -> bool: ...
    def covered(self, seat: int) -> bool: ...
    def turn_deadline(self) -> float | None: ...
    def plays_unwatched(self) -> bool:
        """The match goes on with nobody connected (a rated match a person is absent from)."""
        ...

    def time_ran_out(self, seat: int, version: int) -> None:
        """At a turn-based table: ``seat``'s time ran out at ``version``; the table applies its rule."""
        ...

    async def play(self, seat: int, action: str, version: int, still_due: Callable[[], bool] | None = None) -> None:
        """Submit an automatic action, played only if ``still_due()`` holds in the table's turn."""
        ...

    def cover(self, seat: int) -> None:
        """Ask the table to have a bot cover ``seat`` (its grace is over)."""
        ...

    def covering_changed(self) -> None:
        """Tell the other processes who is covered and when each grace ends (a grace started)."""
        ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the table (cancelled when the table closes)."""
        ...


Covering = tuple[list[int], list[tuple[int, float]]]
"""What the lease holder decided: the seats it covers, and when each grace ends (seat, wall time)."""


class Peers(Protocol):
    """The other processes serving a table (:class:`chickenfoot.server.cluster.sync.TableSync`), or none."""

    @property
    def driving(self) -> bool:
        """This process does the table's timed work (it holds the table's lease, or is alone)."""
        ...

    async def action_stored(self, version: int, action: str, at: float) -> None: ...
    async def config_changed(self, version: int, events: Events) -> None: ...
    async def presence(self, version: int, events: Events, covering: Covering | None) -> None:
        """Someone came or went (``covering``: the lease holder's decisions, from the holder only)."""
        ...

    async def notice(self, version: int, notice: dict[str, Any]) -> None: ...
    async def seat_moved(self, version: int, seat: int, credential: str) -> None: ...
    async def table_ended(self, version: int) -> None:
        """An operator ended the table: it was deleted (server/moderation)."""
        ...


class Alone:
    """The peers of a process that serves alone: nobody to tell, and it drives every table."""

    driving = True

    async def action_stored(self, version: int, action: str, at: float) -> None:
        return None

    async def config_changed(self, version: int, events: Events) -> None:
        return None

    async def presence(self, version: int, events: Events, covering: Covering | None) -> None:
        return None

    async def notice(self, version: int, notice: dict[str, Any]) -> None:
        return None

    async def seat_moved(self, version: int, seat: int, credential: str) -> None:
        return None

    async def table_ended(self, version: int) -> None:
        return None


ALONE = Alone()


class SocketCounts(Protocol):
    """The sockets of each seat of each table, over every process (:mod:`chickenfoot.server.cluster.connections`)."""

    async def arrive(self, code: str, seat: int) -> None: ...
    async def leave(self, code: str, seat: int) -> None: ...
    async def counts(self, code: str, seats: int) -> list[int]: ...
    async def graces(self, code: str) -> dict[int, float]:
        """When each absent seat of the table is (or was) covered, as last kept (wall time)."""
        ...

    async def keep_graces(self, code: str, graces: dict[int, float]) -> None:
        """Keep the table's grace deadlines with its counts: a read-back continues them."""
        ...


class Listener(Protocol):
    """A connection attached to a table (:class:`~chickenfoot.server.table.commands.Attach`)."""

    def attached(self, first: str, log_sent: LogSent) -> None:
        """The connection's first ``state`` text: sent before anything published after it."""
        ...

    def on_change(self, message: dict[str, Any]) -> None:
        """A message on the table's channel of this process (a new version, a notice)."""
        ...


class DeadlineKeeper(Protocol):
    """Where a turn-based table keeps what it waits for next (:class:`~.deadlines.DeadlineBook`)."""

    async def keep(self, code: str, version: int, due: float | None, seat: int | None) -> None:
        """Table ``code`` waits, at ``version``, for what is due at ``due`` (``None``: for nothing): the
        time of ``seat``'s player running out, or (``seat`` ``None``) an automatic action."""
        ...


class TurnNews(Protocol):
    """Tells the players of a turn-based table, wherever they are, that it is their turn or that a chat
    line was said there (through the notifications)."""

    async def your_turn(self, code: str, seat: int, turn: int) -> None: ...
    async def chat_line(self, code: str, seat: int | None, name: str, number: int) -> None: ...


class NoNews:
    """:class:`TurnNews` that tells nobody (a server without notifications, a unit test)."""

    async def your_turn(self, code: str, seat: int, turn: int) -> None:
        return None

    async def chat_line(self, code: str, seat: int | None, name: str, number: int) -> None:
        return None


NO_NEWS = NoNews()


class TableMaker(Protocol):
    """What a rematch needs of the registry of tables: a seed, and a new table."""

    def seeds(self) -> int: ...
    async def create(self, config: TableConfig) -> TableView: ...

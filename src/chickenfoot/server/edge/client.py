"""One client's connection to a table, over either transport (:mod:`.transport`): a bounded outbox for
everything sent to it, its message budget, and its end; and the page's WebSocket served with it.

Everything the server sends a client (its replies, its errors, the table's broadcasts) goes through
one :class:`Outbox`. The outbox holds at most one pending ``state`` (a newer one supersedes it; the
text is built when it is sent, so a slow client costs no copies) and a fixed number of other
messages, so the memory one client can hold in this process is bounded whatever it does. A client
that keeps sending over its budget, or stops reading, is sent one final ``error`` and disconnected.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.live import SessionWatch
from chickenfoot.server.clock import Clock, Timer, deadline
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest
from chickenfoot.server.edge.transport import TableGone, Transport, attend
from chickenfoot.server.handover import SEAT_ELSEWHERE
from chickenfoot.server.http.caps import Hold, OpenHolds, Scope
from chickenfoot.server.http.security import SESSION_COOKIE
from chickenfoot.server.http.tables import no_table
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import StorageUnavailable
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.chat import Listener, SentLines, heard
from chickenfoot.server.table.commands import Attach, CatchUp, Detach
from chickenfoot.server.table.hints import HintSource
from chickenfoot.server.table.ports import Message
from chickenfoot.server.table.protocol import (
    MAX_FRAME_BYTES,
    ConnectQuery,
    LogSent,
    dumps,
    error_message,
    mute_message,
    one_line,
    parse_client_message,
)
from chickenfoot.server.table.registry import TableRegistry, possible_code
from chickenfoot.server.table.requests import ChatGate, SeatChatGate, handle

CLOSE_NO_TABLE = 4404
"""No such table, or an operator ended it (server/moderation): the client does not come back."""
CLOSE_BAD_TOKEN = 4403
"""An unknown or revoked credential, or a page of a foreign origin."""
CLOSE_BAD_QUERY = 4400
CLOSE_TOO_BIG = 1009
CLOSE_FLOODING = 4429
"""The client kept sending more messages than its budget allows."""
CLOSE_NOT_READING = 4408
"""The client stopped reading: a message waited longer than the send timeout."""
CLOSE_SIGNED_OUT = 4401
"""The session that seated the client ended (server/accounts/live.py): the client reconnects and watches."""
CLOSE_SEAT_ELSEWHERE = 4409
"""The seat's credential moved to another device (server/handover.py): the client reconnects and watches."""
CLOSE_TRY_LATER = 1013
"""The game store is unavailable; the client may reconnect shortly."""
CLOSE_TOO_MANY_OPEN = 4430
"""As many sockets are open as the seat or the account may hold, found once the credential is looked up
(server/http/caps.py); the caps known before the upgrade refuse it with an HTTP answer instead (:class:`Admission`)."""
SOCKET_PATH = "/ws/"
"""Where a table's WebSocket is: ``/ws/{code}``."""
MAX_MERGED_EVENTS = 500
"""Events carried by coalesced states; beyond that the client gets the snapshot alone (``events: []``)."""
FINAL_SEND_SECONDS = 10.0
"""How long the final error and close may wait for a client that does not read (its table has let go of it)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one connection may cost: its message budget and what may wait for it."""

    rate_burst: int = 20
    rate_per_second: float = 10.0
    max_pending: int = 32
    """Replies and notices waiting for one client; beyond that the server stops reading from it."""
    send_timeout: float = 5.0
    """Seconds one message may wait for the client to read before it is disconnected as not reading."""
    chat_burst: int = 5
    chat_per_second: float = 0.5
    """Chat lines and reactions: ``chat_burst`` at once, then one every two seconds (within the message budget)."""


Listening = Callable[[int | None], Awaitable[Listener]]
"""Who listens at a connection to ``seat`` (``None``: watching): the account behind it and those it blocks."""
MuteWatch = Callable[[int, Callable[[str | None], None]], Awaitable[Callable[[], None]]]
"""Watches an account's mute in chat (server/moderation/mutes.py): calls its second argument with the mute's
end when it is muted now, and with each change (``None``: lifted); returns the function that stops watching."""


class TokenBucket:
    """An allowance: ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, burst: int, rate: float, clock: Clock) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.stamp = clock.monotonic()

    def take(self) -> bool:
        now = self.clock.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _PendingState:
    """The place of the next ``state`` in the outbox, with the events it will carry."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] | None = []
        """``None``: too many to carry, the state goes out as a snapshot."""


class Outbox:
    """What waits to be sent to one client, in order: at most one state and ``limit`` other messages."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: deque[str | _PendingState] = deque()
        self._state: _PendingState | None = None
        self._others = 0
        self._ready = asyncio.Event()
        self._space = asyncio.Event()
        self._space.set()

    def put_state(self, events: list[dict[str, Any]]) -> None:
        """A newer state (with the events that led to it) supersedes the one waiting, if any."""
        if self._state is None:
            self._state = _PendingState()
            self._items.append(self._state)
            self._ready.set()
        pending = self._state
        if pending.events is not None:
            pending.events.extend(events)
            if len(pending.events) > MAX_MERGED_EVENTS:
                pending.events = None

    def put(self, text: str) -> bool:
        """Queue a message; ``False`` (dropped) when ``limit`` are already waiting."""
        if self._others >= self.limit:
            return False
        self._items.append(text)
        self._others += 1
        self._ready.set()
        if self._others >= self.limit:
            self._space.clear()
        return True

    async def wait_for_space(self) -> None:
        await self._space.wait()

    async def get(self) -> str | list[dict[str, Any]]:
        """The next message, or the events of the next state (to be built when it is sent)."""
        while not self._items:
            self._ready.clear()
            await self._ready.wait()
        item = self._items.popleft()
        if isinstance(item, str):
            self._others -= 1
            self._space.set()
            return item
        self._state = None
        return item.events if item.events is not None else []


class SendWatch:
    """The connections in the middle of a send, looked at every ``CHECK_SECONDS``: one whose message
    has waited longer than its ``send_timeout`` is cut off as not reading.

    One watch per process rather than a timer per message: a send almost always completes at once,
    and arming and cancelling a timer for each one cost more than the send's own Python.
    """

    CHECK_SECONDS = 0.5

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._due: dict[Connection, float] = {}
        self._check: Timer | None = None

    def start(self, connection: Connection) -> None:
        self._due[connection] = self.clock.monotonic() + connection.limits.send_timeout
        if self._check is None:
            self._check = self.clock.call_later(self.CHECK_SECONDS, self._look)

    def stop(self, connection: Connection) -> None:
        self._due.pop(connection, None)

    def _look(self) -> None:
        now = self.clock.monotonic()
        for connection, due in list(self._due.items()):
            if due < now:
                del self._due[connection]
                connection.stalled()
        self._check = self.clock.call_later(self.CHECK_SECONDS, self._look) if self._due else None


class Connection:
    """One client at one table, from its first state to its last message."""

    def __init__(
        self,
        websocket: Transport,
        table: Table,
        seat: int | None,
        limits: ConnectionLimits,
        chat_gate: SeatChatGate,
        hint: HintSource,
        sends: SendWatch,
        credential: str | None = None,
        watching: str | None = None,
        watch_session: SessionWatch | None = None,
        listener: Listener | None = None,
        session_ended: Refusal | None = None,
        mute_watch: MuteWatch | None = None,
    ) -> None:
        self.websocket, self.table, self.seat, self.limits = websocket, table, seat, limits
        self.mute_watch = mute_watch
        """Tells the client alone that the account behind it is muted in chat, and until when."""
        self.listener = listener or Listener()
        """The account behind the client (said with its chat lines) and the accounts whose lines it is not sent."""
        self.credential = credential
        """The digest of the seat credential the client came with (``None``: none, or watching)."""
        self.watching = watching
        """Why a client without a seat watches (``watching.reason`` of its states)."""
        self.watch_session = watch_session
        """For a client seated by its session: watches the session, calling back when it ends."""
        self.session_ended = session_ended or Refusal(
            Why.UNAUTHENTICATED, Said.of(Code.ERROR_SIGNED_OUT), text="you were signed out"
        )
        """What the client is told when that session ends (a bot's: its token was revoked)."""
        self.chat_gate, self.hint, self.sends = chat_gate, hint, sends
        self._sender: asyncio.Task[None] | None = None
        self.outbox = Outbox(limits.max_pending)
        self.budget = TokenBucket(limits.rate_burst, limits.rate_per_second, table.clock)
        # Messages over budget are refused one by one until this second allowance runs out too.
        self.strikes = TokenBucket(limits.rate_burst, 1.0, table.clock)
        self.chat_budget = TokenBucket(limits.chat_burst, limits.chat_per_second, table.clock)
        self.farewell: tuple[int, Refusal] | None = None
        """The close code and the final error of a connection the server ends."""
        self.log_sent: LogSent | None = None
        """What this client was sent of the log: each state carries only the entries after it."""
        self._notice: dict[str, Any] | None = None
        self.lines = SentLines()
        """The chat lines sent, kept and live: none twice."""

    def attached(self, first: str, log_sent: LogSent) -> None:
        """The first state, the snapshot the protocol promises, with no later event merged in (and
        the notice about the service, if any)."""
        self.log_sent = log_sent
        self.outbox.put(first)
        if self._notice is not None:
            self.outbox.put(dumps(self._notice))

    def on_change(self, message: Message) -> None:
        """A table broadcast: a new state, a notice about the service, or a seat's credential moved."""
        if message.get("ended"):
            self.table_ended()
            return
        moved = message.get("moved")
        if moved is not None:
            if self.seat is not None and moved.get("seat") == self.seat and moved.get("to") != self.credential:
                self.moved_away()
            return
        notice = message.get("notice")
        if notice is not None:
            if "line" in notice and notice.get("type") == "chat" and not self.lines.live(notice["line"]):
                return
            if (notice := heard(notice, self.listener)) is not None:
                self.outbox.put(dumps(notice))
        else:
            self.outbox.put_state(message["events"])

    async def serve(self, since: int | None, notice: dict[str, Any] | None) -> int | None:
        """Serve the client until it leaves; the close code if the server cut it off. Raises
        :class:`TableClosed` before anything is sent when the table closed meanwhile."""
        table, seat = self.table, self.seat
        self._notice = notice
        if since is not None and since > table.version:
            await table.submit(CatchUp({}))  # the client saw more through another process than this one knows yet
        # The table subscribes this connection and hands it its first state at once: nothing can be missed.
        attached = await table.submit(Attach(seat, self, since, self.watching))
        unwatch = self.watch_session(self.signed_out) if self.watch_session is not None else None
        sender = self._sender = asyncio.create_task(self._send_all())
        receiver = asyncio.create_task(self._receive_all())
        account, unmute = self.listener.account, None
        try:
            for greeting in await table.greetings():
                if greeting.get("type") == "chat" and "lines" in greeting:
                    greeting = self.lines.kept(greeting)
                    if not greeting["lines"]:
                        continue  # every one was heard live already
                if (said := heard(greeting, self.listener)) is not None:
                    self.outbox.put(dumps(said))
            self.lines.greeted()
            if self.mute_watch is not None and account is not None:
                unmute = await self.mute_watch(account, self.muted)
            await asyncio.wait((sender, receiver), return_when=asyncio.FIRST_COMPLETED)
        finally:
            attached.unsubscribe()
            for stop in (unwatch, unmute):
                if stop is not None:
                    stop()
            sender.cancel()
            receiver.cancel()
            await table.submit(Detach(seat))
        if self.farewell is None:
            return None
        await self._say_goodbye(*self.farewell)
        return self.farewell[0]

    async def _send_all(self) -> None:
        with suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                item = await self.outbox.get()
                if isinstance(item, str):
                    text = item
                else:
                    text, self.log_sent = self.table.state_text(self.seat, item, self.log_sent, self.watching)
                self.sends.start(self)
                try:
                    await self.websocket.send_text(text)
                finally:
                    self.sends.stop(self)

    def muted(self, until: str | None) -> None:
        """The account behind the client is muted in chat until ``until`` (``None``: no longer): it alone is told."""
        self.outbox.put(dumps(mute_message(until)))

    def stalled(self) -> None:
        """A message waited over the send timeout: the client is cut off as not reading."""
        seconds = f"{self.limits.send_timeout:g}"
        self.farewell = (
            CLOSE_NOT_READING,
            Refusal.too_many(
                Said.of(Code.ERROR_NOT_READING, seconds=seconds),
                text=f"disconnected: not reading (a message waited over {seconds} s)",
            ),
        )
        if self._sender is not None:
            self._sender.cancel()

    def moved_away(self) -> None:
        """The seat's credential went to another device: this client is told, and reconnects to watch."""
        self._end(
            CLOSE_SEAT_ELSEWHERE,
            Refusal.forbidden(Said.of(Code.ERROR_SEAT_ELSEWHERE), text="your seat moved to another device"),
        )

    def table_ended(self) -> None:
        """An operator ended the table (server/moderation): the client is told, and does not come back."""
        self._end(
            CLOSE_NO_TABLE, Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_TABLE_ENDED), text="an operator ended this table")
        )

    def signed_out(self) -> None:
        """The session that seated this client ended: it is told, and reconnects to watch."""
        self._end(CLOSE_SIGNED_OUT, self.session_ended)

    def _end(self, code: int, error: Refusal) -> None:
        self.farewell = (code, error)
        if self._sender is not None:
            self._sender.cancel()

    async def _receive_all(self) -> None:
        with suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                await self.outbox.wait_for_space()  # a client that does not read its replies is not read either
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if not self.budget.take():
                    if not self.strikes.take():
                        limits = self.limits
                        rate, burst = f"{limits.rate_per_second:g}", limits.rate_burst
                        self.farewell = (
                            CLOSE_FLOODING,
                            Refusal.too_many(
                                Said.of(Code.ERROR_FLOODING, rate=rate, burst=burst),
                                text=f"disconnected: too many messages (at most {rate} a second, bursts of {burst})",
                            ),
                        )
                        return
                    slow_down = Refusal.too_many(Said.of(Code.ERROR_SLOW_DOWN), text="too many messages: slow down")
                    self.outbox.put(dumps(error_message(slow_down)))
                    continue
                data: str | bytes | None = message.get("text")
                if data is None:
                    data = message.get("bytes")
                    if data is None:
                        continue
                if len(data) > MAX_FRAME_BYTES or (isinstance(data, str) and len(data.encode()) > MAX_FRAME_BYTES):
                    self.farewell = (
                        CLOSE_TOO_BIG,
                        Refusal.invalid(Said.of(Code.ERROR_FRAME_TOO_LARGE, limit=MAX_FRAME_BYTES)),
                    )
                    return
                answered = await reply(self.table, self.seat, data, self.chat_refusal, self.hint, self.listener.account)
                if answered is not None:
                    self.outbox.put(dumps(answered))

    async def chat_refusal(self, text: str | None) -> Refusal | None:
        """What refuses a chat line now (``None``: nothing): this connection's budget, then the gate's."""
        if not self.chat_budget.take():
            return Refusal.too_many(Said.of(Code.ERROR_CHAT_SLOW_DOWN))
        return await self.chat_gate(self.seat, text)

    async def _say_goodbye(self, code: int, error: Refusal) -> None:
        """The final error and the close; given up after a while for a client that does not read."""
        client = self.websocket.client
        log.warning("%s at table %s: %s", client.host if client else "a client", self.table.code, error)
        with suppress(Exception):
            async with deadline(self.table.clock, FINAL_SEND_SECONDS):
                await self.websocket.send_text(dumps(error_message(error)))
                await self.websocket.close(code, str(error)[:120])


async def refuse(websocket: WebSocket, code: int, reason: Said | str) -> None:
    """One ``error`` line (a message when the server words it, docs/protocol.md), then the close: for
    connections that never reach a table."""
    said = reason.wire() if isinstance(reason, Said) else {}
    message = english(reason) if isinstance(reason, Said) else reason
    await websocket.send_text(dumps({"type": "error", "message": message, **said}))
    await websocket.close(code)


KeptSeat = Callable[[str, str], int | None]
"""The seat a seat credential opens at a table by what this process keeps in memory (``None``: not known
here): ``Credentials.kept_seat``."""


@dataclass(frozen=True, slots=True)
class Admission:
    """Which caps a table WebSocket is counted against from before its upgrade is accepted, decided from
    this process's counts alone (``holds``) before anything is read for it: its address, its table (by
    the code asked for), the seat its token opens when the table's seat digests are kept in memory
    (``kept_seat``), the credential it brings (its token, or else its session's cookie, by its digest),
    this process's sockets and its handshakes in progress. The seat of a session's account, and the
    account, need the store: they are counted once looked up (:func:`serve_connection`)."""

    holds: OpenHolds
    kept_seat: KeptSeat

    def keys(
        self, code: str, address: str | None, query: Mapping[str, str], cookies: Mapping[str, str]
    ) -> list[tuple[Scope, str]]:
        """What a handshake for table ``code`` is counted against (``address``: ``None`` when not known yet)."""
        keys: list[tuple[Scope, str]] = [] if address is None else [("address", address)]
        token = query.get("token", "")[:MAX_SECRET_LENGTH]  # a longer one opens nothing
        credential = token or cookies.get(SESSION_COOKIE, "")[:MAX_SECRET_LENGTH]
        if possible_code(code):
            table = code.upper()
            keys.append(("table", table))
            if token and (seat := self.kept_seat(table, token)) is not None:
                keys.append(("seat", f"{table}:{seat}"))
        if credential:
            keys.append(("credential", digest(credential)))
        return [*keys, ("sockets", ""), ("opening", "")]

    def admit(self, code: str, address: str, query: Mapping[str, str], cookies: Mapping[str, str]) -> Hold:
        """What the handshake holds from now on (its place among the handshakes is given back by
        :func:`serve_connection` once the connection is at its table), or the :class:`Refusal` of the
        cap it would pass (nothing is then held)."""
        hold = self.holds.hold()
        try:
            for scope, key in self.keys(code, address, query, cookies):
                hold.take(scope, key)
        except Refusal:
            hold.release()
            raise
        return hold

    def refusal(
        self, path: str, query: Mapping[str, str], cookies: Mapping[str, str], address: str | None
    ) -> Refusal | None:
        """The :data:`~chickenfoot.server.http.connections.UpgradeGate`: the refusal of an upgrade to a
        table's socket past a cap :meth:`admit` would refuse it at, as soon as its request is read below
        the application (server/http/connections.py), so that a flood of handshakes costs their requests'
        parsing and a written answer each, not the application's middlewares and routing. Nothing is
        counted here; :meth:`admit` counts what it lets through."""
        if not path.startswith(SOCKET_PATH):
            return None
        return self.holds.refusal(self.keys(path.removeprefix(SOCKET_PATH), address, query, cookies))


async def serve_connection(
    websocket: WebSocket,
    code: str,
    tables: TableRegistry,
    limits: ConnectionLimits,
    chat_gate: SeatChatGate,
    hint: HintSource,
    sends: SendWatch,
    hold: Hold,
    address: str,
    own_seat: Callable[[], Awaitable[tuple[int, SessionWatch, str] | None]] | None = None,
    moved_away: Callable[[str, str], Awaitable[bool]] | None = None,
    watching_reason: Callable[[], Awaitable[str]] | None = None,
    listening: Listening | None = None,
    mute_watch: MuteWatch | None = None,
) -> int | None:
    """One client's socket: an initial state, then its requests and every change of the table.

    ``chat_gate`` judges a chat line before the table takes it (the client's address's count over all its
    connections, and the moderation's);
    ``hint`` finds the hint for the client's view (searched off the loop, counted against its address);
    ``sends`` watches the process's connections for clients that stop reading; ``hold`` is what the
    socket holds open since :meth:`Admission.admit` let it in (``address``, the client's), to which its seat and
    account are added, each refused at its cap, and which is given back when it ends; ``own_seat`` finds
    the seat of a client that brought no seat credential (its signed-in account's, with a way to
    watch the session that opens it, and the account's key; none: it watches);
    ``moved_away`` says whether an unknown credential is one that moved to another device (the
    client then watches, told why); ``watching_reason`` says why any other client without a seat
    watches (``no_seat`` when not given); ``listening`` says who listens at the connection (the account
    behind it, said with its chat lines, and those whose lines it is spared; none: a guest who blocks nobody);
    ``mute_watch`` tells the client alone when that account is muted in chat, and until when.

    Returns the close code when the server cut the client off for flooding or not reading.
    """
    try:
        table = await tables.get(code)
        if table is None:
            await refuse(websocket, CLOSE_NO_TABLE, no_table(code).said)
            return None
        try:
            query = ConnectQuery.model_validate(dict(websocket.query_params))
        except ValidationError as exc:
            await refuse(websocket, CLOSE_BAD_QUERY, one_line(exc, "query"))
            return None
        hold.take("address", address)
        hold.take("table", table.code)
        seat: int | None = None
        credential = watching = watch_session = None
        if query.token:
            seat = await tables.credentials.seat_of(table.code, query.token, table.seating)
            if seat is not None:
                credential = digest(query.token)
            elif moved_away is not None and await moved_away(table.code, query.token):
                watching = SEAT_ELSEWHERE
            else:
                await refuse(websocket, CLOSE_BAD_TOKEN, Said.of(Code.ERROR_UNKNOWN_TOKEN))
                return None
        elif own_seat is not None and (own := await own_seat()) is not None:
            seat, watch_session, account = own
            hold.take("account", account)
        if seat is not None:
            hold.take("seat", f"{table.code}:{seat}")
        if seat is None and watching is None:
            watching = "no_seat" if watching_reason is None else await watching_reason()
        listener = None if listening is None else await listening(seat)
        hold.give_back("opening")  # the handshake is done: what is left is the table's Attach

        def connect(current: Table) -> Awaitable[int | None]:
            connection = Connection(
                websocket,
                current,
                seat,
                limits,
                chat_gate,
                hint,
                sends,
                credential,
                watching,
                watch_session,
                listener=listener,
                mute_watch=mute_watch,
            )
            return connection.serve(query.since, tables.notice())

        return await attend(tables, table, connect)
    except Refusal as refusal:  # a cap reached
        await refuse(websocket, CLOSE_TOO_MANY_OPEN, refusal.said)
        return None
    except TableGone:  # gone from storage meanwhile
        await refuse(websocket, CLOSE_NO_TABLE, no_table(code).said)
        return None
    except StorageUnavailable:
        await refuse(websocket, CLOSE_TRY_LATER, Said.of(Code.ERROR_STORE_UNAVAILABLE))
        return None
    finally:
        hold.release()


async def reply(
    table: Table,
    seat: int | None,
    data: str | bytes,
    chat_refusal: ChatGate,
    hint: HintSource,
    speaker: int | None = None,
) -> dict[str, Any] | None:
    """The reply to one client message (``None`` when the reply is the broadcast state): a refusal is
    answered with an ``error`` line. ``speaker``: the account behind the client, kept with its chat lines."""
    try:
        return await handle(table, seat, parse_client_message(data), chat_refusal, hint, speaker)
    except Refusal as refusal:
        return error_message(refusal)

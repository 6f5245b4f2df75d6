"""Newline-delimited JSON over a streamed HTTP response: the Bot API's table stream, a transport.

A table's stream is served by the very :class:`~chickenfoot.server.edge.client.Connection` that serves
a page's WebSocket (its bounded outbox, its coalesced states, its presence at the table, the cut-off
of a client that stops reading), attached through the same table look-up
(:func:`~chickenfoot.server.edge.transport.attend`): :class:`LineSocket` is a
:class:`~chickenfoot.server.edge.transport.Transport` whose every message is one line of the
response. So a bot receives what a person's page receives, line for line.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import suppress
from typing import Any

from starlette.datastructures import Address

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.live import SessionWatch
from chickenfoot.server.clock import Clock, deadline
from chickenfoot.server.edge.client import Connection, ConnectionLimits, SendWatch
from chickenfoot.server.edge.transport import TableGone, attend
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.chat import Listener
from chickenfoot.server.table.hints import HintSource
from chickenfoot.server.table.registry import TableRegistry
from chickenfoot.server.table.requests import SeatChatGate

KEEPALIVE_SECONDS = 10.0
"""An empty line this often on a quiet stream: proxies keep it open, and a vanished client is noticed."""


class LineSocket:
    """The transport of a line stream: what :class:`~chickenfoot.server.edge.client.Connection` needs of
    a WebSocket.

    Sending waits while the previous line has not been taken by the response (a client that stops
    reading holds up the send, and the connection's send watch cuts it off); receiving waits until the
    client has gone: a program sends its moves as separate requests.
    """

    def __init__(self, client: Address | None) -> None:
        self.client = client
        self._lines: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        self._gone = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if self._gone.is_set():
            raise OSError("the client has gone")
        await self._lines.put(text)

    async def receive(self) -> dict[str, Any]:
        await self._gone.wait()
        return {"type": "websocket.disconnect"}

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._lines.put(None)

    def gone(self) -> None:
        """The response ended (the client disconnected, or the stream was closed)."""
        self._gone.set()

    async def next_line(self) -> str | None:
        """The next line to send, ``None`` at the end."""
        return await self._lines.get()


STATE = '{"type":"state",'
RATING = '{"type":"rating",'


def last_line(table: Table, text: str, over_before: bool) -> bool:
    """Whether ``text`` is the last line of a table's stream: its match is over and the stream has said
    so, with a state (a casual table, or one whose match was over before the stream opened) or with the
    ``rating`` line that follows (a rated table). A match lost on time is over too."""
    if not table.over:
        return False
    return text.startswith(RATING) if table.config.rated and not over_before else text.startswith(STATE)


async def ndjson(
    socket: LineSocket,
    serve: Callable[[], Awaitable[Any]],
    keep: set[asyncio.Task[Any]],
    clock: Clock,
    last: Callable[[str], bool] = lambda _text: False,
) -> AsyncIterator[bytes]:
    """The lines of ``socket`` while ``serve`` runs (in a task of its own, held in ``keep``), with
    keep-alives (every :data:`KEEPALIVE_SECONDS` of ``clock`` without a line), up to the line that
    ``last`` says ends the stream.

    When the client disconnects the response is cancelled: ``serve`` is told (the socket is gone) and
    winds down by itself, leaving the table as a page's connection does.
    """
    serving = asyncio.ensure_future(serve())
    keep.add(serving)
    serving.add_done_callback(keep.discard)
    try:
        while not serving.done():
            line = asyncio.ensure_future(socket.next_line())
            done: set[asyncio.Future[Any]] = set()
            with suppress(TimeoutError):
                async with deadline(clock, KEEPALIVE_SECONDS):
                    done, _ = await asyncio.wait({line, serving}, return_when="FIRST_COMPLETED")
            if line not in done:
                line.cancel()
                if serving in done:
                    break
                yield b"\n"
                continue
            text = line.result()
            if text is None:
                break
            yield text.encode() + b"\n"
            if last(text):
                break
    finally:
        socket.gone()


def table_lines(
    tables: TableRegistry,
    limits: ConnectionLimits,
    sends: SendWatch,
    table: Table,
    seat: int,
    client: Address | None,
    chat: SeatChatGate,
    hint: HintSource,
    token: SessionWatch,
    keep: set[asyncio.Task[Any]],
    listener: Listener | None = None,
) -> AsyncIterator[bytes]:
    """The messages of ``seat`` at ``table``, one a line: what the page's WebSocket gets (a state first,
    then every change), served while the client reads (its task held in ``keep``) and while its API
    token lives (``token`` watches it: revoked, the stream ends at once with an ``error`` line, and the
    seat is absent as when a page closes); ``listener``: the account behind the stream (said with its
    chat lines) and those whose lines it is spared. It ends once the match is over (:func:`last_line`)."""
    socket = LineSocket(client)
    revoked = Refusal(Why.UNAUTHENTICATED, Said.of(Code.BOTAPI_TOKEN_REVOKED))
    serving = [table]  # the table the connection is at (read back from storage if it left memory)

    async def serve() -> None:
        def connect(current: Table) -> Awaitable[int | None]:
            serving[0] = current
            connection = Connection(
                socket,
                current,
                seat,
                limits,
                chat,
                hint,
                sends,
                watch_session=token,
                session_ended=revoked,
                listener=listener,
            )
            return connection.serve(None, tables.notice())

        with suppress(TableGone):  # gone from storage meanwhile: the stream ends
            await attend(tables, table, connect)

    over_before = table.over
    return ndjson(socket, serve, keep, tables.clock, lambda text: last_line(serving[0], text, over_before))

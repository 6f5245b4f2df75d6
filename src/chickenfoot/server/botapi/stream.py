"""Newline-delimited JSON over a streamed HTTP response: the Bot API's event streams.

A table's stream is served by the very :class:`~chickenfoot.server.connection.Connection` that serves
a page's WebSocket (its bounded outbox, its coalesced states, its presence at the table, the cut-off
of a client that stops reading): :class:`LineSocket` gives it the face of a WebSocket whose every
message is one line of the response. So a bot receives what a person's page receives, line for line.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.datastructures import Address

KEEPALIVE_SECONDS = 10.0
"""An empty line this often on a quiet stream: proxies keep it open, and a vanished client is noticed."""
MEDIA_TYPE = "application/x-ndjson"


class LineSocket:
    """What :class:`~chickenfoot.server.connection.Connection` needs of a WebSocket, on a line stream.

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


async def ndjson(
    socket: LineSocket, serve: Callable[[], Awaitable[Any]], keep: set[asyncio.Task[Any]]
) -> AsyncIterator[bytes]:
    """The lines of ``socket`` while ``serve`` runs (in a task of its own, held in ``keep``), with keep-alives.

    When the client disconnects the response is cancelled: ``serve`` is told (the socket is gone) and
    winds down by itself, leaving the table as a page's connection does.
    """
    serving = asyncio.ensure_future(serve())
    keep.add(serving)
    serving.add_done_callback(keep.discard)
    try:
        while not serving.done():
            line = asyncio.ensure_future(socket.next_line())
            done, _ = await asyncio.wait({line, serving}, timeout=KEEPALIVE_SECONDS, return_when="FIRST_COMPLETED")
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
    finally:
        socket.gone()

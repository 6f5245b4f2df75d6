"""What every transport to a table has in common: the interface a connection serves a client through,
and the one table look-up (attach, and leave) both transports use.

The page's WebSocket (Starlette's) and the Bot API's line stream (:class:`.line_stream.LineSocket`)
both implement :class:`Transport`; :func:`attend` serves one connection at a table, reading the table
back when it left memory meanwhile, and tells the registry when the connection leaves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar

from starlette.datastructures import Address

from chickenfoot.server.table.actor import Table, TableClosed
from chickenfoot.server.table.registry import TableRegistry

T = TypeVar("T")


class Transport(Protocol):
    """What a connection needs of its client's transport."""

    @property
    def client(self) -> Address | None:
        """The client's address (``None`` when unknown)."""
        ...

    async def send_text(self, text: str, /) -> None:
        """Send one message; raises (``OSError``, ``RuntimeError``, ``WebSocketDisconnect``) once the
        client has gone."""
        ...

    async def receive(self) -> Mapping[str, Any]:
        """The next ASGI event: ``{"type": "websocket.receive", "text": ...}``, or
        ``{"type": "websocket.disconnect"}``."""
        ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class TableGone(Exception):
    """The table left memory, and storage too, while a connection was coming."""


async def attend(tables: TableRegistry, table: Table, serve: Callable[[Table], Awaitable[T]]) -> T:
    """``serve(table)`` one connection to its end; the registry is told when it ends (the table may
    leave memory). A table that closed before the connection attached is read back from storage and
    served instead; raises :class:`TableGone` when storage has it no more."""
    while True:
        try:
            return await serve(table)
        except TableClosed:
            pass  # released from memory meanwhile: one read back from storage has every stored action
        finally:
            tables.left(table)
        reloaded = await tables.get(table.code)
        if reloaded is None:
            raise TableGone(table.code)
        table = reloaded

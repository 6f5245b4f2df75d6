"""The HTTP connections themselves, below the application: a time limit on a request's head and a cap on
the connections one client address holds open.

uvicorn arms its keep-alive timer only after a first response and disarms it at a head's first byte,
so a client sending its head a byte a second (or nothing at all) holds a connection, a socket and a
buffer for as long as it likes; and nothing caps how many one address opens. :func:`guarded_h11`
makes uvicorn's h11 protocol that does both: a head not complete :attr:`ConnectionCaps.head_seconds`
after the connection opened (or after the first byte of a later request's head on a kept-alive
connection) closes the connection; a connection from an address (its key, :func:`address_key`) that
holds :attr:`ConnectionCaps.per_address` open already is answered 429 ``error.too_many_open_connections``
at once and closed. A connection that becomes a WebSocket leaves the count: sockets have caps of their own,
and an upgrade past one of them is answered here (an ``UpgradeGate``: server/edge/client.py) as the
application would answer it, before the application is called at all.

Connections from a proxy the server believes (``--forwarded-allow-ips``) are neither capped nor counted
here: every client of the proxy arrives from its address, and the proxy caps them itself
(deploy/nginx.conf: ``limit_conn``, ``client_header_timeout``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, unquote

import h11
import orjson
from starlette.requests import cookie_parser
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock, Timer
from chickenfoot.server.http.answers import STATUS, body
from chickenfoot.server.http.client import address_key
from chickenfoot.server.refusals import Refusal

RETRY_SECONDS = 10
"""When a client refused for holding too many connections may try again."""


@dataclass(frozen=True, slots=True)
class ConnectionCaps:
    head_seconds: float = 10.0
    """How long a request's head may take to arrive whole (nginx's ``client_header_timeout`` defaults to 60 s;
    a browser sends its head in one packet)."""
    per_address: int = 64
    """HTTP connections one client address may hold open at once (a browser opens at most six to a site;
    a school or an office behind one address opens more)."""


UpgradeGate = Callable[[str, Mapping[str, str], Mapping[str, str], str | None], Refusal | None]
"""What refuses a WebSocket upgrade as soon as its request is read: given its path, its query, its
cookies and its client's address key (``None`` from a trusted proxy: the application knows it), the
refusal (``None``: the application decides)."""


def too_many_open(limit: int) -> bytes:
    """The whole answer to a connection over the cap: 429, its message, ``Retry-After``, and the end."""
    return whole_answer(429, Said.of(Code.ERROR_TOO_MANY_OPEN_CONNECTIONS, limit=limit), RETRY_SECONDS)


def refused(refusal: Refusal) -> bytes:
    """The whole answer to a refused request, written below the application: as the application answers it."""
    return whole_answer(STATUS[refusal.why], refusal.said, refusal.retry_after, str(refusal))


def whole_answer(status: int, said: Said, retry_after: float | None, detail: str | None = None) -> bytes:
    """An error answer's bytes (its message as JSON, ``Retry-After`` in whole seconds), closing the connection."""
    content = orjson.dumps(body(said, detail))
    retry = "" if retry_after is None else f"retry-after: {max(1, math.ceil(retry_after))}\r\n"
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(content)}\r\n{retry}connection: close\r\n\r\n"
    )
    return head.encode() + content


def trusted(host: str, proxies: Sequence[str]) -> bool:
    """Whether ``host`` is one of the proxies (addresses or networks) the server believes."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def guarded_h11(
    caps: ConnectionCaps, clock: Clock, proxies: Sequence[str] = (), upgrades: UpgradeGate | None = None
) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``caps`` (``uvicorn.Config(http=...)``), timed on ``clock``; ``proxies``:
    the trusted proxies; ``upgrades``: what refuses a WebSocket upgrade before the application sees it."""
    open_by_address = Counter[str]()

    class GuardedH11(H11Protocol):
        def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any], **kwargs: Any) -> None:
            super().__init__(config, server_state, app_state, **kwargs)
            self._counted: str | None = None
            self._head_timer: Timer | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client is not None else "unknown"
            if not trusted(host, proxies):
                key = address_key(host)
                if open_by_address[key] >= caps.per_address:
                    transport.write(too_many_open(caps.per_address))
                    transport.close()
                    return
                open_by_address[key] += 1
                self._counted = key
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_arrived()
            self._uncount()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # A head not yet whole (h11 still waits for a request): its time runs from its first byte.
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._await_head()
            else:
                self._head_arrived()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._uncount()
            if upgrades is not None and (refusal := upgrades(*self._upgrade_asked(event))) is not None:
                self.transport.write(refused(refusal))
                self.transport.close()
                return
            super().handle_websocket_upgrade(event)

        def _upgrade_asked(self, event: h11.Request) -> tuple[str, dict[str, str], dict[str, str], str | None]:
            """An upgrade request's path, query, cookies and client's address key (see :data:`UpgradeGate`)."""
            path, _, query = event.target.decode("latin-1").partition("?")
            cookies: dict[str, str] = {}
            for name, value in event.headers:
                if name == b"cookie":
                    cookies.update(cookie_parser(value.decode("latin-1")))
            host = self.client[0] if self.client is not None else "unknown"
            address = None if trusted(host, proxies) else address_key(host)
            return unquote(path), dict(parse_qsl(query)), cookies, address

        def _await_head(self) -> None:
            if self._head_timer is None:
                self._head_timer = clock.call_later(caps.head_seconds, self._head_too_slow)

        def _head_arrived(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE:
                self.transport.close()

        def _uncount(self) -> None:
            if self._counted is not None:
                open_by_address[self._counted] -= 1
                if not open_by_address[self._counted]:
                    del open_by_address[self._counted]
                self._counted = None

    return GuardedH11

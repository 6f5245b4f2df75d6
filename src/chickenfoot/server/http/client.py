"""Who is asking: the key every limit per address counts, as the server sees the client (a trusted
proxy's forwarded address when uvicorn is told to believe it, ``--forwarded-allow-ips``).

An IPv4 client is its address; an IPv6 client is its /64, the smallest network an ISP gives one
subscriber: one host may take any of 2^64 addresses in it, and a limit keyed on the exact address
would count each of them apart.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable

from starlette.requests import HTTPConnection, Request

IPV6_PREFIX = 64


def address_key(host: str) -> str:
    """The key of a client at ``host``: an IPv4 address as it is, an IPv6 one as its /64 (an IPv4 address
    mapped into IPv6 as the IPv4 address), anything else as it is.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:aaaa::1"), address_key("::ffff:203.0.113.7")
    ('203.0.113.7', '2001:db8:1:2::/64', '203.0.113.7')
    >>> address_key("unknown")
    'unknown'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def client_address(connection: HTTPConnection) -> str:
    """The key of a request's or WebSocket's client (:func:`address_key`; ``unknown`` when the server was
    not told it)."""
    return address_key(connection.client.host) if connection.client is not None else "unknown"


def still_connected(request: Request) -> Callable[[], Awaitable[bool]]:
    """Whether the client of ``request`` is still there (its connection not closed), asked when needed:
    work for a client that has gone is not done."""

    async def connected() -> bool:
        return not await request.is_disconnected()

    return connected

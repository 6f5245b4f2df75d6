"""Who is asking: the client's address, as the server sees it (a trusted proxy's forwarded one when
uvicorn is told to believe it, ``--forwarded-allow-ips``)."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def client_address(connection: HTTPConnection) -> str:
    """The address of a request's or WebSocket's client (``unknown`` when the server was not told it)."""
    return connection.client.host if connection.client is not None else "unknown"

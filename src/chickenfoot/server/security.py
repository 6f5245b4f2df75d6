"""What the server asks of browsers and logs: security headers, the WebSocket's origin check, no secrets in logs."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """ASGI middleware: every HTTP response carries :data:`SECURITY_HEADERS`.

    Paths in ``without_csp`` (the debug server's API documentation, whose pages load their
    scripts from a CDN and start them inline) get every header but the Content-Security-Policy.
    """

    def __init__(self, app: ASGIApp, without_csp: Iterable[str] = ()) -> None:
        self.app = app
        self.without_csp = frozenset(without_csp)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = SECURITY_HEADERS
        if scope["path"] in self.without_csp:
            headers = [(name, value) for name, value in SECURITY_HEADERS if name != b"content-security-policy"]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in headers if name not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def origin_allowed(scope: Scope, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket handshake may proceed: no ``Origin`` (not a browser), the server's own, or listed.

    The server's own origin is the one whose host (and port) is the request's ``Host``; deployments
    behind a proxy that rewrites ``Host`` list their public origins.
    """
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/") in {entry.rstrip("/") for entry in allowed}:
        return True
    host = headers.get("host")
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


SECRET_IN_QUERY = re.compile(r"((?:token|invite)=)[^&\s\"']+")


class RedactSecrets(logging.Filter):
    """Replaces seat credentials and invites in log lines (an access log shows WebSocket queries)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        redacted = SECRET_IN_QUERY.sub(r"\1[redacted]", text)
        if redacted != text:
            record.msg, record.args = redacted, ()
        return True


def redact_logs(names: Iterable[str] = ("uvicorn.access", "uvicorn.error", "uvicorn")) -> None:
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(RedactSecrets())

"""What the server trusts and asks of browsers: the Host it answers for, the origins and proxies it
believes, security headers, the WebSocket's origin check, no secrets in logs."""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chickenfoot.messages import Code, Said
from chickenfoot.server.http.answers import answer

SESSION_COOKIE = "chickenfoot_session"
"""The name of the cookie that carries a signed-in browser's session (set by the accounts)."""

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
NOT_STORED = (b"cache-control", b"no-store")
"""Every answer of the API that does not say otherwise: an account's facts, its data, a seat's credential
or a link made for one device are kept by no cache, shared or the browser's (the lobby's list, the
catalogs and finished replays, the same for everyone, say how they may be kept)."""
STRICT_TRANSPORT = (b"strict-transport-security", b"max-age=31536000")
"""Sent over https only (directly, or from a trusted proxy whose ``X-Forwarded-Proto`` says so):
over plain http a browser ignores it, and a local server must stay reachable over http."""


class SecurityHeaders:
    """ASGI middleware: every HTTP response carries :data:`SECURITY_HEADERS`, and every answer of the API
    (``/api/…``) :data:`NOT_STORED` unless it sets its own ``Cache-Control``.

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
        if scope.get("scheme") == "https":
            headers = [*headers, STRICT_TRANSPORT]
        if scope["path"].startswith("/api/"):
            headers = [*headers, NOT_STORED]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in headers if name not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def host_name(host: str | None) -> str | None:
    """The name in a ``Host`` header, lower case, without port or IPv6 brackets (``None``: none readable)."""
    if not host or any(c in host for c in "/?#@\\ "):
        return None
    try:
        return urlsplit(f"//{host}").hostname or None
    except ValueError:
        return None


class HostCheck:
    """ASGI middleware: requests and WebSocket handshakes naming any other ``Host`` get a 400 and nothing else.

    A server on a player's own machine answers only for its own names, so a page of another site
    whose name was pointed at 127.0.0.1 (DNS rebinding) reads nothing from it.
    """

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        # An IPv6 address given bare (``--host ::1``) is a Host in brackets.
        entries = (f"[{entry}]" if entry.count(":") > 1 and not entry.startswith("[") else entry for entry in allowed)
        self.allowed = frozenset(name for name in map(host_name, entries) if name is not None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = Headers(scope=scope).get("host")
            if host_name(host) not in self.allowed:
                shown = repr((host or "")[:100])
                await answer(Said.of(Code.ERROR_BAD_HOST, host=shown), 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def checked_origin(text: str) -> str:
    """``text`` as an origin the server may allow (``scheme://host[:port]``, http or https, lower case);
    raises ``ValueError`` in one line for anything else (``null``, ``*``, a path, a user, a bad port)."""
    refusal = ValueError(f"--allowed-origin {text!r} is not an origin: give scheme://host[:port] (http or https)")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise refusal from None
    if (
        parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.password is not None
        or parts.path
        or parts.query
        or parts.fragment
        or text.endswith(("?", "#", ":"))
        or host_name(parts.netloc) is None
    ):
        raise refusal
    del port  # read only to check it
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def checked_proxy(text: str) -> str:
    """``text`` as an address or network (``10.0.0.5``, ``10.0.0.0/24``) whose forwarded headers are
    trusted; raises ``ValueError`` in one line for anything else (``*`` included: name the proxies)."""
    try:
        return str(ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise ValueError(
            f"--forwarded-allow-ips {text!r} is not an address or network: name the proxies (10.0.0.5, 10.0.0.0/24)"
        ) from None


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


SECRETS = [
    (re.compile(r"((?:token|invite|ticket|link|password|secret|csrf)=)[^&\s\"';,]+", re.I), r"\1[redacted]"),
    (re.compile(r"(\"(?:token|invite|ticket|password|secret|csrf)\"\s*:\s*\")[^\"]*", re.I), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[^\s\"',;]+", re.I), r"\1[redacted]"),
    (re.compile(rf"({SESSION_COOKIE}=)[^\s\"';,]+"), r"\1[redacted]"),
]
"""Secrets as they appear in text: credentials, invites, tickets and passwords in a query or a JSON
body, bearer tokens, the session cookie."""


def redact(text: str) -> str:
    """``text`` with every secret of :data:`SECRETS` replaced by ``[redacted]``.

    >>> redact('GET /ws/AB12CD?token=s3cret&since=4 {"password": "hunter2"} Authorization: Bearer abc.def')
    'GET /ws/AB12CD?token=[redacted]&since=4 {"password": "[redacted]"} Authorization: Bearer [redacted]'
    >>> redact("Cookie: chickenfoot_session=xyz; theme=dark")
    'Cookie: chickenfoot_session=[redacted]; theme=dark'
    """
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactSecrets(logging.Filter):
    """Replaces secrets in log lines (an access log shows WebSocket queries).

    The message and each of its arguments are redacted in place, so a formatter that reads the
    arguments (uvicorn's access log does) still finds them; a secret that only shows once they are
    put together leaves the line as one redacted text.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        redacted = redact(text)
        if redacted == text:
            return True
        message = redact(record.msg) if isinstance(record.msg, str) else record.msg
        args = record.args
        if isinstance(args, tuple):
            args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in args)
        try:
            kept = (message % args if args else message) == redacted
        except (TypeError, ValueError):
            kept = False
        record.msg, record.args = (message, args) if kept else (redacted, ())
        return True


def redact_logs(names: Iterable[str] = ("uvicorn.access", "uvicorn.error", "uvicorn")) -> None:
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(RedactSecrets())

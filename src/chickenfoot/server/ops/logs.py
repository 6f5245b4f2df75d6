"""The server's log lines: plain text for a terminal, or JSON lines for a log collector
(``chickenfoot serve --log-format json``), each with the table and the request it belongs to.

A request's id is the one its proxy gave it (``X-Request-ID``: nginx's ``$request_id``, so one id
follows a request through both logs) when that is a short plain token, else one made here; it is
sent back in the answer's ``X-Request-ID``. The table is the one the request's path names, or the
one whose own work logs the line (:func:`~.context.context_of_table`). No line carries a secret, whoever logged
it: seat credentials, invites, tickets and passwords in a query or a JSON body, bearer tokens and the
session cookie are replaced by ``[redacted]`` in every line and every traceback
(:func:`chickenfoot.server.http.security.redact`).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
from datetime import UTC, datetime
from typing import IO, Literal

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chickenfoot.server.http.security import RedactSecrets, redact
from chickenfoot.server.ops.context import request_id, table_code

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

REQUEST_HEADER = "x-request-id"
GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""A request id taken as given (nginx's ``$request_id`` is 32 hex digits); any other is replaced."""
TABLE_PATH = re.compile(r"/(?:ws|t|r|api/tables|api/bot/tables)/([A-Za-z0-9]{1,16})(?:[/?]|$)")
"""The paths that name a table, and its code."""


def checked_log_format(name: str) -> LogFormat:
    """``text`` or ``json``; raises ``ValueError`` in one line for any other name."""
    for known in LOG_FORMATS:
        if name.lower() == known:
            return known
    raise ValueError(f"unknown log format {name!r}: use {' or '.join(LOG_FORMATS)}")


class Context(logging.Filter):
    """Gives each record its table and request (attributes ``table`` and ``request``, or ``None``)
    (a handler's filter, so every line written gets them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = table_code.get()
        record.request = request_id.get()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and
    ``table``, ``request`` and ``error`` (a traceback, redacted) when there are."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for field in ("table", "request"):
            if (value := getattr(record, field, None)) is not None:
                line[field] = value
        if record.exc_info:
            line["error"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


def configure(level: int, log_format: LogFormat, stream: IO[str] | None = None) -> None:
    """Write log lines to ``stream`` (standard error) in ``log_format``: the server's own lines from
    ``level`` on, the libraries' from warnings on."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(RedactSecrets())  # every line, whichever logger wrote it
    handler.addFilter(Context())
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("chickenfoot").setLevel(level)


class LogContext:
    """ASGI middleware: each request and WebSocket runs with its request id and the table its path
    names, and an HTTP answer says its request id (``X-Request-ID``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get(REQUEST_HEADER, "")
        request = given if GIVEN_ID.fullmatch(given) else secrets.token_hex(8)
        named = TABLE_PATH.match(scope.get("path", ""))
        request_token = request_id.set(request)
        table_token = table_code.set(named.group(1).upper() if named else None)

        async def with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        finally:
            table_code.reset(table_token)
            request_id.reset(request_token)

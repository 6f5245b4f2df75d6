"""Log lines: JSON lines with the table and the request, and no secret in any line."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from uvicorn.logging import AccessFormatter

from chickenfoot.server.http.security import RedactSecrets
from chickenfoot.server.ops import context, logs
from chickenfoot.server.ops.logs import LogContext


@pytest.fixture
def written() -> Iterator[io.StringIO]:
    """The lines the server's loggers write, as JSON lines (the process's logging restored after)."""
    root, server = logging.getLogger(), logging.getLogger("chickenfoot")
    saved = (root.handlers[:], root.level, server.level)
    stream = io.StringIO()
    logs.configure(logging.DEBUG, "json", stream)
    try:
        yield stream
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
        server.setLevel(saved[2])


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_json_line_has_the_time_level_logger_message_table_and_request(written: io.StringIO) -> None:
    log = logging.getLogger("chickenfoot.server.test")

    async def table_work() -> None:
        log.warning("table work: %s", "stored")

    async def work() -> None:
        context.request_id.set("req-1")
        log.info("outside any table")
        await asyncio.create_task(table_work(), context=context.context_of_table("AB12CD"))

    asyncio.run(work())
    first, second = lines(written)
    assert first["message"] == "outside any table" and first["request"] == "req-1" and "table" not in first
    assert first["level"] == "info" and first["logger"] == "chickenfoot.server.test"
    assert str(first["time"]).endswith("+00:00")
    assert second == second | {
        "level": "warning",
        "message": "table work: stored",
        "table": "AB12CD",
        "request": "req-1",
    }


def test_no_line_or_traceback_carries_a_secret(written: io.StringIO) -> None:
    log = logging.getLogger("chickenfoot.server.test")
    log.info("connected /ws/AB12CD?token=%s&since=3", "seat-secret")
    log.info("body %s", '{"username": "ann", "password": "hunter2"}')
    try:
        raise RuntimeError("Authorization: Bearer api-secret; Cookie: chickenfoot_session=session-secret")
    except RuntimeError:
        log.exception("failed")
    text = written.getvalue()
    for secret in ("seat-secret", "hunter2", "api-secret", "session-secret"):
        assert secret not in text
    assert [line["message"] for line in lines(written)][:2] == [
        "connected /ws/AB12CD?token=[redacted]&since=3",
        'body {"username": "ann", "password": "[redacted]"}',
    ]
    assert "Bearer [redacted]" in str(lines(written)[2]["error"])


def test_a_redacted_access_line_keeps_the_arguments_uvicorns_formatter_reads() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', None, None)
    record.args = ("127.0.0.1:5000", "GET", "/api/presets?token=seat-secret", "1.1", 200)
    RedactSecrets().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False).format(record)
    assert line == '127.0.0.1:5000 - "GET /api/presets?token=[redacted] HTTP/1.1" 200 OK'


def test_a_secret_made_of_the_message_and_its_arguments_is_still_redacted() -> None:
    record = logging.LogRecord("x", logging.INFO, "", 0, "tok%s", ("en=seat-secret",), None)
    RedactSecrets().filter(record)
    assert record.getMessage() == "token=[redacted]"


def test_a_request_has_an_id_its_proxys_when_plain_and_its_table_from_the_path(written: io.StringIO) -> None:
    async def endpoint(request: Request) -> PlainTextResponse:
        logging.getLogger("chickenfoot.server.test").info("answering %s", request.url.path)
        return PlainTextResponse("ok")

    app = LogContext(Starlette(routes=[Route("/{path:path}", endpoint)]))
    client = TestClient(app)
    assert client.get("/api/tables/ab12cd/record", headers={"X-Request-ID": "0123abcd"}).headers["x-request-id"] == (
        "0123abcd"
    )
    forged = client.get("/ws/AB12CD", headers={"X-Request-ID": "evil line\tand more"}).headers["x-request-id"]
    assert forged != "evil line\tand more" and len(forged) == 16
    client.get("/api/presets")
    first, second, third = lines(written)
    assert (first["table"], first["request"]) == ("AB12CD", "0123abcd")
    assert (second["table"], second["request"]) == ("AB12CD", forged)
    assert "table" not in third and len(str(third["request"])) == 16


def test_unknown_log_formats_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^unknown log format 'yaml': use text or json$"):
        logs.checked_log_format("yaml")
    assert logs.checked_log_format("JSON") == "json"

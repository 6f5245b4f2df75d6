"""Attacks on a real ``chickenfoot serve`` process: seats, origins, headers, oversized frames, logs."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from chickenfoot.testing.launch import free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # real server processes

HUMAN = {"kind": "human"}
ALLOWED = "https://play.example.org"


class Server:
    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log = port, log
        self.secrets: list[str] = []
        """Every credential and invite handed out: none may show up in the log."""

    def http(self, method: str, path: str, body: Any = None) -> tuple[int, Any, dict[str, str]]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        request.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw, status, headers = response.read(), response.status, dict(response.headers)
        except urllib.error.HTTPError as error:
            raw, status, headers = error.read(), error.code, dict(error.headers)
        try:
            payload = json.loads(raw)
        except ValueError:
            payload = raw.decode(errors="replace")
        self.secrets += [str(payload[k]) for k in ("token",) if isinstance(payload, dict) and k in payload]
        if isinstance(payload, dict):
            self.secrets += [s["invite"].split("=")[1] for s in payload.get("seats", []) if "invite" in s]
        return status, payload, headers

    def socket(self, code: str, query: str = "", origin: str | None = None) -> list[Any]:
        """What the server says on a new WebSocket: its messages up to the close code (or the first state)."""
        said: list[Any] = []
        url = f"ws://127.0.0.1:{self.port}/ws/{code}" + (f"?{query}" if query else "")
        with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
            try:
                while True:
                    said.append(json.loads(ws.recv(timeout=10)))
                    if said[-1]["type"] == "state":
                        return said
            except ConnectionClosed as closed:
                said.append(closed.rcvd.code if closed.rcvd else None)
        return said


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("attacks")
    log = directory / "server.log"
    port = free_port()
    options = ["--access-log", "--allowed-origin", ALLOWED]
    url = f"sqlite+aiosqlite:///{directory / 'games.db'}"
    with log.open("w") as output, served(port, url, output=output, options=options):
        yield Server(port, log)


def test_the_creator_holds_no_friends_credential_and_invites_are_single_use(server: Server) -> None:
    status, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, HUMAN]})
    assert status == 201
    code, claim = created["code"], created["seats"][1]["invite"].split("?invite=")[1]
    for value in (claim, created["seats"][1]["invite"], "forged"):
        assert server.socket(code, f"token={value}") == [
            {"type": "error", "message": "unknown token for this table", "code": "error.unknown_token"},
            4403,
        ]
    status, friend, _ = server.http("POST", f"/api/tables/{code}/claim", {"invite": claim, "name": "Bo"})
    assert status == 200 and friend["seat"] == 1 and friend["token"] not in json.dumps(created)
    status, again, _ = server.http("POST", f"/api/tables/{code}/claim", {"invite": claim})
    assert status == 403 and "opens nothing" in again["detail"]
    assert server.socket(code, f"token={friend['token']}")[-1]["state"]["seat"] == 1
    assert server.socket(code, f"token={created['token']}")[-1]["state"]["seat"] == 0
    status, refused, _ = server.http("POST", f"/api/tables/{code}/join", {"name": "Eve"})
    assert status == 403 and "invite-only" in refused["detail"]
    assert server.socket(code)[-1]["state"]["seat"] is None  # anyone with the code may watch


def test_a_cross_origin_websocket_is_refused(server: Server) -> None:
    _, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, {"kind": "bot"}]})
    code, token = created["code"], created["token"]
    forged = server.socket(code, f"token={token}", origin="https://evil.example")
    message = "origin 'https://evil.example' may not open tables"
    said = {"code": "error.foreign_origin", "origin": "https://evil.example"}
    assert forged == [{"type": "error", "message": message, **said}, 4403]
    lookalike = server.socket(code, f"token={token}", origin=f"http://127.0.0.1:{server.port}.evil.example")
    assert lookalike[-1] == 4403
    for origin in (f"http://127.0.0.1:{server.port}", ALLOWED, None):
        assert server.socket(code, f"token={token}", origin=origin)[-1]["type"] == "state", origin


def test_security_headers_on_every_response_and_no_docs_without_debug(server: Server) -> None:
    _, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, {"kind": "bot"}]})
    for path in ("/", f"/t/{created['code']}", "/app.js", "/style.css", "/api/presets", "/api/tables/NOSUCH", "/nope"):
        _, _, headers = server.http("GET", path)
        lowered = {k.lower(): v for k, v in headers.items()}
        csp = lowered["content-security-policy"]
        assert "script-src 'self'" in csp and "style-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp
        assert lowered["x-content-type-options"] == "nosniff" and lowered["referrer-policy"] == "no-referrer", path
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert server.http("GET", path)[0] == 404, path


def test_a_frame_over_64_kib_gets_an_error_before_the_close(server: Server) -> None:
    _, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, {"kind": "bot"}]})
    url = f"ws://127.0.0.1:{server.port}/ws/{created['code']}?token={created['token']}"
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send("x" * 70_000)
        said = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                said.append(json.loads(ws.recv(timeout=10)))
    assert said[-1] == {
        "type": "error",
        "message": "frame too large (limit 65536 bytes): closing",
        "code": "error.frame_too_large",
        "limit": 65536,
    }
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_bad_http_bodies_get_one_line_400s(server: Server) -> None:
    bodies: list[tuple[Any, str]] = [
        (b'{"seats": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deeply"),
        (b'{"seats": [{"kind": "human"}, {"kind": "human"}], "rounds": ' + b"9" * 5000 + b"}", "too many digits"),
        (b'{"seats": "\xff\xfe"}', "not valid UTF-8"),
        (b"\x00\x01", "not valid JSON"),
        ({"seats": [HUMAN, {"kind": "bot", "bot": ["x"]}]}, "seats.1.bot"),
        ({"seats": [HUMAN, HUMAN], "rules": {"max_pip": {"a": [1]}}}, "max_pip"),
        ({"seats": [HUMAN, HUMAN], "rules": {"max_pip": 10**30}}, "max_pip"),
        ({"seats": [HUMAN, HUMAN], "turn_timer": 45}, "turn_timer"),
        ({"seats": [HUMAN, HUMAN], "open": "yes please"}, "open"),
        ({"seats": [{"kind": "human", "name": "A\u0000B"}, HUMAN]}, "seats.0.name: a name is one line"),
    ]
    for body, words in bodies:
        status, reply, _ = server.http("POST", "/api/tables", body)
        assert status == 400 and "\n" not in reply["detail"] and words in reply["detail"], reply
    status, reply, _ = server.http("POST", "/api/tables/NOSUCH/claim", b"[" * 3000)
    assert status in (400, 404) and "\n" not in reply["detail"]


def test_codes_no_table_could_have_are_404_before_storage(server: Server) -> None:
    for code in ("%00", "A" * 5000, "%C3%A9", "A%20B"):
        status, reply, _ = server.http("GET", f"/api/tables/{code}")
        assert status == 404 and reply["detail"].startswith("no table") and len(reply["detail"]) < 40, code
    said = server.socket("%00")
    assert said == [
        {"type": "error", "message": "no table '\\x00'", "code": "error.no_table", "table": "\\x00"},
        4404,
    ]


def test_a_text_frame_that_is_not_utf8_is_closed_by_the_transport(server: Server) -> None:
    _, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, {"kind": "bot"}]})
    url = f"ws://127.0.0.1:{server.port}/ws/{created['code']}?token={created['token']}"
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007  # RFC 6455 §8.1: fail the connection


def test_zz_no_secret_reaches_the_log(server: Server) -> None:
    """Runs last in this module: every credential and invite handed out above is checked against the log."""
    _, created, _ = server.http("POST", "/api/tables", {"seats": [HUMAN, HUMAN]})
    server.socket(created["code"], f"token={created['token']}&since=0")
    text = server.log.read_text()
    assert "GET /api/presets" in text and "[redacted]" in text  # the access log is on, and redacts
    assert len(server.secrets) >= 6
    for secret in server.secrets:
        assert secret not in text

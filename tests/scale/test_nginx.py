"""deploy/nginx.conf.template for real: Debian's nginx in front of two `chickenfoot serve` processes."""

from __future__ import annotations

import http.client
import json
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, nginx_binary, proxied, served
from chickenfoot.testing.waiting import until_now
from services import unavailable

from .conftest import TEMPLATE


class Front:
    """nginx on ``port`` in front of the servers on ``backends``; ``log`` is its access log."""

    def __init__(self, port: int, backends: dict[int, subprocess.Popen[str]], directory: Path) -> None:
        self.port, self.processes, self.log = port, backends, directory / "access.log"
        self.backends = list(backends)

    def request(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())

    def tried(self, status: int) -> list[list[int]]:
        """The server ports tried for each logged request that ended with ``status``, in log order."""
        lines = [line.split(" ", 3) for line in self.log.read_text().splitlines()]
        tried = [fields[3].split(", ") for fields in lines if fields[0] == str(status)]
        return [[int(address.rsplit(":", 1)[1]) for address in addresses] for addresses in tried]

    def served_by(self, status: int) -> list[int]:
        """The server port that answered each logged request that ended with ``status``."""
        return [servers[-1] for servers in self.tried(status)]


@pytest.fixture(scope="module")
def nginx() -> str:
    try:
        return nginx_binary()
    except RuntimeError as exc:
        unavailable("nginx", exc)


@pytest.fixture(scope="module")
def front(nginx: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    # One SQLite file for both processes: each reads a table another created from storage.
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('nginx') / 'games.db'}"
    backends, port = [free_port(), free_port()], free_port()
    with ExitStack() as stack:
        # Scripted clients from one address: the limits per address are out of the way.
        processes = {b: stack.enter_context(served(b, database, options=OPEN_LIMITS)) for b in backends}
        directory = stack.enter_context(proxied(port, backends, TEMPLATE))
        yield Front(port, processes, directory)


def test_http_requests_pass_through_round_robin_to_every_server(front: Front) -> None:
    for _ in range(6):
        status, body = front.request("/api/presets")
        assert status == 200 and "classic" in body["presets"]
    assert set(front.served_by(200)[-6:]) == set(front.backends)


def new_table(front: Front) -> tuple[str, str]:
    """A table of a human and a bot: its code and the human's seat credential."""
    status, table = front.request("/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert status == 201
    return table["code"], table["token"]


def play_through(front: Front, code: str, token: str) -> int:
    """Open the table's socket through nginx as the page would (from its own origin), read its
    state, ping; the server port that served it."""
    logged = len(front.served_by(101))
    page = Origin(f"http://127.0.0.1:{front.port}")  # a port besides 80: the servers must see it in Host
    with connect(f"ws://127.0.0.1:{front.port}/ws/{code}?token={token}", origin=page, open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "state" and first["state"]["code"] == code
        ws.send(json.dumps({"type": "ping"}))
        reply: dict[str, Any] = {}
        while reply.get("type") != "pong":
            reply = json.loads(ws.recv(timeout=10))
    return wait_for_log(front, logged + 1)[-1]


def wait_for_log(front: Front, sockets: int, seconds: float = 30) -> list[int]:
    """The servers of the logged sockets, once ``sockets`` are (nginx logs a socket when it closes and
    tells no one: its log is read again until then)."""
    until_now(lambda: len(front.served_by(101)) >= sockets, seconds, f"nginx logs {sockets} sockets")
    return front.served_by(101)


def test_the_sockets_of_one_table_reach_one_server_and_tables_spread_over_all(front: Front) -> None:
    code, token = new_table(front)
    assert len({play_through(front, code, token) for _ in range(4)}) == 1
    servers: set[int] = set()
    for _ in range(40):  # each table's server is a hash of its code: both show up long before 40
        servers.add(play_through(front, *new_table(front)))
        if servers == set(front.backends):
            break
    assert servers == set(front.backends)


def test_a_dead_server_is_skipped(front: Front) -> None:
    """Runs last: it kills one server for good, and nginx passes its requests to the other."""
    dead, alive = front.backends
    tables = [new_table(front) for _ in range(40)]
    homes = {table: play_through(front, *table) for table in tables}
    front.processes[dead].kill()
    front.processes[dead].wait()
    for _ in range(6):
        assert front.request("/api/presets")[0] == 200
    assert set(front.served_by(200)[-6:]) == {alive}
    assert [dead, alive] in front.tried(200)[-6:]  # tried, refused, passed on
    orphaned = next(table for table, home in homes.items() if home == dead)
    assert play_through(front, *orphaned) == alive  # its table's sockets now go to the other server
    assert front.tried(101)[-1] == [dead, alive]


def test_a_configuration_nginx_refuses_is_reported(nginx: str, tmp_path: Path) -> None:
    broken = tmp_path / "broken.conf.template"
    broken.write_text(TEMPLATE.read_text().replace("proxy_read_timeout 1h;", "proxy_read_timeout;"))
    refused = pytest.raises(RuntimeError, match=r"nginx refuses the configuration.*proxy_read_timeout")
    with refused, proxied(free_port(), [free_port()], broken):
        pass


class Echo(BaseHTTPRequestHandler):
    """Answers every GET with the request's headers, as JSON."""

    def do_GET(self) -> None:
        body = json.dumps({name.lower(): value for name, value in self.headers.items()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_nginx_sets_the_client_address_and_passes_upgrades_on(nginx: str) -> None:
    echo = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=echo.serve_forever, daemon=True).start()
    port = free_port()
    try:
        with proxied(port, [echo.server_address[1]], TEMPLATE):

            def headers(path: str, sent: dict[str, str]) -> dict[str, str]:
                request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=sent)
                with urllib.request.urlopen(request, timeout=10) as response:
                    return dict(json.loads(response.read()))

            plain = headers("/api/presets", {"X-Forwarded-For": "203.0.113.9"})
            upgrade = headers("/ws/ABC", {"Upgrade": "websocket", "Connection": "Upgrade"})
    finally:
        echo.shutdown()
    assert plain["x-forwarded-for"] == "127.0.0.1"  # the client's own address, not what it claimed
    assert plain["host"] == upgrade["host"] == f"127.0.0.1:{port}"  # the port kept: the origin check needs it
    assert "upgrade" not in plain and "connection" not in plain  # kept-alive upstream connection
    assert upgrade["upgrade"] == "websocket" and upgrade["connection"] == "upgrade"


def bot_api_answers(front: Front, token: str, count: int) -> tuple[list[tuple[int, str, str | None]], float]:
    """``count`` seat-view requests with ``token`` on one kept-alive connection, as fast as answered:
    each answer's status, error code and Retry-After, and the seconds they took."""
    connection = http.client.HTTPConnection("127.0.0.1", front.port, timeout=10)
    answers = []
    started = time.monotonic()
    for _ in range(count):
        connection.request("GET", "/api/bot/tables/ABCDEF", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        code = json.loads(response.read()).get("code", "")
        answers.append((response.status, code, response.getheader("Retry-After")))
    connection.close()
    return answers, time.monotonic() - started


def test_a_runaway_bot_token_is_refused_at_the_edge_in_the_apis_error_shape(front: Front) -> None:
    answers, seconds = bot_api_answers(front, "cfb_runaway", 150)
    at_edge = [a for a in answers if a[1] == "botapi.too_many"]
    assert at_edge and all(status == 429 and wait == "1" for status, _, wait in at_edge)
    # Past a burst of 40, at most 40 a second reach the servers (their own answers: no such token, too many lookups).
    reached = len(answers) - len(at_edge)
    assert 40 <= reached <= 41 + 40 * seconds + 1
    # The limit is per token: another token from the same address is not refused by it.
    answers, _ = bot_api_answers(front, "cfb_another", 1)
    assert answers[0][1] != "botapi.too_many"

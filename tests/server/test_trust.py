"""What a real ``chickenfoot serve`` trusts: forwarded headers only from named proxies, its own host
names only, origins only in ``scheme://host[:port]``; HSTS over https; every error with a code."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from chickenfoot.testing.launch import free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # real server processes

TWO_HUMANS = {"seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., str]]:
    """Start real servers (each on a free port with its own SQLite file); all killed at the end."""
    with ExitStack() as stack:

        def make(*options: str) -> str:
            directory = tmp_path_factory.mktemp("server")
            port = free_port()
            stack.enter_context(served(port, f"sqlite+aiosqlite:///{directory / 'games.db'}", options=options))
            return f"http://127.0.0.1:{port}"

        yield make


def create(base: str, forwarded_for: str | None = None) -> int:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return httpx.post(f"{base}/api/tables", json=TWO_HUMANS, headers=headers).status_code


def test_forwarded_for_from_loopback_is_not_believed_by_default(start: Callable[..., str]) -> None:
    base = start("--table-limit", "2/minute")
    answers = [create(base, f"203.0.113.{n}") for n in range(1, 4)]
    assert answers == [201, 201, 429]  # one client, whatever it claims to forward


def test_a_named_proxy_is_believed_and_the_client_is_the_right_most_untrusted_address(
    start: Callable[..., str],
) -> None:
    base = start("--table-limit", "1/minute", "--forwarded-allow-ips", "127.0.0.1")
    assert create(base, "203.0.113.1") == 201
    assert create(base, "203.0.113.2") == 201  # another client behind the proxy
    # A client that prepends an address of its own is still the address the proxy saw.
    assert create(base, "198.51.100.7, 203.0.113.1") == 429
    assert create(base, "203.0.113.2, 127.0.0.1") == 429  # the trusted proxy's own hop is skipped


def test_only_the_servers_own_host_names_are_answered(start: Callable[..., str]) -> None:
    base = start()
    port = base.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert httpx.get(f"{base}/api/presets", headers={"Host": host}).status_code == 200, host
    for host in ("rebound.example", f"rebound.example:{port}", "127.0.0.2", "localhost.example"):
        refused = httpx.get(f"{base}/api/presets", headers={"Host": host})
        assert refused.status_code == 400, host
        assert refused.json()["code"] == "error.bad_host"
    # A page of rebound.example whose name now points at 127.0.0.1: its Origin matches its Host, so only
    # the Host check stops its WebSocket.
    with pytest.raises(InvalidStatus) as denied:
        sock = socket.create_connection(("127.0.0.1", int(port)))
        connect(f"ws://rebound.example:{port}/ws/ABCDEF", sock=sock, origin="http://rebound.example:" + port)  # type: ignore[arg-type]
    assert denied.value.response.status_code == 400


def test_allowed_hosts_replace_the_defaults(start: Callable[..., str]) -> None:
    base = start("--allowed-host", "chickenfoot.example")
    assert httpx.get(f"{base}/api/presets", headers={"Host": "chickenfoot.example"}).status_code == 200
    assert httpx.get(f"{base}/api/presets", headers={"Host": "CHICKENFOOT.example:443"}).status_code == 200
    assert httpx.get(f"{base}/api/presets").status_code == 400  # 127.0.0.1 is no longer named


def test_strict_transport_security_only_over_https(start: Callable[..., str]) -> None:
    direct = start()
    proxied = start("--forwarded-allow-ips", "127.0.0.0/8")
    https = {"X-Forwarded-Proto": "https"}
    assert "strict-transport-security" not in httpx.get(f"{direct}/api/presets").headers
    assert "strict-transport-security" not in httpx.get(f"{direct}/api/presets", headers=https).headers
    assert "strict-transport-security" not in httpx.get(f"{proxied}/api/presets").headers
    said = httpx.get(f"{proxied}/api/presets", headers=https).headers["strict-transport-security"]
    assert said.startswith("max-age=")


@pytest.mark.parametrize(
    "origin",
    ["null", "*", "example.org", "https://example.org/", "https://example.org/path", "ftp://example.org",
     "https://user@example.org", "https://example.org:99999", "https://"],
)  # fmt: skip
def test_an_allowed_origin_that_is_no_origin_stops_the_start_in_one_line(origin: str) -> None:
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(free_port()), "--allowed-origin", origin]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not an origin" in lines[0] and "Traceback" not in ran.stderr


def test_a_proxy_that_is_no_address_stops_the_start_in_one_line() -> None:
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(free_port()), "--forwarded-allow-ips", "*"]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1 and len(ran.stderr.strip().splitlines()) == 1


def test_an_unknown_log_level_stops_the_start_in_one_line() -> None:
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(free_port()), "--log-level", "loud"]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1 and ran.stderr.strip().splitlines() == [
        "chickenfoot: error: unknown log level 'loud': use debug, info, warning, error"
    ]


def test_an_allowed_origin_may_open_tables(start: Callable[..., str]) -> None:
    base = start("--allowed-origin", "HTTPS://Friends.Example:8443")
    code = httpx.post(f"{base}/api/tables", json=TWO_HUMANS).json()["code"]
    url = base.replace("http", "ws") + f"/ws/{code}"
    with connect(url, origin="https://friends.example:8443") as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
    with connect(url, origin="https://friends.example") as ws:  # type: ignore[arg-type]
        refused = json.loads(ws.recv(timeout=10))
        assert refused["code"] == "error.foreign_origin"


def test_every_error_a_client_can_receive_has_a_code(start: Callable[..., str]) -> None:
    base = start("--connection-limit", "1/minute")
    http_errors = [
        httpx.get(f"{base}/api/tables/NOPE42"),
        httpx.delete(f"{base}/api/presets"),  # 405
        httpx.get(f"{base}/no/such/page"),
        httpx.post(f"{base}/api/tables", content=b"{"),
    ]
    for response in http_errors:
        assert response.status_code >= 400 and isinstance(response.json()["code"], str), response.text
    code = httpx.post(f"{base}/api/tables", json=TWO_HUMANS).json()["code"]
    url = base.replace("http", "ws") + f"/ws/{code}"
    with connect(url, max_size=None) as ws:

        def reply() -> dict[str, Any]:
            """The next message that is not a state (the spectator count changes as it arrives)."""
            while (message := json.loads(ws.recv(timeout=10)))["type"] == "state":
                pass
            return dict(message)

        ws.send("x" * 5000)
        too_large = reply()
        assert too_large["code"] == "error.message_too_large" and too_large["limit"] == 4096
        ws.send(json.dumps({"type": "move", "move": "banana", "version": 0}))
        bad_move = reply()
        assert bad_move["code"] == "error.bad_message" and "bad move 'banana'" in bad_move["reason"]
        ws.send(json.dumps({"type": "dance"}))
        assert reply()["code"] == "error.bad_message"
        ws.send(b"binary")
        assert reply()["code"] == "error.binary_frame"
    with pytest.raises(InvalidStatus) as limited:  # the second connection in a minute
        connect(url)
    assert limited.value.response.status_code == 429
    assert json.loads(limited.value.response.body or b"{}")["code"] == "error.too_many_connections"


def test_the_server_prints_the_names_it_answers_for(tmp_path: Path) -> None:
    port = free_port()
    with (tmp_path / "out.log").open("w") as log, served(port, f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", output=log):
        pass
    assert "answers for the host names 127.0.0.1, localhost" in (tmp_path / "out.log").read_text()

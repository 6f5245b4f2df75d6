"""The deployment's nginx caps each client address at the edge (deploy/nginx.conf.template): the requests
it makes a second (429 ``error.too_many_requests``), the requests it holds open at once (its table
sockets included; 429 ``error.too_many_open_connections``) and the time its request head may take. The clients
here come from 127.0.0.2 and 127.0.0.3, other machines as far as nginx knows (127.0.0.1, the machine
itself, is not counted)."""

from __future__ import annotations

import json
import socket
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, nginx_binary, proxied, served
from services import unavailable

from .conftest import TEMPLATE

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

CONNECTIONS, RATE, BURST = 64, 30, 120
"""The template's ``limit_conn`` and ``limit_req`` (a rate a second, and its burst)."""


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    try:
        nginx_binary()
    except RuntimeError as exc:
        unavailable("nginx", exc)
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('caps') / 'games.db'}"
    backend, port = free_port(), free_port()
    with ExitStack() as stack:
        # The server believes nginx, and its own limits per address are out of the way: nginx's are tested.
        options = [*OPEN_LIMITS, "--forwarded-allow-ips", "127.0.0.1"]
        stack.enter_context(served(backend, database, options=options, timeout=90))
        stack.enter_context(proxied(port, [backend], TEMPLATE))
        yield port


def asked(port: int, source: str, path: str) -> socket.socket:
    """A connection from ``source`` that has asked ``GET path`` (its answer not read yet)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    return sock


def answer_of(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the answer on ``sock``, which is closed after."""
    with sock:
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def raw_get(port: int, source: str, path: str) -> tuple[int, bytes]:
    return answer_of(asked(port, source, path))


def test_an_address_past_its_requests_a_second_is_refused(port: int) -> None:
    # All asked at once: far more than the burst and a second's rate, whatever the machine's speed.
    answers = [answer_of(sock) for sock in [asked(port, "127.0.0.2", "/api/presets") for _ in range(3 * BURST)]]
    statuses = [status for status, _ in answers]
    assert set(statuses) == {200, 429}
    refusals = [json.loads(body) for status, body in answers if status == 429]
    # (Some may be refused as too many open at once: these requests were all in flight together.)
    assert {"code": "error.too_many_requests", "limit": RATE} in [
        {key: said[key] for key in ("code", "limit")} for said in refusals
    ]
    # Another address, and the machine itself, are served meanwhile.
    assert raw_get(port, "127.0.0.4", "/api/presets")[0] == 200
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=10) as answer:
        assert answer.status == 200


def test_an_address_past_its_open_connections_is_refused(port: int) -> None:
    head = f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100\r\n\r\n".encode()
    with ExitStack() as held:
        for _ in range(CONNECTIONS):  # each a request whose body is still coming: nginx counts it meanwhile
            sock = held.enter_context(
                socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.3", 0))
            )
            sock.sendall(head)
        status, body = raw_get(port, "127.0.0.3", "/api/presets")
        assert status == 429 and json.loads(body)["code"] == "error.too_many_open_connections"
        assert raw_get(port, "127.0.0.6", "/api/presets")[0] == 200  # another address meanwhile
    # Those requests gone (nginx hears of each as it comes), the address is served again.
    assert any(raw_get(port, "127.0.0.3", "/api/presets")[0] == 200 for _ in range(50))


def test_a_slow_head_is_cut_off_at_the_edge(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=60, source_address=("127.0.0.5", 0)) as sock:
        sock.sendall(f"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
        received = b""
        while chunk := sock.recv(4096):  # until nginx closes it (client_header_timeout)
            received += chunk
    assert b"200 OK" not in received

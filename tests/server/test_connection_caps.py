"""A real ``chickenfoot serve`` closes a connection whose request head does not come whole in time (a
new one's, or a kept-alive one's next), and refuses with 429 ``error.too_many_open_connections`` the
connections of an address past its cap, serving it again once it holds fewer; a table WebSocket past a
cap of the process's counts is answered over HTTP instead of its upgrade (503
``error.server_sockets_full``), and let in again once a socket has closed."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from chickenfoot.testing.launch import free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # a real server process

CAP = 4
SOCKETS = 3
"""The table WebSockets the server may hold at once (``--open-sockets``)."""
SLOW_HEAD = b"GET /api/presets HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
WHOLE = b"GET /api/presets HTTP/1.1\r\nHost: localhost\r\n\r\n"


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    directory, port = tmp_path_factory.mktemp("server"), free_port()
    options = ["--head-timeout", "3", "--open-connections", str(CAP), "--open-sockets", str(SOCKETS)]
    with served(port, f"sqlite+aiosqlite:///{directory / 'games.db'}", options=options, timeout=90):
        yield port


def opened(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def until_closed(sock: socket.socket) -> bytes:
    """All the server sends until it closes the connection (a ``TimeoutError`` after 30 s if it never does)."""
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_a_slow_head_is_cut_off(port: int) -> None:
    with opened(port) as sock:
        sock.sendall(SLOW_HEAD)
        assert until_closed(sock) == b""
    with opened(port) as sock:  # a connection that sends nothing at all
        assert until_closed(sock) == b""


def test_a_kept_alive_connections_next_head_is_timed_too(port: int) -> None:
    with opened(port) as sock:
        sock.sendall(WHOLE)
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 200 ")
        sock.sendall(SLOW_HEAD)
        assert b"HTTP/1.1" not in until_closed(sock)  # the rest of the first answer, then nothing


def test_an_address_past_its_cap_is_refused_until_it_holds_fewer(port: int) -> None:
    held = [opened(port) for _ in range(CAP)]
    try:
        for sock in held:
            sock.sendall(b"GET")  # the start of a head: each connection is open and counted
        with opened(port) as refused:
            answer = until_closed(refused)
        assert answer.startswith(b"HTTP/1.1 429 ") and b"retry-after: 10" in answer
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert body["code"] == "error.too_many_open_connections" and body["limit"] == CAP
    finally:
        for sock in held:
            sock.close()
    # Once they are closed (the server hears it at once), the address is served again.
    for _ in range(100):
        with opened(port) as sock:
            sock.sendall(WHOLE)
            if (answer := sock.recv(4096)).startswith(b"HTTP/1.1 200 "):
                break
    assert answer.startswith(b"HTTP/1.1 200 ")


def watching(stack: ExitStack, port: int, code: str) -> ClientConnection:
    """A spectator's socket at table ``code`` (closed with ``stack``), once its first state has come."""
    ws = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=30))
    first = json.loads(ws.recv(timeout=30))
    assert first["type"] == "state", first
    return ws


def test_a_socket_past_the_process_cap_is_answered_instead_of_upgraded(port: int) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    code = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"seats": seats}).json()["code"]
    with ExitStack() as stack:
        last = ExitStack()
        for _ in range(SOCKETS - 1):
            watching(stack, port, code)
        watching(last, port, code)
        for _ in range(20):  # refused as soon as their requests are read: none of them is counted
            with pytest.raises(InvalidStatus) as refused, connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=30):
                pass
        answer = refused.value.response
        assert answer.status_code == 503 and answer.headers["retry-after"] == "30"
        said = json.loads(answer.body or b"")
        assert (said["code"], said["limit"]) == ("error.server_sockets_full", SOCKETS)
        last.close()
        # One closed (the server hears it at once, or within the next tries): another comes in.
        for _ in range(100):
            try:
                watching(stack, port, code)
                break
            except InvalidStatus:
                continue
        else:
            pytest.fail("no socket came in after one had closed")

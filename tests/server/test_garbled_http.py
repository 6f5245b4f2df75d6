"""Garbage at a real ``chickenfoot serve``: each garbled request gets 400 and a closed connection, an
endless request head is cut off after a few KiB instead of being kept, and the log gets one line for
them all (no traceback); the server serves on."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from chickenfoot.server.run import HEAD_BYTES
from chickenfoot.testing.launch import free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # real server processes

GARBLED = [
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(32)),  # a TLS hello on the plain port
    b"GARBAGE\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost localhost\r\n\r\n",
    b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
]
MESSAGE = "Invalid HTTP request received."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    directory = tmp_path_factory.mktemp("server")
    port, log = free_port(), directory / "log"
    with log.open("w") as output, served(port, f"sqlite+aiosqlite:///{directory / 'games.db'}", output=output):
        yield port, log


def answer(port: int, request: bytes) -> bytes:
    """All the server sends back to ``request`` until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(4096):
            received += chunk
    return received


def test_each_garbled_request_gets_400_and_a_closed_connection(server: tuple[int, Path]) -> None:
    port, _ = server
    for request in GARBLED:
        assert answer(port, request).startswith(b"HTTP/1.1 400 "), request


def test_an_endless_request_head_is_cut_off_not_kept(server: tuple[int, Path]) -> None:
    port, _ = server
    line = b"X-Padding: " + b"a" * 1000 + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        with pytest.raises((ConnectionResetError, BrokenPipeError)):
            while sent < 64 << 20:  # far more than the kernel's buffers hold: the server must read or refuse
                sock.sendall(line)
                sent += len(line)
    # What the server took before refusing is bounded by its limit plus the kernel's buffers.
    assert HEAD_BYTES < sent < 64 << 20


def test_garbage_in_a_loop_logs_one_line_and_no_traceback(server: tuple[int, Path]) -> None:
    port, log = server
    for _ in range(20):
        assert answer(port, b"GARBAGE\r\n\r\n").startswith(b"HTTP/1.1 400 ")
    assert httpx.get(f"http://127.0.0.1:{port}/api/presets", headers={"Host": "localhost"}).status_code == 200
    logged = log.read_text()  # written before the answers: the server logs, then sends the 400
    assert logged.count(MESSAGE) == 1 and "Traceback" not in logged, logged

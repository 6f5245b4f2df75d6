"""Start ``chickenfoot serve`` in a child process and wait until it answers: for tests and benchmarks."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO

OPEN_LIMITS = ("--connection-limit", "1000000/minute", "--table-limit", "1000000/minute")
"""``chickenfoot serve`` options for scripted runs: all their clients share 127.0.0.1, so the limits
per client address are raised out of the way."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(
    port: int,
    database_url: str,
    *,
    pace: float = 0.0,
    output: IO[str] | int = subprocess.DEVNULL,
    timeout: float = 30.0,
    options: Sequence[str] = (),
) -> Iterator[subprocess.Popen[str]]:
    """A running server on ``127.0.0.1:port``, killed on exit; raises ``RuntimeError`` if it never answers.

    ``options`` are more ``chickenfoot serve`` options (limits, expiry).
    """
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(port), "--database-url", database_url]
    process = subprocess.Popen(
        [*command, "--pace", str(pace), *options], stdout=output, stderr=subprocess.STDOUT, text=True
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chickenfoot serve did not start on port {port}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()

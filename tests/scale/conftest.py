"""Fixtures of the several-process tests: the shared Redis, private Redis daemons to restart, workers."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

import pytest
import redis

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, proxied, served
from chickenfoot.testing.stores import database_of, drop_database, fresh_database, migrated
from services import unavailable

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
WORKER = Path(__file__).with_name("worker.py")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The test Redis (CHICKENFOOT_TEST_REDIS_URL, else the local default) once it answers."""
    url = os.environ.get("CHICKENFOOT_TEST_REDIS_URL", DEFAULT_REDIS_URL)
    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as exc:
        unavailable("Redis", exc)
    finally:
        client.close()
    return url


@pytest.fixture
def prefix() -> str:
    """A key and channel prefix of this test alone (the Redis is shared with other runs)."""
    return f"test:{secrets.token_hex(4)}:"


class RedisDaemon:
    """A private ``redis-server`` on a free port that a test may shut down and start again."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server", "not installed")
        self.binary = str(binary)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
            finally:
                client.close()

    def stop(self) -> None:
        """Shut the daemon down the way an operator would (its clients see their connections close)."""
        if self.process is not None and self.process.poll() is None:
            # The reply never comes: the server is gone.
            with redis.Redis.from_url(self.url) as client, suppress(redis.ConnectionError):
                client.shutdown(nosave=True)
            self.process.wait(10)


@pytest.fixture
def redis_daemon() -> Iterator[RedisDaemon]:
    daemon = RedisDaemon()
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.stop()


def worker(*args: str) -> subprocess.Popen[str]:
    """A worker process (tests/scale/worker.py) whose output lines the test reads."""
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )


TEMPLATE = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf.template"


class Fleet:
    """``chickenfoot serve`` processes over one PostgreSQL database and one Redis, with nginx in front."""

    def __init__(self, database_url: str, redis_url: str, count: int, logs: Path) -> None:
        self.database_url, self.redis_url, self.logs = database_url, redis_url, logs
        self.ports = [free_port() for _ in range(count)]
        self.processes: dict[int, subprocess.Popen[str]] = {}
        self._stacks: dict[int, ExitStack] = {}
        self._front = ExitStack()
        self.front = free_port()

    def start(self, *ports: int) -> None:
        """Start the servers on ``ports`` (all at once: they migrate the database together)."""
        with ThreadPoolExecutor(len(ports)) as pool:
            list(pool.map(self._start, ports))

    def _start(self, port: int) -> None:
        stack = ExitStack()
        # A table leaves a process soon after its last use there: tests see it settle on one process.
        options = [*OPEN_LIMITS, "--sweep-seconds", "3600", "--idle-seconds", "1", "--log-level", "debug"]
        log = stack.enter_context((self.logs / f"server-{port}.log").open("a"))
        self.processes[port] = stack.enter_context(
            served(port, self.database_url, redis_url=self.redis_url, options=options, timeout=60, output=log)
        )
        self._stacks[port] = stack

    def proxy(self) -> None:
        try:
            self._front.enter_context(proxied(self.front, self.ports, TEMPLATE))
        except RuntimeError as exc:
            unavailable("nginx", exc)

    def stop(self, port: int, bound: float) -> float:
        """Stop the server on ``port`` as an orchestrator does, by SIGTERM; the seconds it took to exit
        (``subprocess.TimeoutExpired`` past ``bound``)."""
        process = self.processes.pop(port)
        asked = time.monotonic()
        process.terminate()
        process.wait(timeout=bound)
        self._stacks.pop(port).close()
        return time.monotonic() - asked

    def kill(self, port: int) -> None:
        """SIGKILL the server on ``port``."""
        self.processes.pop(port).kill()
        self._stacks.pop(port).close()

    def pid_port(self, pid: int) -> int:
        return next(port for port, process in self.processes.items() if process.pid == pid)

    def base(self, port: int | None = None) -> str:
        """The server on ``port``'s address (nginx's without one)."""
        return f"http://127.0.0.1:{self.front if port is None else port}"

    def close(self) -> None:
        self._front.close()
        for stack in self._stacks.values():
            stack.close()


@contextmanager
def database_beside(pg_url: str, suffix: str) -> Iterator[str]:
    """A migrated PostgreSQL database of its own beside the session's (``NAME_suffix``), dropped afterwards."""
    name = f"{database_of(pg_url)}_{suffix}"
    try:
        url = asyncio.run(fresh_database(pg_url, name))
    except Exception as exc:  # asyncpg's InsufficientPrivilegeError and the like
        unavailable("a PostgreSQL role that may create databases", exc)
    try:
        yield asyncio.run(migrated(url))
    finally:
        asyncio.run(drop_database(pg_url, name))


@pytest.fixture(scope="session")
def scale_database(pg_url: str) -> Iterator[str]:
    """The PostgreSQL database of the several-process tests, beside the session's own: the servers they
    start run their background work (the notifications' outbox, the sweeps, the tournaments' organiser)
    by the real clock, which must not reach the rows of the tests that move a fake clock over the
    session's database."""
    with database_beside(pg_url, "scale") as url:
        yield url


LOG_LINES_SHOWN = 60


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test of the fleet shows the last lines each server process logged: what they did
    meanwhile is the only account of a failure seen on another machine."""
    report = yield
    fleet = getattr(item, "funcargs", {}).get("fleet")
    if report.failed and isinstance(fleet, Fleet):
        for log in sorted(fleet.logs.glob("server-*.log")):
            tail = log.read_text(errors="replace").splitlines()[-LOG_LINES_SHOWN:]
            report.sections.append((f"{log.stem}, last lines", "\n".join(tail)))
    return report


@pytest.fixture(scope="session")
def fleet(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    """Three server processes over one PostgreSQL and one Redis, nginx in front: shared by the session.
    Its database and its Redis are its own: the fleet lives through the session, and its background work
    (the outbox, the quick play queue, the tournaments' organiser, the leases) must not reach the other
    several-process tests' servers."""
    stack = ExitStack()
    database = stack.enter_context(database_beside(pg_url, "fleet"))
    redis_server = RedisDaemon()
    redis_server.start()
    stack.callback(redis_server.stop)
    fleet = Fleet(database, redis_server.url, 3, tmp_path_factory.mktemp("fleet"))
    stack.callback(fleet.close)
    with stack:
        fleet.start(*fleet.ports)
        fleet.proxy()
        yield fleet

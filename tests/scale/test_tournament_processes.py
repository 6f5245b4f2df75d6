"""An arena of twelve scripted players (each an HTTP client signed in to its own account) across two server
processes over one PostgreSQL and one Redis. The process that organises it (it holds the organiser's
lease) is killed in the middle of the event: the other takes the lease over and carries the arena to its
end. No result is lost (every table the arena made has its result, the match its table stored), nobody
sat at two tables at once, and the standings are the library's of those results."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.tournament import ARENA_TIEBREAKS, Result, standings

from .conftest import RedisDaemon, database_beside

PLAYERS = 12
PASSWORD = "tile hub toe chicken"
ORGANISES = "tournaments: this process organises the events"
WAIT_BOUND = 300.0
"""Seconds after which a wait fails the test rather than hang it (never how long anything should take)."""


class Servers:
    """``chickenfoot serve`` processes over one database and one Redis, each logging to a file of its own."""

    def __init__(self, database_url: str, redis_url: str, logs: Path) -> None:
        self.database_url, self.redis_url, self.logs = database_url, redis_url, logs
        self.stacks: dict[int, ExitStack] = {}

    def start(self) -> int:
        port, stack = free_port(), ExitStack()
        log = stack.enter_context(self.log(port).open("a"))
        options = [*OPEN_LIMITS, "--log-level", "info"]
        stack.enter_context(
            served(port, self.database_url, redis_url=self.redis_url, options=options, timeout=60, output=log)
        )
        self.stacks[port] = stack
        return port

    def log(self, port: int) -> Path:
        return self.logs / f"server-{port}.log"

    def organises(self, port: int) -> bool:
        return ORGANISES in self.log(port).read_text(errors="replace")

    def kill(self, port: int) -> None:
        self.stacks.pop(port).close()  # SIGKILL: nothing is finished, nothing is said

    def close(self) -> None:
        for stack in self.stacks.values():
            stack.close()


@pytest.fixture
def servers(pg_url: str, redis_daemon: RedisDaemon, tmp_path: Path) -> Iterator[Servers]:
    """The arena's processes, over a database and a Redis of their own: no other server organises its
    events, and no other test's sign-ups count against its address."""
    with database_beside(pg_url, "arena") as database:
        running = Servers(database, redis_daemon.url, tmp_path)
        try:
            yield running
        finally:
            running.close()


def signed_up(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["x-csrf-token"] = answer.json()["csrf"]
    return client


def until(base: str, code: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The event's page once ``done`` holds of it: read now, and again at each change its live news tells of."""
    with (
        httpx.Client(base_url=base, timeout=httpx.Timeout(30, read=WAIT_BOUND)) as client,
        client.stream("GET", f"/api/tournaments/{code}/events") as news,
    ):
        for line in news.iter_lines():
            if line.startswith("data:"):
                shown = client.get(f"/api/tournaments/{code}").json()
                if done(shown):
                    return dict(shown)
    raise AssertionError("the event's news ended")


def at(moment: str) -> datetime:
    return datetime.fromisoformat(moment)


def people_seats(tables: list[dict[str, Any]], ends_at: str) -> int:
    """The people's seats at the tables that finished in time: the matches the standings count."""
    return sum(1 for t in tables if at(t["finished_at"]) <= at(ends_at) for seat in t["seats"] if seat is not None)


def counted(shown: dict[str, Any]) -> bool:
    """The arena is over, every table has its result and the standings count every one that ended in time."""
    if shown["status"] != "finished" or shown["standings"] is None:
        return False
    tables = shown["tables"]
    if any(t["finished_at"] is None for t in tables):
        return False
    matches: int = sum(r["matches"] for r in shown["standings"]["rows"])
    return matches == people_seats(tables, shown["ends_at"])


def some_finished_and_some_in_play(shown: dict[str, Any]) -> bool:
    finished = [t for t in shown["tables"] if t["finished_at"] is not None]
    return len(finished) >= 3 and len(finished) < len(shown["tables"])


def test_an_arena_survives_the_kill_of_its_organiser_and_loses_no_result(servers: Servers) -> None:
    first = servers.start()
    second = servers.start()
    base = {port: f"http://127.0.0.1:{port}" for port in (first, second)}
    suffix = secrets.token_hex(3)
    players = [signed_up(base[(first, second)[n % 2]], f"p{n}{suffix}") for n in range(PLAYERS)]
    try:
        settings = {"format": "arena", "minutes": 1.5, "table_size": 4, "match_rounds": 1, "max_wait": 5}
        made = players[0].post("/api/tournaments", json={"name": "Arena", **settings})
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        for player in players:  # through both processes (each signed up at one of them)
            joined = player.post(f"/api/tournaments/{code}/join")
            assert joined.status_code == 200, joined.text
        assert players[0].post(f"/api/tournaments/{code}/start").status_code == 200
        before = until(base[first], code, some_finished_and_some_in_play)
        organiser = next(port for port in (first, second) if servers.organises(port))  # it has seated tables
        survivor = second if organiser == first else first
        servers.kill(organiser)
        shown = until(base[survivor], code, counted)
    finally:
        for player in players:
            player.close()

    assert servers.organises(survivor)  # it took the lease over
    tables = shown["tables"]
    assert {t["code"] for t in tables} > {t["code"] for t in before["tables"]}  # the survivor seated more
    with httpx.Client(base_url=base[survivor], timeout=30) as reader:
        for table in tables:  # no result lost: each one is its stored match's
            record = reader.get(f"/api/tables/{table['code']}/record").json()
            totals = [sum(points) for points in zip(*(r["points"] for r in record["rounds"]), strict=True)]
            assert table["points"] == totals, table["code"]
    seats: dict[int, list[tuple[datetime, datetime]]] = {}
    for table in tables:
        for seat in table["seats"]:
            if seat is not None:
                seats.setdefault(seat, []).append((at(table["started_at"]), at(table["finished_at"])))
    for account, times in seats.items():  # nobody at two tables at once
        times.sort()
        assert all(end <= start for (_, end), (start, _) in itertools.pairwise(times)), (account, times)
    ends_at = at(shown["ends_at"])
    results = [
        Result(
            t["code"], tuple(None if s is None else str(s) for s in t["seats"]), tuple(t["points"]), tuple(t["places"])
        )
        for t in tables
        if at(t["finished_at"]) <= ends_at
    ]
    library = standings(results, ARENA_TIEBREAKS, [str(e["id"]) for e in shown["entrants"]])
    rows = shown["standings"]["rows"]
    assert [(r["player"], r["rank"], r["score"], r["matches"]) for r in rows] == [
        (row.player, row.rank, row.score, row.matches) for row in library
    ]

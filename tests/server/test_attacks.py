"""Hostile clients against a real ``chickenfoot serve``: floods, non-readers, reconnect storms, limits, expiry."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from chickenfoot.testing.clients import (
    Attack,
    CreatedTable,
    Measure,
    create_table,
    flood,
    honest_players,
    never_read,
    reconnect_storm,
)
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.waiting import until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]  # real server processes

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


@dataclass(frozen=True)
class Server:
    base: str
    log: Path
    pid: int

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")

    async def logged(self, words: str, times: int = 1) -> bool:
        return self.log.read_text().count(words) >= times

    def memory(self) -> float:
        """The server's resident memory, in MiB."""
        pages = int(Path(f"/proc/{self.pid}/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Server]]:
    """Start real servers (each on a free port, with its own SQLite file and log); all killed at the end."""
    stops: list[Callable[[], None]] = []

    def make(*options: str, pace: float = 0.0) -> Server:
        directory = tmp_path_factory.mktemp("server")
        port, log = free_port(), directory / "server.log"
        output = log.open("w")
        context = served(
            port, f"sqlite+aiosqlite:///{directory / 'games.db'}", pace=pace, output=output, options=options
        )
        process = context.__enter__()
        stops.append(lambda: (context.__exit__(None, None, None), output.close()))
        return Server(f"http://127.0.0.1:{port}", log, process.pid)

    yield make
    for stop in stops:
        stop()


@pytest.fixture(scope="module")
def fast(start: Callable[..., Server]) -> Server:
    """Automatic play without pauses; limits per address out of the way."""
    return start(*OPEN_LIMITS)


async def ping_times(url: str, count: int) -> list[float]:
    """Round trips of ``count`` pings at a person's pace (5 a second)."""
    times = []
    async with connect(url, ping_interval=None, max_size=2**22) as ws:
        await ws.recv()  # the first state
        for _ in range(count):
            sent = time.perf_counter()
            await ws.send('{"type": "ping"}')
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            times.append(time.perf_counter() - sent)
            await asyncio.sleep(0.2)
    return times


def test_flooders_are_disconnected_and_other_tables_play_on(fast: Server) -> None:
    async def scenario() -> tuple[Attack, list[float], list[float]]:
        async with httpx.AsyncClient(base_url=fast.base) as http:
            target = await create_table(http, {"seats": [HUMAN, HUMAN]})
            honest = await create_table(http, {"seats": [HUMAN, HUMAN]})
        quiet = await ping_times(fast.ws + honest.seats[0], 10)
        attack, stop = Attack(), asyncio.Event()
        flooders = [asyncio.create_task(flood(fast.ws + f"/ws/{target.code}", attack, stop)) for _ in range(4)]
        busy = await ping_times(fast.ws + honest.seats[0], 10)
        await asyncio.wait_for(asyncio.gather(*flooders), 30)  # each one ends: the server closed it
        return attack, quiet, busy

    attack, quiet, busy = asyncio.run(scenario())
    reason = "disconnected: too many messages (at most 10 a second, bursts of 20)"
    assert attack.closes == [(4429, reason)] * 4, attack.closes
    print(f"pings: quiet max {1000 * max(quiet):.1f} ms, while flooded max {1000 * max(busy):.1f} ms")
    assert max(busy) < 1.0


def test_an_address_cut_off_for_flooding_pauses_before_it_connects_again(start: Callable[..., Server]) -> None:
    paused = start("--connection-limit", "1000/minute", "--table-limit", "1000/minute")  # the cut-off pause on

    async def scenario() -> tuple[Attack, Attack, bool]:
        async with httpx.AsyncClient(base_url=paused.base) as http:
            table = await create_table(http, {"seats": [HUMAN, HUMAN]})
        url = paused.ws + f"/ws/{table.code}"
        first, again, stop = Attack(), Attack(), asyncio.Event()
        await asyncio.wait_for(flood(url, first, stop, source="127.0.0.7"), 30)
        await flood(url, again, stop, source="127.0.0.7")  # refused at the handshake: no messages to cost
        async with connect(url, ping_interval=None) as ws:  # another address is not held back
            other = json.loads(await ws.recv())["type"] == "state"
        return first, again, other

    first, again, other = asyncio.run(scenario())
    assert [code for code, _ in first.closes] == [4429]
    assert again.refused == 1 and again.connections == 0 and other


SILENT = 20


def test_clients_that_stop_reading_are_disconnected_with_a_final_error(fast: Server) -> None:
    async def scenario() -> tuple[Attack, float, float]:
        async with httpx.AsyncClient(base_url=fast.base) as http:
            # Large states (190 tiles, 8 seats) and no pauses: the non-reader's buffers fill quickly.
            # All 19 rounds the set allows: the match goes on well past the non-readers' cut-off.
            table = await create_table(http, {"preset": "double-18", "seats": [HUMAN] + [GREEDY] * 7, "rounds": 19})
        measure, stop, attack = Measure(), asyncio.Event(), Attack()
        players = [
            asyncio.create_task(p.play(stop))
            for p in honest_players(fast.base, [table], 0.1, random.Random(3), measure)
        ]
        await until(lambda: measure.messages > 20, 20, "the table plays")
        started, before, peak = time.monotonic(), fast.memory(), 0.0

        async def all_cut() -> bool:
            nonlocal peak
            peak = max(peak, fast.memory())
            return await fast.logged(f"at table {table.code}: disconnected: not reading", SILENT)

        # Each is cut off; once all are, each reads its backlog up to the server's final error and
        # close, however long a busy machine takes to deliver it (the server waits FINAL_SEND_SECONDS
        # for a client to read them, so they start reading at once).
        url, cut = fast.ws + f"/ws/{table.code}", asyncio.Event()
        silent = [asyncio.create_task(never_read(url, attack, cut, drain=60)) for _ in range(SILENT)]
        await until(all_cut, 60, "every non-reader cut off")
        cut.set()
        detected = time.monotonic() - started
        seen = measure.messages
        await until(lambda: measure.messages > seen + 20, 10, "the table plays on")
        stop.set()
        await asyncio.gather(*silent, *players)
        return attack, detected, (peak - before) / SILENT

    attack, detected, per_client = asyncio.run(scenario())
    assert attack.closes == [(4408, "disconnected: not reading (a message waited over 5 s)")] * SILENT, attack.closes
    print(f"{SILENT} non-readers cut within {detected:.1f} s; server memory at most {1024 * per_client:.0f} KiB each")
    assert per_client < 1.0  # MiB: the socket's buffers and one state, not a backlog


def test_a_reconnect_storm_does_not_delay_the_bots(start: Callable[..., Server]) -> None:
    paced = start(*OPEN_LIMITS, pace=0.5)  # bots move 0.4 s after their turn comes
    bot_delay = 0.4

    async def scenario() -> tuple[list[float], Attack]:
        async with httpx.AsyncClient(base_url=paced.base) as http:
            table = await create_table(http, {"seats": [HUMAN, GREEDY, GREEDY, GREEDY], "rounds": 1})
        measure, stop, attack = Measure(), asyncio.Event(), Attack()
        players = [
            asyncio.create_task(p.play(stop))
            for p in honest_players(paced.base, [table], 0.05, random.Random(4), measure)
        ]
        storms = [
            asyncio.create_task(reconnect_storm(paced.ws + f"/ws/{table.code}", attack, stop, per_second=10))
            for _ in range(2)
        ]
        gaps = await bot_gaps(paced.ws + f"/ws/{table.code}", moves=12)
        stop.set()
        await asyncio.gather(*storms, *players)
        return gaps, attack

    gaps, attack = asyncio.run(scenario())
    print(f"bot move gaps under a storm of {attack.connections} connections: max {max(gaps):.2f} s")
    assert attack.connections >= 20
    assert max(gaps) < bot_delay + 1.5, gaps


async def bot_gaps(url: str, moves: int) -> list[float]:
    """Seconds from each bot's turn to its move, watched as a spectator, for ``moves`` bot moves."""
    gaps: list[float] = []
    turn_came: float | None = None
    async with connect(url, ping_interval=None, max_size=2**22) as ws:
        while len(gaps) < moves:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] != "state" or not message["events"]:
                continue  # presence changes do not count
            state = message["state"]
            if turn_came is not None and any(
                e["kind"] not in ("turn", "connected", "disconnected") for e in message["events"]
            ):
                gaps.append(time.monotonic() - turn_came)
                turn_came = None
            if state["round_over"] is None and state["kinds"][state["to_move"]] == "bot":
                turn_came = time.monotonic()
    return gaps


def test_limits_per_address_answer_429_with_a_reason(start: Callable[..., Server]) -> None:
    strict = start("--connection-limit", "5/minute", "--table-limit", "3/minute")

    async def scenario() -> tuple[list[httpx.Response], str, list[int]]:
        async with httpx.AsyncClient(base_url=strict.base) as http:
            created = [await http.post("/api/tables", json={"seats": [HUMAN, HUMAN]}) for _ in range(4)]
        code = created[0].json()["code"]
        refused = ""
        opened = []
        for _ in range(6):
            try:
                async with connect(f"{strict.ws}/ws/{code}", ping_interval=None) as ws:
                    opened.append(json.loads(await ws.recv())["type"] == "state")
            except InvalidStatus as exc:
                opened.append(False)
                refused = f"{exc.response.status_code} {exc.response.body.decode()}"
        return created, refused, [int(o) for o in opened]

    created, refused, opened = asyncio.run(scenario())
    assert [r.status_code for r in created] == [201, 201, 201, 429]
    last = created[-1]
    assert last.json()["detail"].startswith("too many new tables from your address (at most 3 in 60 s)")
    # The page words the refusal from its code in the reader's language (docs/protocol.md).
    assert last.json() | {"seconds": 0} == {
        "detail": last.json()["detail"],
        "code": "error.too_many_tables",
        "limit": 3,
        "window": 60,
        "seconds": 0,
    }
    assert last.headers["retry-after"].isdigit()
    assert opened == [1, 1, 1, 1, 1, 0]
    # The handshake's refusal is the same message as the HTTP API's: English and its code.
    status, _, body = refused.partition(" ")
    assert status == "429" and "\n" not in body
    said = json.loads(body)
    assert said["detail"].startswith("too many new connections from your address (at most 5 in 60 s)")
    assert said["code"] == "error.too_many_connections" and said["limit"] == 5


def test_unplayed_tables_leave_storage_and_played_ones_stay(start: Callable[..., Server]) -> None:
    expiring = start(*OPEN_LIMITS, "--unplayed-ttl", "1", "--sweep-seconds", "0.3")

    async def scenario() -> tuple[int, int]:
        async with httpx.AsyncClient(base_url=expiring.base) as http:
            unplayed = await create_table(http, {"seats": [HUMAN, HUMAN]})
            played = await create_table(http, {"seats": [HUMAN, GREEDY], "rounds": 1})
            stop = asyncio.Event()
            player = honest_players(expiring.base, [played], 0.0, random.Random(5), Measure())[0]
            await asyncio.wait_for(player.play(stop), 60)  # to the end of the match

            def gone(table: CreatedTable) -> Callable[[], Awaitable[bool]]:
                async def deleted() -> bool:
                    return (await http.get(f"/api/tables/{table.code}")).status_code == 404

                return deleted

            await until(gone(unplayed), 10, "the unplayed table is deleted")
            # A table left unplayed from now on is deleted by a later sweep: the played one outlives it.
            later = await create_table(http, {"seats": [HUMAN, HUMAN]})
            await until(gone(later), 10, "a later unplayed table is deleted")
            return (await http.get(f"/api/tables/{played.code}/record")).status_code, int(await gone(unplayed)())

    assert asyncio.run(scenario()) == (200, 1)


@pytest.mark.parametrize(
    ("option", "words"),
    [("--connection-limit", "couldn't parse rate limit string 'lots'"), ("--limits-storage", "bad limits storage")],
)
def test_a_bad_limit_is_one_line_and_a_failure(option: str, words: str, tmp_path: Path) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    command = [sys.executable, "-m", "chickenfoot", "serve", "--database-url", database, option, "lots"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr

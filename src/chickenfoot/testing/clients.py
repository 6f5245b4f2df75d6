"""Scripted clients of a running server, for the tests and the load benchmark: honest and hostile.

- :func:`creation` is the requests that make a table (invites claimed, everyone ready), sent by
  :func:`new_table` (an app's ``TestClient`` or a blocking ``httpx.Client``) or :func:`create_table`
  (asynchronous, returning each human seat's URL path).
- :class:`HonestPlayer` plays a seat with random legal moves after a think time, measures each
  move's round trip, reconnects with ``since`` when the connection drops, and remembers every
  move it saw acknowledged.
- :func:`flood`, :func:`never_read` and :func:`reconnect_storm` are the hostile ones.
- :func:`crash_and_resume` SIGKILLs a server under honest players, restarts it, and checks that
  what every player saw acknowledged is what storage holds.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sys
import time
from collections.abc import Generator
from contextlib import AsyncExitStack, ExitStack, suppress
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from chickenfoot.server.table.protocol import whole_log
from chickenfoot.testing.launch import OPEN_LIMITS, served

Step = tuple[str, dict[str, Any], int]
"""One request of a table's creation: the path to ``POST`` to, its JSON body, the status it must get."""


def creation(body: dict[str, Any], claim: bool = True) -> Generator[Step, dict[str, Any], dict[str, Any]]:
    """The requests that make a table, whatever sends them: the answer to each is sent back in.

    ``POST /api/tables`` with ``body``; with ``claim``, every friend's invite is claimed and, with
    more than one person at the table, everyone presses Ready (the match has begun). Returns the
    table as created, each seat held by a person listing its ``token``.
    """
    table = yield "/api/tables", body, 201
    code = table["code"]
    for seat in table["seats"]:
        if seat["seat"] == table["seat"]:
            seat["token"] = table["token"]
        elif "invite" in seat and claim:
            claimed = yield f"/api/tables/{code}/claim", {"invite": seat["invite"].split("?invite=")[1]}, 200
            seat["token"] = claimed["token"]
    people = [seat for seat in table["seats"] if "token" in seat]
    for seat in people if claim and len(people) > 1 else []:
        yield f"/api/tables/{code}/ready", {"token": seat["token"]}, 200
    return table


def refused(path: str, status: int, response: httpx.Response) -> AssertionError:
    return AssertionError(f"POST {path}: {response.status_code} instead of {status}: {response.text}")


def new_table(http: httpx.Client, body: dict[str, Any], claim: bool = True) -> dict[str, Any]:
    """:func:`creation` over a blocking client: an app's ``TestClient``, or an ``httpx.Client`` whose
    ``base_url`` is a server's. Raises ``AssertionError`` when a request is refused."""
    steps = creation(body, claim)
    try:
        path, data, status = next(steps)
        while True:
            response = http.post(path, json=data)
            if response.status_code != status:
                raise refused(path, status, response)
            path, data, status = steps.send(response.json())
    except StopIteration as done:
        table: dict[str, Any] = done.value
        return table


@dataclass(frozen=True, slots=True)
class CreatedTable:
    code: str
    seats: dict[int, str]
    """Each human seat's WebSocket path, credential included."""
    source: str | None = None
    """The local address its players connect from (``None``: any)."""


async def create_table(http: httpx.AsyncClient, body: dict[str, Any], source: str | None = None) -> CreatedTable:
    """:func:`creation` (every invite claimed, everyone ready) over an asynchronous client, and every
    human seat's WebSocket path.

    Raises ``AssertionError`` when a request is refused. With ``source`` the requests, and later the
    table's players, come from that local address.
    """
    async with AsyncExitStack() as stack:
        if source is not None:
            transport = httpx.AsyncHTTPTransport(local_address=source)
            http = await stack.enter_async_context(
                httpx.AsyncClient(base_url=http.base_url, transport=transport, timeout=http.timeout)
            )
        steps = creation(body)
        try:
            path, data, status = next(steps)
            while True:
                response = await http.post(path, json=data)
                if response.status_code != status:
                    raise refused(path, status, response)
                path, data, status = steps.send(response.json())
        except StopIteration as done:
            table: dict[str, Any] = done.value
    seats = {seat["seat"]: f"/ws/{table['code']}?token={seat['token']}" for seat in table["seats"] if "token" in seat}
    return CreatedTable(table["code"], dict(sorted(seats.items())), source)


def loopback(group: int, n: int) -> str:
    """The ``n``-th address of a group of loopback addresses (all of 127.0.0.0/8 reaches this machine)."""
    return f"127.{group}.{n // 250}.{n % 250 + 1}"


def origin(source: str | None) -> dict[str, Any]:
    """``connect`` options that make a connection come from ``source``."""
    return {} if source is None else {"local_addr": (source, 0)}


@dataclass
class Measure:
    """What honest players saw: round trips of their moves (while ``measuring``) and errors."""

    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    measuring: bool = True


class HonestPlayer:
    """One seat played by a script at a person's pace; seat 0 (or any seat, with ``deals``) deals new rounds."""

    def __init__(
        self,
        base: str,
        path: str,
        seat: int,
        think: float,
        rng: random.Random,
        measure: Measure,
        deals: bool,
        source: str | None = None,
    ) -> None:
        self.url = base.replace("http://", "ws://") + path
        self.source = source
        self.seat, self.think, self.rng, self.measure, self.deals = seat, think, rng, measure, deals
        self.version = -1
        self.state: dict[str, Any] = {}
        self.seen: dict[int, list[str]] = {}
        """Moves of each round acknowledged to this client (the log of the latest state of that round)."""
        self.reconnects = 0
        self._sent_at: float | None = None
        self._sent_version = -1
        self._pending: asyncio.Task[None] | None = None
        self._new_state = asyncio.Event()

    def over(self) -> bool:
        return bool(self.state) and self.state["match_over"] is not None

    async def reached(self, version: int) -> None:
        """Until this seat has seen ``version`` or the end of its match."""
        while self.version < version and not self.over():
            self._new_state.clear()
            await self._new_state.wait()

    async def play(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` is set or the match is over; reconnects (with ``since``) whenever the socket drops."""
        # aiohttp rather than websockets for the honest players, who are the load benchmark's bulk:
        # its client takes about a fifth less CPU per message, CPU that the servers share.
        connector = aiohttp.TCPConnector(limit=0, local_addr=None if self.source is None else (self.source, 0))
        async with aiohttp.ClientSession(connector=connector) as session:
            while not stop.is_set() and not self.over():
                since = f"&since={self.version}" if self.version >= 0 else ""
                try:
                    async with asyncio.timeout(10):
                        ws = await session.ws_connect(self.url + since, max_msg_size=2**22)
                    async with ws:
                        reader = asyncio.create_task(self._read(ws))
                        stopped = asyncio.create_task(stop.wait())
                        await asyncio.wait((reader, stopped), return_when=asyncio.FIRST_COMPLETED)
                        reader.cancel()
                        stopped.cancel()
                except (OSError, aiohttp.ClientError, TimeoutError):
                    pass
                if not stop.is_set() and not self.over():
                    self.reconnects += 1
                    await asyncio.sleep(0.2 + 0.3 * self.rng.random())

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._sent_at, self._sent_version = None, -1  # a new connection: what was sent before may be lost
        previous: dict[str, Any] | None = None  # the last state on this connection: each continues its log
        async for frame in ws:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                return  # the connection failed: reconnect
            message = orjson.loads(frame.data)
            self.measure.messages += 1
            if message["type"] == "error":
                if self.measure.measuring:
                    self.measure.errors.append(message["message"])
                self._sent_at = None
                self._sent_version = -1  # answer the latest state again
                if self.state:
                    self._on_state(ws, self.version, self.state)
                continue
            if message["type"] == "state":
                self._on_state(ws, message["version"], whole_log(message["state"], previous))
                previous = self.state
                if self.over():
                    return

    def _on_state(self, ws: aiohttp.ClientWebSocketResponse, version: int, state: dict[str, Any]) -> None:
        self.version, self.state = version, state
        self._new_state.set()
        self.seen[state["round"]] = [entry["move"] for entry in state["log"]]
        if self._sent_at is not None and version > self._sent_version:
            if self.measure.measuring:
                self.measure.round_trips.append(time.perf_counter() - self._sent_at)
            self._sent_at = None
        if (self._pending is not None and not self._pending.done()) or version <= self._sent_version:
            return
        if state["status"] != "playing" or state["match_over"] is not None:
            return
        if state["round_over"] is not None:
            if self.deals:
                self._send(ws, version, {"type": "next_round"})
            return
        legal = state["legal"]
        forced = len(legal) == 1 and legal[0] in ("draw", "pass")  # the server makes it
        if state["to_move"] == self.seat and legal and not forced:
            self._send(ws, version, {"type": "move", "move": self.rng.choice(legal), "version": version})

    def _send(self, ws: aiohttp.ClientWebSocketResponse, version: int, message: dict[str, Any]) -> None:
        self._sent_version = version

        async def later() -> None:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            self._sent_at = time.perf_counter()
            with suppress(OSError, aiohttp.ClientError):  # closed meanwhile: the reader reconnects
                await ws.send_str(json.dumps(message))

        self._pending = asyncio.create_task(later())


def honest_players(
    base: str, tables: list[CreatedTable], think: float, rng: random.Random, measure: Measure
) -> list[HonestPlayer]:
    return [
        HonestPlayer(
            base, path, seat, think, random.Random(rng.random()), measure, seat == min(table.seats), table.source
        )
        for table in tables
        for seat, path in table.seats.items()
    ]


# --- hostile clients --------------------------------------------------------------------------


@dataclass
class Attack:
    """What the hostile clients achieved, and how the server answered them."""

    sent: int = 0
    connections: int = 0
    refused: int = 0
    """Connections refused by the server (HTTP 429 and the like)."""
    closes: list[tuple[int | None, str]] = field(default_factory=list)
    """Close code and final ``error`` of each connection the server ended."""


async def flood(url: str, attack: Attack, stop: asyncio.Event, source: str | None = None) -> None:
    """Send pings as fast as the socket takes them, read whatever comes, until the server ends it."""
    message = '{"type": "ping"}'
    try:
        async with connect(url, ping_interval=None, max_queue=None, **origin(source)) as ws:
            attack.connections += 1
            last_error = ""

            async def read() -> None:
                nonlocal last_error
                with suppress(ConnectionClosed):
                    async for text in ws:
                        data = json.loads(text)
                        if data.get("type") == "error":
                            last_error = data["message"]

            reader = asyncio.create_task(read())
            with suppress(ConnectionClosed):
                while not stop.is_set():
                    await ws.send(message)
                    attack.sent += 1
                    if attack.sent % 50 == 0:
                        await asyncio.sleep(0)  # let the reader run
            with suppress(TimeoutError):
                await asyncio.wait_for(reader, 5)
            if ws.close_code is not None:
                attack.closes.append((ws.close_code, last_error))
    except InvalidStatus:
        attack.refused += 1


async def never_read(
    url: str,
    attack: Attack,
    stop: asyncio.Event,
    source: str | None = None,
    receive_buffer: int = 4096,
    drain: float = 5.0,
) -> None:
    """Open a socket with a small receive buffer and never read from it, until ``stop``; then read what is
    left, until the server closes the connection or ``drain`` seconds have passed (a table in play never
    stops sending).

    Records the close code and the last ``error`` the server sent, if the server ended the connection.
    """
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    if source is not None:
        sock.bind((source, 0))
    host, port = url.split("/")[2].split(":")
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    try:
        # max_queue=1: the client library itself stops reading once one message waits.
        async with connect(url, sock=sock, ping_interval=None, max_queue=1, max_size=2**22) as ws:
            attack.connections += 1
            await stop.wait()
            last_error = ""
            with suppress(ConnectionClosed, TimeoutError):
                async with asyncio.timeout(drain):
                    while True:
                        data = json.loads(await ws.recv())
                        if data.get("type") == "error":
                            last_error = data["message"]
            if ws.close_code is not None:
                attack.closes.append((ws.close_code, last_error))
    except InvalidStatus:
        attack.refused += 1


async def reconnect_storm(
    url: str, attack: Attack, stop: asyncio.Event, per_second: float, source: str | None = None
) -> None:
    """Connect, read the first state, leave; ``per_second`` times a second until ``stop``."""
    while not stop.is_set():
        started = time.monotonic()
        try:
            async with connect(url, ping_interval=None, max_size=2**22, open_timeout=10, **origin(source)) as ws:
                attack.connections += 1
                await asyncio.wait_for(ws.recv(), 10)
        except InvalidStatus:
            attack.refused += 1
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
            pass
        await asyncio.sleep(max(0.0, 1 / per_second - (time.monotonic() - started)))


# --- after a crash ------------------------------------------------------------------------------


async def records(http: httpx.AsyncClient, tables: list[CreatedTable]) -> dict[str, dict[str, Any] | None]:
    """Each table's stored match record (``None`` while its match is not over)."""
    out: dict[str, dict[str, Any] | None] = {}
    for table in tables:
        response = await http.get(f"/api/tables/{table.code}/record")
        out[table.code] = response.json() if response.status_code == 200 else None
    return out


def disagreements(players: list[HonestPlayer], stored: dict[str, dict[str, Any] | None]) -> list[str]:
    """Where what the players saw differs from the stored records (an empty list: none).

    Every move a player saw acknowledged must be in the record of its round, every match must have
    ended, and each player's final scores and last round must be the record's.
    """
    problems = []
    for player in players:
        code = player.url.split("/ws/")[1].split("?")[0]
        record = stored[code]
        if record is None:
            problems.append(f"table {code}: the match did not finish")
            continue
        rounds = record["rounds"]
        for number, seen in sorted(player.seen.items()):
            moves = rounds[number - 1]["moves"] if number <= len(rounds) else []
            if moves[: len(seen)] != seen:
                problems.append(f"table {code} seat {player.seat}: round {number} moves seen are not stored")
        final = player.state
        if [r["points"] for r in rounds] != final["scores"]:
            problems.append(f"table {code} seat {player.seat}: final scores differ from the record")
        if [entry["move"] for entry in final["log"]] != rounds[-1]["moves"]:
            problems.append(f"table {code} seat {player.seat}: final round differs from the record")
    return problems


async def crash_and_resume(
    database_url: str,
    port: int,
    stack: ExitStack,
    tables: int,
    rounds: int | None,
    think: float,
    seconds: float,
    seed: int,
    played: int = 0,
) -> dict[str, Any]:
    """Play ``tables`` matches, SIGKILL the server after ``seconds`` once every seat has seen version
    ``played``, restart it, play every match to its end.

    Servers are entered on ``stack``. Returns figures and ``problems``: every disagreement between
    what the players saw and the stored records (none expected).
    """
    base = f"http://127.0.0.1:{port}"
    server = await asyncio.to_thread(stack.enter_context, served(port, database_url, options=OPEN_LIMITS))
    measure, stop, rng = Measure(), asyncio.Event(), random.Random(seed)
    body: dict[str, Any] = {"seats": [{"kind": "human"} for _ in range(4)], "rounds": rounds}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = [await create_table(http, body) for _ in range(tables)]
    players = honest_players(base, created, think, rng, measure)
    tasks = [asyncio.create_task(player.play(stop)) for player in players]
    await asyncio.sleep(seconds)  # the benchmark's share of play before the kill
    async with asyncio.timeout(max(120.0, 10 * seconds)):
        await asyncio.gather(*(player.reached(played) for player in players))
    seen_at_kill = sum(player.version for player in players)
    over_at_kill = sum(player.over() for player in players)
    os.kill(server.pid, signal.SIGKILL)
    killed = time.monotonic()
    await asyncio.to_thread(server.wait)
    await asyncio.to_thread(stack.enter_context, served(port, database_url, options=OPEN_LIMITS))
    restarted = time.monotonic() - killed
    with suppress(TimeoutError):  # a match left unfinished is among the problems found below
        async with asyncio.timeout(max(120.0, 10 * seconds)):
            await asyncio.gather(*(player.reached(sys.maxsize) for player in players))
    finished = time.monotonic() - killed
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        problems = disagreements(players, await records(http, created))
    return {
        "tables": tables,
        "database": database_url.split(":")[0],
        "versions_seen_at_kill": seen_at_kill,
        "players_done_before_kill": over_at_kill,
        "restart_seconds": round(restarted, 1),
        "all_finished_seconds_after_kill": round(finished, 1),
        "reconnects": sum(player.reconnects for player in players),
        "moves_checked": sum(len(moves) for player in players for moves in player.seen.values()),
        "problems": problems,
    }

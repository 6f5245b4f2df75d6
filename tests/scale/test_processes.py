"""Several `chickenfoot serve` processes over one PostgreSQL and one Redis serve one table together.

Players of one table connect to different processes (directly, or through nginx's round robin);
each process builds its own messages from the actions stored in the database. Every client must
see the same game in the same order, the stored record must be what they saw, and no message may
name a tile its recipient cannot see.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chickenfoot import Match
from chickenfoot.server.table.protocol import whole_log
from chickenfoot.testing.clients import CreatedTable, create_table
from chickenfoot.testing.waiting import until
from server.test_hidden_information import audit

from .conftest import Fleet, RedisDaemon
from .players import Recorder

HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "bot": "easy"}


async def new_table(base: str, seats: list[dict[str, Any]], **extra: Any) -> CreatedTable:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return await create_table(http, {"seats": seats, **extra})


async def record_of(base: str, code: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        response = await http.get(f"/api/tables/{code}/record")
        response.raise_for_status()
        return dict(response.json())


def lease_holder(fleet: Fleet, code: str) -> int:
    """The port of the process that holds the table's lease (its name holds its process id)."""
    with redis.Redis.from_url(fleet.redis_url) as client:
        value = client.get(f"chickenfoot:lease:table:{code}")
    assert value is not None, "nobody holds the table's lease"
    return process_port(fleet, value.decode().split()[0])


def process_port(fleet: Fleet, process: str) -> int:
    """The port of the server named ``process`` in Redis (``host.pid.random``)."""
    return fleet.pid_port(int(process.split(".")[-2]))


def socket_servers(fleet: Fleet, code: str) -> set[int]:
    """The ports of the processes that hold sockets of the table (from the counts they share in Redis)."""
    with redis.Redis.from_url(fleet.redis_url, decode_responses=True) as client:
        counts = client.hgetall(f"chickenfoot:connections:{code}")
    return {process_port(fleet, field.split(":")[0]) for field, count in counts.items() if int(count) > 0}


def same_game(clients: list[Recorder], record: dict[str, Any]) -> None:
    """Every client saw the same events in the same order, at rising versions, ending at the stored record."""
    final = clients[0].version
    for client in clients:
        assert client.versions == sorted(client.versions), "versions out of order"
        assert client.version == final and client.over()
        assert client.stream == clients[0].stream, "clients saw different games"
        rounds = record["rounds"]
        assert [r["points"] for r in rounds] == client.state["scores"]
        for number, seen in client.seen.items():
            assert rounds[number - 1]["moves"][: len(seen)] == seen, "a move seen is not the stored one"
        assert [entry["move"] for entry in client.state["log"]] == rounds[-1]["moves"]
    assert any(event[0] == "match_over" for event in clients[0].stream)


async def play_match(fleet: Fleet, ports: list[int], seats: list[dict[str, Any]]) -> tuple[list[Recorder], Match]:
    """Each human seat on the next process in turn, a spectator on the last; the match to its end."""
    table = await new_table(fleet.base(ports[0]), seats, rounds=2)
    rng = random.Random(len(ports))
    clients = [
        Recorder(fleet.base(ports[n % len(ports)]), path, seat, random.Random(rng.random()))
        for n, (seat, path) in enumerate(table.seats.items())
    ]
    clients.append(Recorder(fleet.base(ports[-1]), f"/ws/{table.code}", None, rng))
    async with asyncio.timeout(180):
        await asyncio.gather(*(client.run() for client in clients))
    record = await record_of(fleet.base(ports[1]), table.code)
    # Coming back with since=0 at every process: the same last version, round log and result, and the
    # events sent with it (those a process still keeps; a full snapshot otherwise) end as the match did.
    for port in ports:
        late = Recorder(fleet.base(port), table.seats[0], 0, rng)
        await late.run()
        assert late.version == clients[0].version
        assert late.state["log"] == clients[0].state["log"]
        assert late.state["match_over"] == clients[0].state["match_over"]
        assert clients[0].stream[len(clients[0].stream) - len(late.stream) :] == late.stream
    same_game(clients, record)
    return clients, Match.from_record(record)


@pytest.fixture(scope="module")
def matches(fleet: Fleet) -> Iterator[dict[int, tuple[list[Recorder], Match]]]:
    """A whole match with bots over 2 processes and one over 3."""
    two = asyncio.run(play_match(fleet, fleet.ports[:2], [HUMAN, HUMAN, BOT, BOT]))
    three = asyncio.run(play_match(fleet, fleet.ports, [HUMAN, HUMAN, BOT, HUMAN]))
    yield {2: two, 3: three}


@pytest.mark.parametrize("processes", [2, 3])
def test_players_on_different_processes_play_one_match(
    matches: dict[int, tuple[list[Recorder], Match]], processes: int
) -> None:
    clients, match = matches[processes]
    assert match.is_over()
    assert len({client.url.split("/ws/")[0] for client in clients}) == processes  # really over every process
    assert all(client.versions for client in clients)


def test_no_message_leaks_hidden_tiles_across_processes(matches: dict[int, tuple[list[Recorder], Match]]) -> None:
    clients, match = matches[3]
    checked = sum(audit(client.messages, client.seat, match) for client in clients)
    assert checked > 30  # the audit saw many states while tiles were hidden


Delays = tuple[float, float]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    delays=st.tuples(*[st.sampled_from([0.0, 0.0005, 0.002, 0.01])] * 2),
    picks=st.tuples(st.integers(0, 99), st.integers(0, 99)),
)
def test_simultaneous_moves_at_two_processes_one_is_accepted(
    fleet: Fleet, delays: Delays, picks: tuple[int, int]
) -> None:
    asyncio.run(race(fleet, delays, picks))


async def race(fleet: Fleet, delays: Delays, picks: tuple[int, int]) -> None:
    """The seat to move sends two different moves for one version, one through each of two processes."""
    first, second = fleet.ports[:2]
    table = await new_table(fleet.base(first), [HUMAN, HUMAN], rounds=1, turn_timer=None)
    async with AsyncExitStack() as stack:
        sockets: dict[tuple[int, int], Watcher] = {}
        for seat, path in table.seats.items():
            for port in (first, second):
                ws = await stack.enter_async_context(connect(fleet.base(port).replace("http", "ws") + path))
                sockets[seat, port] = Watcher(ws)
        async with asyncio.timeout(60):
            while True:  # play on until the seat to move has a choice
                state, version = await sockets[0, first].latest()
                mover = state["to_move"]
                own = await sockets[mover, first].at_least(version)
                if sockets[mover, first].version != version:  # the mover's socket is ahead: catch up with it
                    await sockets[0, first].at_least(sockets[mover, first].version)
                    continue
                legal = own["legal"]
                if len(legal) >= 2:
                    break
                if legal[0] not in ("draw", "pass"):  # the server makes only the forced moves
                    await sockets[mover, first].send({"type": "move", "move": legal[0], "version": version})
                await sockets[0, first].newer(version)
            a, b = sockets[mover, first], sockets[mover, second]
            await b.newer(version - 1)
            picked = [legal[picks[0] % len(legal)], legal[picks[1] % len(legal)]]
            if picked[0] == picked[1]:
                picked[1] = legal[(picks[1] + 1) % len(legal)]
            logged = len(state["log"])

            async def send(watcher: Watcher, move: str, delay: float) -> None:
                await asyncio.sleep(delay)
                await watcher.send({"type": "move", "move": move, "version": version})

            marks = len(a.messages), len(b.messages)
            await asyncio.gather(send(a, picked[0], delays[0]), send(b, picked[1], delays[1]))
            outcomes = await asyncio.gather(a.answer(version, marks[0]), b.answer(version, marks[1]))
            refused = [error for error in outcomes if error is not None]
            assert len(refused) == 1 and refused[0].startswith("stale version"), outcomes
            winner = picked[outcomes.index(None)]
            # Every socket, on either process, ends at the same version with the winner's move in its log.
            final = max(watcher.version for watcher in sockets.values())
            states = {key: await watcher.at_least(final) for key, watcher in sockets.items()}
            for seat in table.seats:
                assert states[seat, first]["log"] == states[seat, second]["log"]  # each seat's own view
            moves = {tuple(entry["move"] for entry in state["log"]) for state in states.values()}
            assert len(moves) == 1 and moves.pop()[logged] == winner


class Watcher:
    """A raw socket whose messages a background task reads into a list."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.version = -1
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with suppress(ConnectionClosed):
            async for text in self.ws:
                message = json.loads(text)
                self.messages.append(message)
                if message["type"] == "state":
                    message["state"] = whole_log(message["state"], self.state or None)
                    self.state, self.version = message["state"], message["version"]

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def latest(self) -> tuple[dict[str, Any], int]:
        await until(lambda: self.version >= 0, 10, "a first state")
        return self.state, self.version

    async def newer(self, version: int) -> None:
        await until(lambda: self.version > version, 10, f"a state after version {version}")

    async def at_least(self, version: int) -> dict[str, Any]:
        await until(lambda: self.version >= version, 10, f"version {version}")
        return self.state

    async def answer(self, version: int, start: int) -> str | None:
        """The error answering a move sent at ``version`` after message ``start`` (``None``: accepted)."""
        await until(lambda: self.version > version, 10, "the table moved on")
        # Replies on one socket come in order: once the pong is here, so is the move's error, if any.
        pongs = sum(m["type"] == "pong" for m in self.messages)
        await self.send({"type": "ping"})
        await until(lambda: sum(m["type"] == "pong" for m in self.messages) > pongs, 10, "the pong")
        errors = [m["message"] for m in self.messages[start:] if m["type"] == "error"]
        assert len(errors) <= 1, errors
        return str(errors[0]) if errors else None


BOT_SEATS = (1, 3)


def test_the_lease_holder_killed_mid_round_another_process_takes_over(fleet: Fleet) -> None:
    async def scenario() -> tuple[float, float, list[Recorder], dict[str, Any]]:
        # Three rounds: a kill late in the second round still leaves bot moves to come.
        table = await new_table(fleet.base(), [HUMAN, BOT, HUMAN, BOT], rounds=3)
        rng = random.Random(3)
        clients = [
            Recorder(fleet.base(), path, seat, random.Random(rng.random()), think=0.05)
            for seat, path in table.seats.items()
        ]
        tasks = [asyncio.create_task(client.run()) for client in clients]
        await until(lambda: min(c.version for c in clients) >= 12, 60, "play under way")
        # nginx routes all the table's sockets to one process; the others let the table go once
        # idle, and the lease with it, so the holder becomes the process the players are on.
        await until(lambda: settled(fleet, table.code), 20, "the lease with the players' process")
        holder = lease_holder(fleet, table.code)
        fleet.kill(holder)
        killed = time.monotonic()
        await until(lambda: lease_holder_alive(fleet, table.code), 10, "a new lease holder")
        taken_over = time.monotonic() - killed
        bots_moved = await bot_moved_after(clients, killed + 20)
        resumed = bots_moved - killed
        async with asyncio.timeout(120):
            await asyncio.gather(*tasks)
        record = await record_of(fleet.base(), table.code)
        fleet.start(holder)  # the other tests find three processes again
        return taken_over, resumed, clients, record

    taken_over, resumed, clients, record = asyncio.run(scenario())
    assert taken_over < 5 and resumed < 10, (taken_over, resumed)
    same_game(clients, record)
    assert sum(client.connections for client in clients) > len(clients)  # someone reconnected through nginx


def settled(fleet: Fleet, code: str) -> bool:
    """The table's lease is held by the one process its sockets are on."""
    try:
        return {lease_holder(fleet, code)} == socket_servers(fleet, code)
    except (AssertionError, StopIteration):
        return False


def lease_holder_alive(fleet: Fleet, code: str) -> bool:
    try:
        return lease_holder(fleet, code) in fleet.processes
    except (AssertionError, StopIteration):
        return False


async def bot_moved_after(clients: list[Recorder], deadline: float) -> float:
    """When a client first saw a bot's move after this call (by then the new holder has the lease,
    and the moves the killed holder made have reached the clients that reconnected at once)."""
    seen = [len(client.stream) for client in clients]
    while time.monotonic() < deadline:
        for client, start in zip(clients, seen, strict=True):
            if any(event[1] in BOT_SEATS and event[0] in ("play", "draw", "pass") for event in client.stream[start:]):
                return time.monotonic()
        await asyncio.sleep(0.02)
    versions = [client.version for client in clients]
    over = [client.over() for client in clients]
    raise AssertionError(f"no bot moved after the holder was killed (versions {versions}, match over {over})")


def test_redis_restarted_mid_game_nothing_lost_or_repeated(
    scale_database: str, redis_daemon: RedisDaemon, tmp_path: Path
) -> None:
    fleet = Fleet(scale_database, redis_daemon.url, 2, tmp_path)
    try:
        fleet.start(*fleet.ports)

        async def scenario() -> tuple[list[Recorder], dict[str, Any]]:
            table = await new_table(fleet.base(fleet.ports[0]), [HUMAN, HUMAN, BOT, HUMAN], rounds=2)
            rng = random.Random(5)
            clients = [
                Recorder(fleet.base(fleet.ports[n % 2]), path, seat, random.Random(rng.random()), think=0.05)
                for n, (seat, path) in enumerate(table.seats.items())
            ]
            clients.append(Recorder(fleet.base(fleet.ports[1]), f"/ws/{table.code}", None, rng))
            tasks = [asyncio.create_task(client.run()) for client in clients]
            await until(lambda: min(c.version for c in clients) >= 10, 60, "play under way")
            await asyncio.to_thread(redis_daemon.stop)
            await asyncio.sleep(1.5)
            if (ws := clients[0].ws) is not None:
                await ws.close()  # one client comes back meanwhile, with since
            await asyncio.to_thread(redis_daemon.start)
            async with asyncio.timeout(150):
                await asyncio.gather(*tasks)
            return clients, await record_of(fleet.base(fleet.ports[1]), table.code)

        clients, record = asyncio.run(scenario())
    finally:
        fleet.close()
    same_game(clients, record)
    assert clients[0].connections >= 2

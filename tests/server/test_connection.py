"""One connection's life, driven without sockets: the edges where its table changes under it."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from chickenfoot.messages import Said
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.server.clock import SYSTEM_CLOCK, Clock, FakeClock, SystemClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import CatchUp, LocalBus, Message, Subscriber, Unsubscribe
from chickenfoot.server.edge.client import FINAL_SEND_SECONDS, ConnectionLimits, SendWatch, serve_connection
from chickenfoot.server.edge.line_stream import KEEPALIVE_SECONDS, LineSocket, ndjson
from chickenfoot.server.http.caps import OpenCaps, OpenHolds
from chickenfoot.server.storage import Storage, game_tables
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.registry import TableRegistry
from chickenfoot.view import SeatView

from .conftest import INSTANT

ADDRESS = "127.0.0.1"
"""The client address of every connection served here."""


async def no_address_limit() -> None:
    """The per-address chat limit, never reached here."""


async def no_hints(_view: SeatView) -> tuple[Move, Said]:
    raise AssertionError("these clients ask no hint")


class FakeSocket:
    """What serve_connection uses of a WebSocket; the client leaves as soon as it is read from."""

    def __init__(self, query: dict[str, str]) -> None:
        self.query_params = query
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"type": "websocket.disconnect"}


async def hub_with_table(
    tmp_path: Path, fanout: Any = None, clock: Clock = SYSTEM_CLOCK
) -> tuple[TableRegistry, str, str]:
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", SystemClock())
    await storage.migrate()
    hub = TableRegistry(storage, fanout or LocalBus(), INSTANT, LocalConnections(), clock)
    config = TableConfig(Rules(), [Seat("human", "Ann", taken=True), Seat("human", "Bo")], seed=1)
    table = await hub.create(config)
    token = await hub.credentials.issue_seat(table.code, 0)
    assert token is not None
    return hub, table.code, token


def connection_of(
    socket: Any,
    hub: TableRegistry,
    code: str,
    limits: ConnectionLimits | None = None,
    watch: SendWatch | None = None,
    **options: Any,
) -> Coroutine[Any, Any, int | None]:
    """``socket``'s connection to table ``code``, with no limit per address, no hints and no caps reached."""
    return serve_connection(
        socket,
        code,
        hub,
        limits or ConnectionLimits(),
        no_address_limit,
        no_hints,
        watch or SendWatch(SYSTEM_CLOCK),
        OpenHolds(OpenCaps()).hold(),
        ADDRESS,
        **options,
    )


async def serve_to_the_end(hub: TableRegistry, code: str, token: str) -> FakeSocket:
    """Serve a client of ``token`` (it disconnects at its first read) until the connection ends; then
    close the hub and its storage."""
    socket = FakeSocket({"token": token})
    await asyncio.wait_for(connection_of(socket, hub, code), timeout=10)
    await hub.close()
    await hub.storage.close()
    return socket


def test_a_table_gone_from_storage_while_connecting_ends_the_connection(tmp_path: Path) -> None:
    async def scenario() -> FakeSocket:
        hub, code, token = await hub_with_table(tmp_path)
        table = hub.tables[code]
        real_seat_of = hub.credentials.seat_of

        async def seat_of_while_the_table_goes(code_: str, secret: str | None, seating: int | None) -> int | None:
            # Once the credential is checked, the table leaves memory and its row leaves storage (its
            # credentials with it: they would open nothing after).
            seat = await real_seat_of(code_, secret, seating)
            hub.release(table)
            await asyncio.sleep(0)
            async with hub.storage.engine.begin() as conn:
                await conn.execute(sa.delete(game_tables).where(game_tables.c.code == code))
            return seat

        hub.credentials.seat_of = seat_of_while_the_table_goes  # type: ignore[method-assign]
        return await serve_to_the_end(hub, code, token)

    socket = asyncio.run(scenario())
    assert socket.closed == 4404 and "no table" in socket.sent[-1]


class StayingSocket(FakeSocket):
    """A client that stays until told to leave; ``served`` is set once its first state is sent."""

    def __init__(self, query: dict[str, str]) -> None:
        super().__init__(query)
        self.served = asyncio.Event()
        self.leave = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await super().send_text(text)
        self.served.set()

    async def receive(self) -> dict[str, Any]:
        await self.leave.wait()
        return {"type": "websocket.disconnect"}


def test_a_spectator_whose_table_leaves_memory_while_connecting_watches_the_table_read_back(tmp_path: Path) -> None:
    async def scenario() -> tuple[bool, int]:
        hub, code, _ = await hub_with_table(tmp_path)
        first = hub.tables[code]

        async def reason_while_the_table_goes() -> str:
            hub.release(first)  # nobody is connected here yet: it leaves memory
            await asyncio.sleep(0)
            return "no_seat"

        socket = StayingSocket({})
        serving = asyncio.create_task(connection_of(socket, hub, code, watching_reason=reason_while_the_table_goes))
        await asyncio.wait_for(socket.served.wait(), 10)
        table = hub.tables[code]
        # Watching the table in memory (which hears every later change), not the released one.
        watched = table is not first and not table.closed, table.counts.spectators
        socket.leave.set()
        await asyncio.wait_for(serving, 10)
        await hub.close()
        await hub.storage.close()
        return watched

    assert asyncio.run(scenario()) == (True, 1)


class ReplayingBus(LocalBus):
    """A backend that hands a new subscriber the last message at once (as a replaying broker may)."""

    def __init__(self) -> None:
        super().__init__()
        self.last: Message | None = None

    async def publish(self, channel: str, message: Message) -> None:
        self.last = message
        await super().publish(channel, message)

    def subscribe(self, channel: str, callback: Subscriber, catch_up: CatchUp | None = None) -> Unsubscribe:
        unsubscribe = super().subscribe(channel, callback, catch_up)
        if self.last is not None:
            callback(self.last)
        return unsubscribe


def test_a_change_delivered_while_subscribing_finds_the_connections_outbox(tmp_path: Path) -> None:
    async def scenario() -> FakeSocket:
        fanout = ReplayingBus()
        hub, code, token = await hub_with_table(tmp_path, fanout)
        await fanout.publish(hub.tables[code].channel(), {"version": 0, "events": []})
        # The replayed change arrives inside subscribe(), before the first state is queued.
        return await serve_to_the_end(hub, code, token)

    socket = asyncio.run(scenario())
    assert socket.closed is None and socket.sent and '"type":"state"' in socket.sent[0].replace(" ", "")


class StuckSocket(FakeSocket):
    """A client that reads its first message and then stops: the second send never completes."""

    client = None

    def __init__(self, query: dict[str, str]) -> None:
        super().__init__(query)
        self.sends = 0
        self.first_read = asyncio.Event()
        self.stuck = asyncio.Event()
        self.cut = asyncio.Event()
        """The server gave up the stuck send."""

    async def send_text(self, text: str) -> None:
        self.sends += 1
        if self.sends == 2:
            self.stuck.set()
            try:
                await asyncio.Event().wait()
            finally:
                self.cut.set()
        self.sent.append(text)
        self.first_read.set()

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("never reached")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def test_a_client_that_stops_reading_is_cut_off_once_its_message_waited_too_long(tmp_path: Path) -> None:
    async def scenario() -> tuple[int | None, float, StuckSocket]:
        clock = FakeClock()
        hub, code, token = await hub_with_table(tmp_path, clock=clock)
        socket = StuckSocket({"token": token})
        limits = ConnectionLimits(send_timeout=0.3)
        watch = SendWatch(clock)
        serving = asyncio.create_task(connection_of(socket, hub, code, limits, watch))
        await socket.first_read.wait()
        table = hub.tables[code]
        await hub.fanout.publish(table.channel(), {"version": table.version, "events": []})
        await socket.stuck.wait()
        started = clock.monotonic()
        while not socket.cut.is_set():  # the watch looks every CHECK_SECONDS of the clock
            clock.advance(0.05)
            await asyncio.sleep(0)  # the cut-off, if due, reaches the stuck send
        waited = clock.monotonic() - started
        closed = await asyncio.wait_for(serving, 10)
        await hub.close()
        await hub.storage.close()
        return closed, waited, socket

    closed, waited, socket = asyncio.run(scenario())
    assert closed == socket.closed == 4408
    assert "not reading (a message waited over 0.3 s)" in socket.sent[-1]
    assert 0.3 <= waited < 0.3 + 2 * SendWatch.CHECK_SECONDS


class DeafSocket(StuckSocket):
    """A client that reads its first message and no other: every later send, the final error too, waits forever."""

    async def send_text(self, text: str) -> None:
        self.sends += 1
        if self.sends > 1:
            self.stuck.set()
            await asyncio.Event().wait()
        self.sent.append(text)
        self.first_read.set()


def test_the_final_error_to_a_client_that_reads_nothing_is_given_up_on_the_tables_clock(tmp_path: Path) -> None:
    async def scenario() -> tuple[bool, int | None]:
        clock = FakeClock()
        hub, code, token = await hub_with_table(tmp_path, clock=clock)
        socket = DeafSocket({"token": token})
        watch = SendWatch(clock)
        limits = ConnectionLimits(send_timeout=0.3)
        serving = asyncio.create_task(connection_of(socket, hub, code, limits, watch))
        await socket.first_read.wait()
        table = hub.tables[code]
        await hub.fanout.publish(table.channel(), {"version": table.version, "events": []})
        await socket.stuck.wait()
        while socket.sends < 3:  # cut off as not reading; then the final error waits too
            clock.advance(SendWatch.CHECK_SECONDS)
            await asyncio.sleep(0)
        for _ in range(10):
            await asyncio.sleep(0)
        waiting = not serving.done()
        clock.advance(FINAL_SEND_SECONDS)  # no real time passes: the clock alone ends the wait
        closed = await asyncio.wait_for(serving, FINAL_SEND_SECONDS / 2)
        await hub.close()
        await hub.storage.close()
        return waiting, closed

    assert asyncio.run(scenario()) == (True, 4408)


def test_a_quiet_line_stream_gets_a_keepalive_each_time_its_clock_says(tmp_path: Path) -> None:
    async def scenario() -> list[bytes]:
        clock, keep = FakeClock(), set[asyncio.Task[Any]]()
        socket = LineSocket(None)
        lines = ndjson(socket, asyncio.Event().wait, keep, clock)
        got = []
        for _ in range(2):
            next_line = asyncio.ensure_future(anext(lines))
            for _ in range(5):
                await asyncio.sleep(0)
            assert not next_line.done()  # nothing to send, and no time passed
            clock.advance(KEEPALIVE_SECONDS)
            got.append(await asyncio.wait_for(next_line, KEEPALIVE_SECONDS / 2))
        await lines.aclose()
        for task in keep:
            task.cancel()
        return got

    assert asyncio.run(scenario()) == [b"\n", b"\n"]

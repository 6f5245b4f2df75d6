"""The turn timer: the table's own clock, kept across restarts; a bot plays a turn that ran out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from fastapi.testclient import TestClient

from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus, Message
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.commands import Attach, Close, Play, Wake
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.ports import ALONE
from chickenfoot.server.table.protocol import LogSent

from .conftest import INSTANT, create_table, seat_players, settle

HUMAN = {"kind": "human"}


def two_humans(timer: int | None, clock: FakeClock) -> TableConfig:
    seats = [Seat("human", "Ann", taken=True), Seat("human", "Bo", taken=True)]
    return TableConfig(Rules(), seats, seed=5, turn_timer=timer, playing_since=clock.now())


class Silent:
    """A player's page that is open and says nothing (a listener that ignores what it hears)."""

    def attached(self, first: str, log_sent: LogSent) -> None:
        pass

    def on_change(self, message: Message) -> None:
        pass


async def both_there(table: Table) -> None:
    """Both players have the table open, and neither moves."""
    for seat in (0, 1):
        await table.submit(Attach(seat, Silent()))


def services(storage: Storage, clock: FakeClock, news: LocalBus | None = None) -> Services:
    return Services(storage, news or LocalBus(), INSTANT, LocalConnections(), clock)


async def opened(tmp_path: Path, config: TableConfig, clock: FakeClock) -> tuple[Storage, Table, LocalBus]:
    """The table, and the bus that carries its news in this process."""
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", clock)
    await storage.migrate()
    await storage.create_table("TIMER1", config.to_json())
    news = LocalBus()
    table = Table.restore("TIMER1", config, [], services(storage, clock, news), ALONE)
    await both_there(table)
    return storage, table, news


def moved(table: Table, news: LocalBus) -> asyncio.Event:
    """Set when the table publishes its next version."""
    published = asyncio.Event()

    def heard(message: Message) -> None:
        if message.get("version", 0) > 0:
            published.set()

    news.subscribe(table.channel(), heard)
    return published


def test_a_turn_that_runs_out_is_played_by_the_seats_bot(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int, float | None]:
        clock = FakeClock()
        storage, table, news = await opened(tmp_path, two_humans(1, clock), clock)
        mover, deadline = table.match.to_move, table.turn_deadline()
        published = moved(table, news)
        await table.submit(Wake())
        clock.advance(0.99)
        await asyncio.sleep(0)  # anything due would start now
        early = table.version
        clock.advance(0.01)  # the deadline
        await asyncio.wait_for(published.wait(), 30)
        assert table.match.round.history[0].seat == mover and not table.presence().covered[mover]
        await table.submit(Close())
        await storage.close()
        return early, table.version, deadline

    early, version, deadline = asyncio.run(scenario())
    assert early == 0 and version == 1  # not before the deadline; then exactly one move
    assert deadline is not None


def test_no_timer_no_automatic_move(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, float | None, int]:
        clock = FakeClock()
        storage, table, _news = await opened(tmp_path, two_humans(None, clock), clock)
        await table.submit(Wake())
        planned = clock.pending()
        clock.advance(3600)
        await asyncio.sleep(0)
        await table.submit(Close())
        await storage.close()
        return table.version, table.turn_deadline(), planned

    assert asyncio.run(scenario()) == (0, None, 0)  # nothing planned, and an hour later nothing moved


def test_each_move_replaces_the_plan_instead_of_adding_one(tmp_path: Path) -> None:
    """Every version of a timed table plans its turn timer anew: the older plans leave nothing waiting."""

    async def scenario() -> tuple[int, int, int, int]:
        clock = FakeClock()
        storage, table, news = await opened(tmp_path, two_humans(60, clock), clock)
        await table.submit(Wake())
        waiting_at_first, planned_at_first = len(asyncio.all_tasks()), clock.pending()
        moves = 0
        while moves < 30 and not table.match.round.is_over():
            mover = table.match.to_move
            if table.match.round.forced_move() is not None:  # the server's own move, due at once
                published = moved(table, news)
                version = table.version
                clock.advance(0)
                while table.version == version:
                    published.clear()
                    await asyncio.wait_for(published.wait(), 30)
                continue
            await table.submit(Play(mover, str(table.match.round.legal_moves()[0]), table.version))
            moves += 1
        waiting, planned = len(asyncio.all_tasks()), clock.pending()
        assert table.turn_deadline() is not None or table.match.round.is_over()
        await table.submit(Close())
        await storage.close()
        return waiting_at_first, waiting, planned_at_first, planned

    first, after, planned_first, planned = asyncio.run(scenario())
    assert after <= first + 1  # one timer per table, not a task asleep for a minute per version
    assert planned_first == 1 and planned <= 1  # and one timer planned at a time


def test_the_deadline_survives_a_restart_unchanged(tmp_path: Path) -> None:
    async def scenario() -> tuple[float | None, float | None, float]:
        clock = FakeClock()
        config = two_humans(60, clock)
        storage, table, _news = await opened(tmp_path, config, clock)
        clock.advance(7)
        await table.submit(Play(table.match.to_move, str(table.match.round.legal_moves()[0]), table.version))
        moved_at = clock.now()
        before = table.turn_deadline()
        await table.submit(Close())
        clock.advance(20)  # the restart takes a while: the turn's clock runs on meanwhile
        loaded = await storage.load_table("TIMER1")
        assert loaded is not None
        last_action = await storage.last_action_time("TIMER1")
        config = TableConfig.from_json(loaded[0])
        again = Table.read_back("TIMER1", config, loaded[1], last_action, services(storage, clock), ALONE)
        await both_there(again)  # a clock runs for a player who has the table open: both are back
        await storage.close()
        return before, again.turn_deadline(), moved_at

    before, after, moved_at = asyncio.run(scenario())
    assert before is not None and before == after
    assert abs(before - (moved_at + 60)) < 0.001


def test_the_default_timer_depends_on_friends(client: TestClient) -> None:
    def timer(seats: list[dict[str, str]], **extra: object) -> object:
        return create_table(client, seats, claim=False, **extra)["turn_timer"]

    assert timer([HUMAN, {"kind": "bot"}]) is None
    assert timer([HUMAN, HUMAN]) == 60
    assert timer([HUMAN, HUMAN], turn_timer=None) is None
    assert timer([HUMAN, {"kind": "bot"}], turn_timer=30) == 30
    refused = client.post("/api/tables", json={"seats": [HUMAN, HUMAN], "turn_timer": 45})
    assert refused.status_code == 400 and "turn_timer" in refused.json()["detail"]


def test_end_to_end_a_silent_player_loses_the_turn_to_a_bot(make_client: Callable[..., TestClient]) -> None:
    clock = FakeClock()
    client = make_client(clock=clock)
    table = create_table(client, [HUMAN, HUMAN], turn_timer=30)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        settle(players)
        # A turn clock runs once its player has the table open: read on until both are counted.
        state = players[0].until_state(lambda s: all(s["connected"]))
        assert state["turn_timer"] == 30 and state["turn_deadline"] > clock.now() + 20
        live = client.app.state.hub.tables[table["code"]]  # type: ignore[attr-defined]
        version, mover = live.version, state["to_move"]
        client.portal.call(clock.advance, 29.9)  # type: ignore[union-attr]
        client.portal.call(asyncio.sleep, 0)  # type: ignore[union-attr]
        assert live.version == version  # not a moment early
        client.portal.call(clock.advance, 0.1)  # type: ignore[union-attr]  # the clock alone moves on: no message
        after = players[1 - mover].until_state(lambda s: players[1 - mover].version > version)
        assert after["log"][-1]["seat"] == mover and not after["covered"][mover]

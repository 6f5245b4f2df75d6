"""The turn timer: the table's own clock, kept across restarts; a bot plays a turn that ran out."""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from pathlib import Path

from fastapi.testclient import TestClient

from chickenfoot.rules import Rules
from chickenfoot.server.fanout import LocalBus
from chickenfoot.server.storage import Storage
from chickenfoot.server.table import Seat, Table, TableConfig

from .conftest import INSTANT, create_table, seat_players, settle

HUMAN = {"kind": "human"}


def two_humans(timer: int | None) -> TableConfig:
    seats = [Seat("human", "Ann", taken=True), Seat("human", "Bo", taken=True)]
    return TableConfig(Rules(), seats, seed=5, turn_timer=timer, playing_since=time.time())


async def opened(tmp_path: Path, config: TableConfig) -> tuple[Storage, Table]:
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
    await storage.migrate()
    await storage.create_table("TIMER1", config.to_json())
    table = Table.restore("TIMER1", config, [], storage, LocalBus(), INSTANT)
    for seat in (0, 1):
        table.arrive(seat)  # both players are there, and neither moves
    return storage, table


def test_a_turn_that_runs_out_is_played_by_the_seats_bot(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int, float | None]:
        storage, table = await opened(tmp_path, two_humans(1))
        mover, deadline = table.match.to_move, table.turn_deadline()
        table.schedule()
        await asyncio.sleep(0.5)
        early = table.version
        for _ in range(100):
            if table.version > early:
                break
            await asyncio.sleep(0.05)
        assert table.match.round.history[0].seat == mover and mover not in table.covered
        await table.close()
        await storage.close()
        return early, table.version, deadline

    early, version, deadline = asyncio.run(scenario())
    assert early == 0 and version == 1  # not before the deadline; then exactly one move
    assert deadline is not None


def test_no_timer_no_automatic_move(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, float | None]:
        storage, table = await opened(tmp_path, two_humans(None))
        table.schedule()
        await asyncio.sleep(1.3)
        await table.close()
        await storage.close()
        return table.version, table.turn_deadline()

    assert asyncio.run(scenario()) == (0, None)


def test_each_move_replaces_the_plan_instead_of_adding_one(tmp_path: Path) -> None:
    """Every version of a timed table plans its turn timer anew: the older plans leave nothing waiting."""

    async def scenario() -> tuple[int, int]:
        storage, table = await opened(tmp_path, two_humans(60))
        table.schedule()
        waiting_at_first = len(asyncio.all_tasks())
        moves = 0
        while moves < 30 and not table.match.round.is_over():
            await table.act(table.match.to_move, str(table.match.round.legal_moves()[0]), table.version)
            moves += 1
        await asyncio.sleep(0.3)  # the automatic moves (forced draws and passes) that follow are done
        waiting = len(asyncio.all_tasks())
        assert table.turn_deadline() is not None or table.match.round.is_over()
        await table.close()
        await storage.close()
        return waiting_at_first, waiting

    first, after = asyncio.run(scenario())
    assert after <= first + 1  # one timer per table, not a task asleep for a minute per version


def test_the_deadline_survives_a_restart_unchanged(tmp_path: Path) -> None:
    async def scenario() -> tuple[float | None, float | None]:
        config = two_humans(60)
        storage, table = await opened(tmp_path, config)
        await table.act(table.match.to_move, str(table.match.round.legal_moves()[0]), table.version)
        before = table.turn_deadline()
        await table.close()
        loaded = await storage.load_table("TIMER1")
        assert loaded is not None
        again = Table.restore("TIMER1", TableConfig.from_json(loaded[0]), loaded[1], storage, LocalBus(), INSTANT)
        again.resume_clock(await storage.last_action_time("TIMER1"))
        await storage.close()
        return before, again.turn_deadline()

    before, after = asyncio.run(scenario())
    assert before is not None and before == after
    assert abs(before - (time.time() + 60)) < 5


def test_the_default_timer_depends_on_friends(client: TestClient) -> None:
    def timer(seats: list[dict[str, str]], **extra: object) -> object:
        return create_table(client, seats, claim=False, **extra)["turn_timer"]

    assert timer([HUMAN, {"kind": "bot"}]) is None
    assert timer([HUMAN, HUMAN]) == 60
    assert timer([HUMAN, HUMAN], turn_timer=None) is None
    assert timer([HUMAN, {"kind": "bot"}], turn_timer=30) == 30
    refused = client.post("/api/tables", json={"seats": [HUMAN, HUMAN], "turn_timer": 45})
    assert refused.status_code == 400 and "turn_timer" in refused.json()["detail"]


def test_end_to_end_a_silent_player_loses_the_turn_to_a_bot(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], turn_timer=30)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        state = settle(players)
        assert state["turn_timer"] == 30 and state["turn_deadline"] > time.time() + 20
        live = client.app.state.hub.tables[table["code"]]  # type: ignore[attr-defined]
        version, mover = live.version, state["to_move"]

        def thirty_seconds_later() -> None:
            live.turn_started -= 30  # the clock alone moves on: no message, no connection
            live.schedule()

        client.portal.call(thirty_seconds_later)  # type: ignore[union-attr]
        after = players[1 - mover].until_state(lambda s: players[1 - mover].version > version)
        assert after["log"][-1]["seat"] == mover and not after["covered"][mover]

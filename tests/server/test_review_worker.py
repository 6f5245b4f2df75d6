"""The background review's queue is bounded, and the hub says when a match ends (the reviews listen)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from chickenfoot.rules import Rules
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.replays.reviews import ReviewWorker
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.commands import CatchUp, Play
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.registry import TableRegistry

from .conftest import INSTANT


async def no_job(_code: str) -> None:
    return None


def test_the_queue_is_bounded_and_a_match_is_queued_once(tmp_path: Path) -> None:
    worker = ReviewWorker(
        Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", SystemClock()), no_job, budget=10, queue_size=2
    )
    first = worker.request("AAAAAA")
    assert first is not None and first.status == "queued"
    assert worker.request("AAAAAA") is first
    assert worker.request("BBBBBB") is not None
    assert worker.request("CCCCCC") is None  # full: asked again later, not queued now
    assert worker.queue.qsize() == 2 and "CCCCCC" not in worker.progress


def test_the_end_of_a_match_calls_the_hubs_hooks_once_where_it_is_played_and_where_it_is_followed(
    tmp_path: Path,
) -> None:
    async def scenario() -> tuple[list[str], list[str], str]:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", SystemClock())
        await storage.migrate()
        played = TableRegistry(storage, LocalBus(), INSTANT, LocalConnections(), SystemClock())
        followed = TableRegistry(storage, LocalBus(), INSTANT, LocalConnections(), SystemClock())
        ended: list[str] = []
        seen: list[str] = []
        played.on_match_finished(ended.append)
        followed.on_match_finished(seen.append)
        seats = [Seat("human", "Ann", taken=True), Seat("human", "Bo", taken=True)]
        table = await played.create(TableConfig(Rules().replace(rounds=1), seats, seed=2))
        follower = await followed.get(table.code)
        assert follower is not None
        while not table.match.is_over():
            await table.submit(Play(table.match.to_move, str(table.match.round.legal_moves()[0]), table.version))
            assert ended == [] or table.match.is_over()
        await follower.submit(CatchUp({}))  # another process that holds the table reads the end from storage
        await follower.submit(CatchUp({}))
        await played.close()
        await followed.close()
        await storage.close()
        return ended, seen, table.code

    ended, seen, code = asyncio.run(scenario())
    assert ended == [code] and seen == [code]

"""Retention (``chickenfoot storage prune``): a long-finished match's actions become one archive row,
and everything read from them (the table, its replays, record and review) stays as it was."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.retention import prune
from chickenfoot.server.storage import Storage, actions, archived_actions, game_tables
from chickenfoot.testing.waiting import until

from .conftest import create_table, play_out, seat_players
from .test_replay import BUDGET, poll_review

LATER = datetime.now(UTC) + timedelta(days=1)


async def rows_of(storage: Storage, code: str) -> tuple[int, int]:
    """The table's rows in ``actions`` and in ``archived_actions``."""
    async with storage.reading() as conn:
        counted = [
            (await conn.execute(sa.select(sa.func.count()).where(table.c.table_code == code))).scalar_one()
            for table in (actions, archived_actions)
        ]
    return counted[0], counted[1]


async def finish(storage: Storage, code: str) -> None:
    async with storage.transaction() as conn:
        await conn.execute(game_tables.update().where(game_tables.c.code == code).values(over=True))


def test_archived_actions_read_as_before_and_actions_stored_after_follow_them(database_url: str) -> None:
    async def scenario() -> None:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        done, playing = (secrets.token_hex(4).upper() for _ in range(2))  # the test database outlives runs
        old = datetime.now(UTC) - timedelta(days=40)
        for code in (done, playing):
            assert await storage.create_table(code, {"n": code})
            for version, action in enumerate(["a", "b", "c"], 1):
                await storage.append_action(code, version, action, at=old)
        await finish(storage, done)
        before = await storage.load_table(done), await storage.load_actions(done, 1)
        # The archive keeps the time of the last action only: the one a table read back resumes from.
        kept = before[0], [stored._replace(at=None) for stored in before[1][:-1]] + before[1][-1:]

        archived = await storage.archive_finished(LATER, 100_000)
        assert done in archived and playing not in archived  # unfinished: untouched
        assert await rows_of(storage, done) == (0, 1) and await rows_of(storage, playing) == (3, 0)
        assert (await storage.load_table(done), await storage.load_actions(done, 1)) == kept
        assert [a.version for a in await storage.load_actions(done, 0)] == [1, 2, 3]
        last = await storage.last_action_time(done)
        assert last is not None and abs(last - old) < timedelta(seconds=1)
        assert done not in await storage.delete_unplayed(LATER, 100_000, keep=set())  # still a replay

        await storage.append_action(done, 4, "d")  # stored after the archive: read after it
        assert [a.action for a in await storage.load_actions(done, 2)] == ["c", "d"]
        assert done in await storage.archive_finished(LATER, 100_000)  # again: still one row
        assert await rows_of(storage, done) == (0, 1)
        assert await storage.load_table(done) == ({"n": done}, ["a", "b", "c", "d"])
        await storage.close()

    asyncio.run(scenario())


def test_a_pruned_match_keeps_its_replays_record_and_review(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(review_budget=BUDGET)
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}], rounds=1)
    code = table["code"]
    with ExitStack() as stack:
        play_out(seat_players(client, table, stack), random.Random(2))
    paths = [f"/api/tables/{code}/record", f"/api/tables/{code}/replay", f"/api/tables/{code}/replay/1"]
    before = [client.get(path).json() for path in paths]
    review = poll_review(client, code)

    async def archive() -> tuple[list[str], tuple[int, int]]:
        storage = Storage(database_url, SystemClock())
        # The lobby marks the match over in a task of its own, which tells no one: read until it has.
        await until(lambda: over(storage, code), 30, "the match marked over")
        clock = FakeClock(wall=LATER.timestamp() + 30 * 86_400)  # a month after tomorrow
        archived = await prune(database_url, 30, clock)
        rows = await rows_of(storage, code)
        await storage.close()
        return archived, rows

    archived, rows = asyncio.run(archive())
    assert code in archived and rows == (0, 1)
    fresh = make_client(review_budget=BUDGET)  # reads the table from storage, not from memory
    assert [fresh.get(path).json() for path in paths] == before
    assert fresh.get(f"/api/tables/{code}/review").json() == {"status": "done", "review": review["review"]}


async def over(storage: Storage, code: str) -> bool:
    async with storage.reading() as conn:
        return bool((await conn.execute(sa.select(game_tables.c.over).where(game_tables.c.code == code))).scalar())

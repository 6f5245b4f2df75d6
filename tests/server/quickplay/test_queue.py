"""The queue in the database, on the fake clock: the window widens as time passes, leases run out,
a pass seats each player once at a stored table, bots fill a patient 4-player table; a player, and a
process, have only so many tables nobody has played."""

from __future__ import annotations

import asyncio
import json

import sqlalchemy as sa

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.quickplay.store import (
    Entry,
    InQueue,
    Queue,
    QueueFull,
    QuickPlaySettings,
    Seated,
    TooManyUnplayed,
)
from chickenfoot.server.storage import Storage, game_tables


def entry(owner: str, rating: float = 1500, players: int = 2, bots_after: float | None = None) -> Entry:
    return Entry(owner, "203.0.113.7", players, False, rating, bots_after, owner)


async def opened(url: str, clock: FakeClock, settings: QuickPlaySettings) -> tuple[Storage, Queue]:
    storage = Storage(url, clock)
    await storage.migrate()
    return storage, Queue(storage, clock, settings, lambda: 7)


def test_far_apart_players_are_paired_once_their_windows_have_widened_enough(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage, line = await opened(empty_queue, clock, QuickPlaySettings(lease_seconds=60))
        low, high = await line.join(entry("low", 1400)), await line.join(entry("high", 1700))
        for _ in range(3):  # ±100, ±150, ±200, ±250: still apart
            clock.advance(5)
            assert await line.beat(low) == InQueue(2, clock.monotonic())
            await line.beat(high)
        clock.advance(5)  # 20 s: ±300 reaches
        seated = [await line.beat(low), await line.beat(high)]
        assert all(isinstance(s, Seated) for s in seated)
        assert {s.code for s in seated if isinstance(s, Seated)} == {seated[0].code}  # type: ignore[union-attr]
        assert sorted(s.seat for s in seated if isinstance(s, Seated)) == [0, 1]
        assert await line.beat(low) is None  # the seat was handed over once; the entry is gone
        await storage.close()

    asyncio.run(scenario())


def test_an_entry_without_heartbeats_is_gone_when_its_lease_runs_out(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage, line = await opened(empty_queue, clock, QuickPlaySettings(lease_seconds=15))
        gone, stays = await line.join(entry("gone", 1000)), await line.join(entry("stays", 2000))
        clock.advance(10)
        assert await line.beat(stays) == InQueue(2, 10)
        clock.advance(10)  # 20 s since gone's last heartbeat, 10 since stays'
        assert await line.beat(gone) is None
        assert await line.beat(stays) == InQueue(1, 20)
        await storage.close()

    asyncio.run(scenario())


def test_a_patient_player_of_four_gets_bots_of_a_level_near_the_players_ratings(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage, line = await opened(empty_queue, clock, QuickPlaySettings(lease_seconds=60))
        tickets = [await line.join(entry(name, players=4, bots_after=30)) for name in ("ann", "bo")]
        clock.advance(29)
        assert await line.beat(tickets[0]) == InQueue(2, 29)
        clock.advance(1)
        seated = [await line.beat(t) for t in tickets]
        assert all(isinstance(s, Seated) for s in seated)
        code = seated[0].code  # type: ignore[union-attr]
        async with storage.reading() as conn:
            config = json.loads(
                (await conn.execute(sa.select(game_tables.c.config).where(game_tables.c.code == code))).scalar_one()
            )
        kinds = [(seat["kind"], seat["bot"]) for seat in config["seats"]]
        # Everyone is rated 1500 until ratings exist: the middle of the levels' order.
        assert kinds == [("human", None), ("human", None), ("bot", "medium"), ("bot", "medium")]
        assert not config["open"] and not config["public"]
        await storage.close()

    asyncio.run(scenario())


def test_one_entry_per_owner_and_the_queue_is_bounded(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage, line = await opened(empty_queue, clock, QuickPlaySettings(max_waiting=3, per_address=2))
        first = await line.join(entry("ann", 1000))
        again = await line.join(entry("ann", 1000))  # the same browser again: its entry is replaced
        assert await line.beat(first) is None and await line.beat(again) == InQueue(1, 0)
        await line.join(entry("bo", 2000))
        try:
            await line.join(entry("cy", 3000))
        except QueueFull as exc:
            assert not exc.whole  # two from this address already
        else:
            raise AssertionError("a third entry from one address was let in")
        await line.join(Entry("dee", "198.51.100.1", 2, False, 4000, None, None))
        try:
            await line.join(Entry("eve", "198.51.100.2", 2, False, 5000, None, None))
        except QueueFull as exc:
            assert exc.whole
        else:
            raise AssertionError("the queue took more than its bound")
        await storage.close()

    asyncio.run(scenario())


def test_passes_of_two_processes_at_once_seat_everyone_once(empty_queue: str) -> None:
    async def scenario() -> list[Seated]:
        clock = FakeClock()
        settings = QuickPlaySettings(lease_seconds=600, per_address=100)
        (one, first), (two, second) = [await opened(empty_queue, clock, settings) for _ in range(2)]
        tickets = [await (first, second)[i % 2].join(entry(f"p{i}")) for i in range(20)]
        await asyncio.gather(first.pass_once(), second.pass_once(), first.pass_once(), second.pass_once())
        heard = [await (first, second)[i % 2].beat(t) for i, t in enumerate(tickets)]
        await one.close()
        await two.close()
        return [s for s in heard if isinstance(s, Seated)]

    seated = asyncio.run(scenario())
    assert len(seated) == 20
    assert len({(s.code, s.seat) for s in seated}) == 20  # nobody shares a seat
    assert sorted(len([s for s in seated if s.code == code]) for code in {s.code for s in seated}) == [2] * 10


def test_a_player_is_seated_at_only_so_many_tables_nobody_has_played(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage, line = await opened(empty_queue, clock, QuickPlaySettings(unplayed_per_owner=1))
        ann = await line.join(entry("ann"))
        await line.join(entry("bo"))
        seated = await line.beat(ann)
        assert isinstance(seated, Seated)
        for owner in ("ann", "bo"):  # both seated at a table nobody has played, and never came
            try:
                await line.join(entry(owner))
            except TooManyUnplayed as exc:
                assert not exc.whole
            else:
                raise AssertionError(f"{owner} joined again with a table nobody played")
        await line.join(entry("cy"))  # another player is let in
        await storage.append_action(seated.code, 1, "9-9")  # its first move
        await line.join(entry("ann"))
        await storage.close()

    asyncio.run(scenario())


def test_a_process_makes_only_so_many_tables_nobody_has_played(empty_queue: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        settings = QuickPlaySettings(lease_seconds=60, unplayed_per_process=1)
        storage, line = await opened(empty_queue, clock, settings)
        # Two pairs that come within reach of each other at 20 s, both at once: one table is made, and
        # the other pair waits.
        tickets = [await line.join(entry(name, rating)) for name, rating in (("a", 1000), ("b", 1300))]
        tickets += [await line.join(entry(name, rating)) for name, rating in (("c", 2000), ("d", 2300))]
        for _ in range(4):
            clock.advance(5)
            heard = [await line.beat(ticket) for ticket in tickets]
        seated = [h for h in heard if isinstance(h, Seated)]
        assert len(seated) == 2 and len({s.code for s in seated}) == 1
        assert [h for h in heard if isinstance(h, InQueue)] == [InQueue(2, 20)] * 2
        try:
            await line.join(entry("eve"))
        except TooManyUnplayed as exc:
            assert exc.whole
        else:
            raise AssertionError("a join was let in with the process's unplayed tables at their cap")
        await storage.delete_table(seated[0].code)  # swept: the process may make another
        await line.join(entry("eve"))
        await storage.close()

    asyncio.run(scenario())

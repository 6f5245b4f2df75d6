"""Leases: one holder at a time, takeover when the holder dies, and a paused holder learns it lost."""

from __future__ import annotations

import asyncio
import math
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from chickenfoot.server.clock import SYSTEM_CLOCK, FakeClock
from chickenfoot.server.cluster.leases import Hold, LeaseKeeper, LocalLeases, RedisLeases

from .conftest import RedisDaemon, worker


class Competitor:
    """A worker process competing for one lease, its ``held``/``lost`` lines read as they come."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: queue.Queue[tuple[str, int, float]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            what, token, when = line.split()
            self.lines.put((what, int(token), float(when)))

    def next(self, timeout: float) -> tuple[str, int, float] | None:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None


@contextmanager
def competitors(url: str, prefix: str, ttl: float) -> Iterator[list[Competitor]]:
    processes = [worker("lease", url, prefix, "table:ABC", str(ttl)) for _ in range(2)]
    try:
        yield [Competitor(process) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
            process.wait()


def first_holder(both: list[Competitor]) -> tuple[Competitor, Competitor, int]:
    deadline = time.monotonic() + 20  # two interpreters starting on a busy machine
    while time.monotonic() < deadline:
        for i, competitor in enumerate(both):
            if (line := competitor.next(0.05)) is not None:
                assert line[0] == "held", line
                return competitor, both[1 - i], line[1]
    raise AssertionError("nobody took the lease")


def test_renewal_keeps_the_lease_and_a_killed_holder_is_replaced_within_five_seconds(
    redis_url: str, prefix: str
) -> None:
    with competitors(redis_url, prefix, ttl=3.0) as both:
        holder, other, token = first_holder(both)
        # Renewed every second, the lease stays with its holder past its 3 s lifetime.
        assert other.next(4.5) is None
        assert holder.next(0) is None
        holder.process.kill()
        killed = time.monotonic()
        taken = other.next(10.0)
        assert taken is not None and taken[0] == "held", taken
        takeover = taken[2] - killed
        print(f"takeover after SIGKILL: {takeover:.2f} s")
        assert takeover < 5.0
        assert taken[1] > token  # fencing tokens only grow


def test_a_paused_holder_learns_it_lost_the_lease(redis_url: str, prefix: str) -> None:
    with competitors(redis_url, prefix, ttl=1.0) as both:
        holder, other, token = first_holder(both)
        holder.process.send_signal(signal.SIGSTOP)
        taken = other.next(10.0)
        assert taken is not None and taken[0] == "held" and taken[1] > token, taken
        holder.process.send_signal(signal.SIGCONT)
        lost = holder.next(5.0)
        assert lost is not None and lost[:2] == ("lost", token), lost
        # The new holder keeps renewing; the old one cannot take the lease back meanwhile.
        assert holder.next(1.5) is None and other.next(0) is None


def test_leases_refuse_a_second_holder_and_tokens_grow_even_across_a_redis_restart(
    redis_daemon: RedisDaemon, prefix: str
) -> None:
    async def scenario(first: RedisLeases, second: RedisLeases) -> list[int]:
        held = await first.acquire("t")
        assert held is not None and held.valid(first.clock.monotonic())
        assert await second.acquire("t") is None
        assert await second.renew(Hold("t", held.token, held.expires)) is None  # another owner's token
        await second.release(held)  # not its lease: nothing happens
        assert await second.acquire("t") is None
        renewed = await first.renew(held)
        assert renewed is not None and renewed.expires >= held.expires
        await first.release(held)
        again = await second.acquire("t")
        assert again is not None and again.token > held.token
        await asyncio.to_thread(redis_daemon.stop)  # without persistence: every lease and token is gone
        await asyncio.to_thread(redis_daemon.start)
        after = await first.acquire("t")
        assert after is not None
        assert await second.renew(again) is None  # the restart cost the old holder its lease
        return [held.token, again.token, after.token]

    async def main() -> list[int]:
        first, second = (RedisLeases(redis_daemon.url, ttl=5.0, prefix=prefix, clock=SYSTEM_CLOCK) for _ in range(2))
        try:
            return await scenario(first, second)
        finally:
            await first.close()
            await second.close()

    tokens = asyncio.run(main())
    assert tokens == sorted(set(tokens))


class Changes:
    """What a keeper reported, and a way to wait for its next report."""

    def __init__(self) -> None:
        self.seen: list[Hold | None] = []
        self._reported = asyncio.Event()

    def report(self, hold: Hold | None) -> None:
        self.seen.append(hold)
        self._reported.set()

    async def next(self, count: int) -> None:
        """Until ``count`` reports were made (a generous real-time bound: Redis is real)."""
        async with asyncio.timeout(20):
            while len(self.seen) < count:
                self._reported.clear()
                await self._reported.wait()


def test_one_process_alone_always_holds_every_lease() -> None:
    reports = Changes()
    changes = reports.seen

    async def scenario() -> None:
        clock = FakeClock()
        keeper = LeaseKeeper(LocalLeases(clock), "table:ABC", reports.report)
        task = asyncio.create_task(keeper.run())
        await reports.next(1)
        clock.advance(86_400)  # a day later: still held, never reported again
        await asyncio.sleep(0)
        assert keeper.hold is not None and keeper.hold.valid(clock.monotonic())
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(scenario())
    assert len(changes) == 1 and changes[0] is not None


def test_the_keeper_reports_a_lease_it_can_no_longer_renew(redis_daemon: RedisDaemon, prefix: str) -> None:
    reports = Changes()
    changes = reports.seen

    async def scenario() -> None:
        leases = RedisLeases(redis_daemon.url, ttl=0.6, prefix=prefix, clock=SYSTEM_CLOCK)
        keeper = LeaseKeeper(leases, "table:ABC", reports.report)
        task = asyncio.create_task(keeper.run())
        await reports.next(1)
        assert keeper.hold is not None
        await asyncio.to_thread(redis_daemon.stop)  # unreachable: renewals fail, the lease runs out
        await reports.next(2)
        assert keeper.hold is None
        await asyncio.to_thread(redis_daemon.start)
        await reports.next(3)
        assert keeper.hold is not None  # taken again once Redis is back
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await leases.close()

    asyncio.run(scenario())
    assert [change is not None for change in changes] == [True, False, True]


def test_leases_asked_together_go_in_one_script_call_each_with_its_own_answer(redis_url: str, prefix: str) -> None:
    names = [f"table:{i}" for i in range(300)]

    async def scenario() -> None:
        first, second = (RedisLeases(redis_url, ttl=5.0, prefix=prefix, clock=SYSTEM_CLOCK) for _ in range(2))
        calls: list[int] = []
        for batched in (first._acquire, first._renew):
            script = batched.script

            async def counted(keys: list[str], args: list[str | int], script: Any = script) -> Any:
                calls.append(len(keys))
                return await script(keys=keys, args=args)

            batched.script = counted  # type: ignore[assignment]
        try:
            held = await asyncio.gather(*(first.acquire(name) for name in names[:200]))
            assert all(hold is not None and hold.token > 0 for hold in held)
            assert calls == [400]  # 200 leases, two keys each, one call
            # The other owner takes only the free ones, in the same batch as the taken ones.
            theirs = await asyncio.gather(*(second.acquire(name) for name in names))
            assert [hold is None for hold in theirs] == [True] * 200 + [False] * 100
            stale = Hold(names[0], held[0].token + 1, math.inf) if held[0] else None  # a token that never held it
            renewed = await asyncio.gather(*(first.renew(hold) for hold in [*held, stale] if hold is not None))
            assert all(hold is not None for hold in renewed[:200]) and renewed[200] is None
            assert calls == [400, 201]
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


async def asleep(clock: FakeClock, keepers: int) -> None:
    """Until ``keepers`` wait for ``clock``: their Redis calls answered (a generous real-time bound:
    Redis is real), they sleep to their next beat."""
    async with asyncio.timeout(20):
        while clock.pending() < keepers:
            await asyncio.sleep(0)


def test_keepers_started_apart_renew_together_on_the_process_beat(redis_url: str, prefix: str) -> None:
    async def scenario() -> list[int]:
        clock = FakeClock()
        # A long lease, so that Redis (on real time) never expires one while the fake clock stands still.
        leases = RedisLeases(redis_url, ttl=60, prefix=prefix, clock=clock)  # a renewal every 20 s
        calls: list[int] = []
        script = leases._renew.script

        async def counted(keys: list[str], args: list[str | int]) -> Any:
            calls.append(len(keys))
            return await script(keys=keys, args=args)

        leases._renew.script = counted  # type: ignore[assignment]
        keepers = [LeaseKeeper(leases, f"table:beat{i}", lambda hold: None) for i in range(20)]
        tasks = []
        for started, keeper in enumerate(keepers, 1):  # started 1.3 s apart: over more than one beat
            tasks.append(asyncio.create_task(keeper.run()))
            await asleep(clock, started)
            clock.advance(1.3)
        clock.advance(40 - clock.monotonic())  # the first beat after the last start
        await asleep(clock, len(keepers))
        calls.clear()
        for _ in range(100):  # five beats, a second at a time: keepers woken apart would renew apart
            clock.advance(1)
            await asleep(clock, len(keepers))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await leases.close()
        return calls

    calls = asyncio.run(scenario())
    assert calls == [20] * 5  # one call a beat, every lease in it

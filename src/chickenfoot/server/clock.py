"""Time as an input: the one place the server reads the clock or waits for it.

Everything in the server that asks what time it is, or wants to be woken later, is handed a
:class:`Clock`. The process runs with :data:`SYSTEM_CLOCK`; tests hand in a :class:`FakeClock` and
move it on by hand, so a turn timer, a grace period or a lease runs out exactly when the test says.

>>> clock = FakeClock(wall=1_000.0)
>>> woken = []
>>> timer = clock.call_later(5, woken.append, "five")
>>> clock.call_later(2, woken.append, "two").cancel()
>>> clock.advance(4)
>>> woken, clock.now(), clock.monotonic()
([], 1004.0, 4.0)
>>> clock.advance(1)
>>> woken
['five']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None:
        """The callback will not run (nothing happens when it ran already)."""


class Clock(Protocol):
    def now(self) -> float:
        """Wall time: seconds since the epoch (stored, shown, compared across processes)."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (durations within this process)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> Timer:
        """Call ``callback(*args)`` on the event loop ``delay`` seconds from now."""

    async def sleep(self, seconds: float) -> None:
        """Return ``seconds`` from now (periodic work: sweeps, retries, renewals)."""


def utc(clock: Clock) -> datetime:
    """The clock's wall time as an aware UTC datetime (what storage keeps)."""
    return datetime.fromtimestamp(clock.now(), UTC)


@asynccontextmanager
async def deadline(clock: Clock, seconds: float) -> AsyncIterator[None]:
    """``asyncio.timeout(seconds)`` on ``clock``: the work inside is cancelled, and ``TimeoutError``
    raised, once ``seconds`` pass on the clock (a fake clock moves it, as every other wait).

    >>> async def late(clock: FakeClock) -> str:
    ...     async def move_on() -> None:
    ...         await asyncio.sleep(0)
    ...         clock.advance(5)
    ...     mover = asyncio.ensure_future(move_on())
    ...     try:
    ...         async with deadline(clock, 5):
    ...             await asyncio.Event().wait()  # waits for nothing that comes
    ...     except TimeoutError:
    ...         return f"given up at {clock.monotonic()} s"
    ...     finally:
    ...         await mover
    ...     return "done"
    >>> asyncio.run(late(FakeClock()))
    'given up at 5.0 s'
    """
    task = asyncio.current_task()
    assert task is not None, "a deadline is for the code of a task"
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = clock.call_later(seconds, expire)
    try:
        yield
    except asyncio.CancelledError:
        if expired and task.uncancel() == 0:
            raise TimeoutError from None  # this deadline's own cancellation, nobody else's
        raise
    finally:
        timer.cancel()


class SystemClock:
    """The real clock of the process, and the event loop's timers."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()


async def woken(event: asyncio.Event, clock: Clock, seconds: float) -> bool:
    """Wait for ``event`` at most ``seconds`` (on ``clock``); whether it was set."""
    waiting = asyncio.ensure_future(event.wait())
    sleeping = asyncio.ensure_future(clock.sleep(seconds))
    try:
        await asyncio.wait({waiting, sleeping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        sleeping.cancel()
    return event.is_set()


class _FakeTimer:
    __slots__ = ("args", "callback", "cancelled")

    def __init__(self, callback: Callable[..., object], args: tuple[object, ...]) -> None:
        self.callback, self.args, self.cancelled = callback, args, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it; due timers run inside ``advance``.

    Callbacks run synchronously, in the order they fall due; work they start on the event loop
    (tasks, sleepers woken) runs when the caller next yields to the loop. A timer due now (no
    delay) needs no time to pass: it runs on the event loop at once, as with the real clock.
    """

    def __init__(self, wall: float = 1_700_000_000.0) -> None:
        self._wall, self._monotonic = wall, 0.0
        self._due: list[tuple[float, int, _FakeTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._wall + self._monotonic

    def monotonic(self) -> float:
        return self._monotonic

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> Timer:
        if delay <= 0:
            return asyncio.get_running_loop().call_soon(callback, *args)
        timer = _FakeTimer(callback, args)
        heapq.heappush(self._due, (self._monotonic + delay, next(self._order), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_later(seconds, wake)
        try:
            await woken
        finally:
            timer.cancel()

    def pending(self) -> int:
        """Timers (and sleepers) waiting for the clock to reach them."""
        return sum(not timer.cancelled for _, _, timer in self._due)

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running every timer that falls due on the way."""
        until = self._monotonic + seconds
        while self._due and self._due[0][0] <= until:
            at, _, timer = heapq.heappop(self._due)
            self._monotonic = max(self._monotonic, at)
            if not timer.cancelled:
                timer.cancelled = True
                timer.callback(*timer.args)
        self._monotonic = until

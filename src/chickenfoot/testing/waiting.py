"""Waiting for a condition that nothing announces: looked at again every few milliseconds until a
deadline, failing with a line that names what did not happen.

For what has an event (a message, a callback, a line written by a process the test reads), wait for
the event instead; this is for state kept elsewhere that tells no one when it changes (another
process's database rows, Redis keys, a log file written by nginx, a screen redrawn by threads).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

EVERY = 0.05
"""Seconds between two looks."""


async def until(condition: Callable[[], object | Awaitable[object]], seconds: float, what: str) -> None:
    """Until ``condition()`` (or what it returns, if awaitable) is true; ``AssertionError`` naming
    ``what`` after ``seconds``.

    >>> asyncio.run(until(lambda: True, 1, "truth"))
    >>> asyncio.run(until(lambda: False, 0.05, "never"))
    Traceback (most recent call last):
    AssertionError: never: not within 0.05 s
    """
    deadline = time.monotonic() + seconds
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        await asyncio.sleep(EVERY)


def until_now(condition: Callable[[], object], seconds: float, what: str) -> None:
    """:func:`until` for a test without an event loop (blocking).

    >>> until_now(lambda: False, 0.05, "never")
    Traceback (most recent call last):
    AssertionError: never: not within 0.05 s
    """
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(EVERY)

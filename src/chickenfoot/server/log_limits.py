"""Log lines that any client can cause, at most one per interval.

uvicorn writes one warning per garbled request ("Invalid HTTP request received.", without the
sender): a client sending garbage in a loop would fill the operator's disk with it. :class:`Sparse`
lets the first such line through, holds back the rest for an interval, and says on the next line
let through how many were held back, so nothing is hidden and the cost is bounded.
"""

from __future__ import annotations

import logging
from collections import Counter

from chickenfoot.server.clock import Clock

INTERVAL = 60.0
"""Seconds between two lines of one kind."""
CLIENT_CAUSED = frozenset({"Invalid HTTP request received."})
"""uvicorn's messages (``uvicorn.error``) that a client causes at will."""


class Sparse(logging.Filter):
    """A logging filter: each of ``messages`` at most once per ``interval`` seconds of ``clock``; the line
    after a pause says how many were held back. Other lines pass untouched.

    >>> from chickenfoot.server.clock import FakeClock
    >>> clock = FakeClock()
    >>> sparse = Sparse(frozenset({"garbled"}), 60, clock)
    >>> said = lambda msg: logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, msg, None, None)
    >>> [sparse.filter(said("garbled")), sparse.filter(said("garbled")), sparse.filter(said("other"))]
    [True, False, True]
    >>> clock.advance(60)
    >>> record = said("garbled")
    >>> sparse.filter(record), record.getMessage()
    (True, 'garbled (1 more like it in the last 60 s, not logged)')
    """

    def __init__(self, messages: frozenset[str], interval: float, clock: Clock) -> None:
        super().__init__()
        self.messages, self.interval, self.clock = messages, interval, clock
        self._last: dict[str, float] = {}
        self._held = Counter[str]()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg
        if not isinstance(message, str) or message not in self.messages:
            return True
        now = self.clock.monotonic()
        last = self._last.get(message)
        if last is not None and now - last < self.interval:
            self._held[message] += 1
            return False
        self._last[message] = now
        if held := self._held.pop(message, 0):
            record.msg = f"{message} ({held} more like it in the last {self.interval:g} s, not logged)"
        return True


def limit_client_caused(clock: Clock, logger: str = "uvicorn.error") -> None:
    """Make the client-caused lines of ``logger`` sparse (once per process)."""
    target = logging.getLogger(logger)
    if not any(isinstance(f, Sparse) for f in target.filters):
        target.addFilter(Sparse(CLIENT_CAUSED, INTERVAL, clock))

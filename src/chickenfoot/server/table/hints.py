"""Hints for the seat to move, searched in a worker process and kept by position.

A hint searches for about a second of CPU (:func:`chickenfoot.bots.hint`). In the server's threads it
would share the GIL with the bots' thinking and the event loop, so many tables asking hints would slow
every other table's bots and moves. Hints are searched instead by one low-priority process of their own
(spawned, reniced, as the replays' and reviews'), a fixed share of the CPU that live play always comes
before; an only move needs no search and is answered at once. The answer depends only on the asking
seat's view, so hints are kept by the view's content and a position asked again, from any table or
connection, costs nothing. Searches that must run are counted against the asker's address
(``--hint-limit``) and wait in a bounded queue: past it a request is refused as busy rather than
waiting for long.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool

from chickenfoot.bots import hint
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.worker_process import Worker
from chickenfoot.view import SeatView

CACHE_SIZE = 1024
"""Positions whose hint is kept (a few hundred bytes each)."""
PENDING = 8
"""Searches queued or running at once (about a second each); past them a request is refused as busy."""

Suggestion = tuple[Move, Said]
"""The suggested move and why."""
Throttle = Callable[[str], Awaitable[tuple[Said, int] | None]]
"""Counts one search against an address; returns why it is refused (and seconds to wait), or ``None``."""
HintSource = Callable[[SeatView], Awaitable[Suggestion]]
"""A connection's way to a hint for its view (the address already bound); raises :class:`~.refusals.Refusal`."""


def search(view: SeatView) -> Suggestion:
    """The hint for ``view`` (in the worker process)."""
    suggestion = hint(view)
    return suggestion.move, suggestion.why


class Hints:
    """Hints by position (least recently used dropped past ``cache_size``) and the worker that searches them."""

    def __init__(self, throttle: Throttle, cache_size: int = CACHE_SIZE, pending: int = PENDING) -> None:
        self.throttle = throttle
        self.cache_size = cache_size
        self.pending = pending
        self._cache: OrderedDict[SeatView, Suggestion] = OrderedDict()
        self._searching: dict[SeatView, asyncio.Future[Suggestion]] = {}
        self._worker = Worker()

    async def suggest(self, view: SeatView, address: str) -> Suggestion:
        """The hint for ``view``: kept, being searched for another request, or searched now if ``address``
        may start a search and a place in the queue is free; else raises :class:`~.refusals.Refusal`
        (``error.too_many_hints``, ``error.hint_busy``). An only move is answered at once."""
        if len(view.legal_moves) == 1:
            return search(view)  # nothing to search: answered at once, here
        kept = self._cache.get(view)
        if kept is not None:
            self._cache.move_to_end(view)
            return kept
        searching = self._searching.get(view)
        if searching is None:
            self._check_room()  # before counting: a busy answer costs the address nothing
            if (refusal := await self.throttle(address)) is not None:
                raise Refusal.too_many(refusal[0], retry_after=refusal[1])
            searching = self._searching.get(view)  # another request may have started it meanwhile
            if searching is None:
                self._check_room()  # others may have taken the room meanwhile
                searching = self._searching[view] = asyncio.ensure_future(self._search(view))
        return await asyncio.shield(searching)  # one request giving up does not cancel the others' search

    @property
    def searching(self) -> int:
        """Searches queued or running now."""
        return len(self._searching)

    def _check_room(self) -> None:
        if len(self._searching) >= self.pending:
            raise Refusal.busy(Said.of(Code.ERROR_HINT_BUSY))

    async def _search(self, view: SeatView) -> Suggestion:
        try:
            found = await self._worker.run(search, view)
        except BrokenProcessPool:  # the worker died: the next search starts a new one
            raise Refusal.busy(Said.of(Code.ERROR_HINT_BUSY)) from None
        finally:
            del self._searching[view]
        self._cache[view] = found
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return found

    def close(self) -> None:
        self._worker.close()

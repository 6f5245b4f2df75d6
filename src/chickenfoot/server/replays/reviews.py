"""Reviews of finished matches, computed in the background and stored once done.

A match is queued when the registry of tables says it finished
(``TableRegistry.on_match_finished(worker.request)``) or when its review is asked for. One low-
priority worker process (spawned, reniced) reviews one match at a time, a few moves per piece of
work, so live tables never wait for it and progress is known after every piece. Matches wait in a
bounded queue; when it is full a match is not queued now but again when its review is next asked
for. Only the human seats are marked (the moves of every seat are still evaluated, for the chart).
The review is :func:`chickenfoot.review.review_match`'s, piece by piece: the command line gives the
same on the stored record with the same seats, budget and seed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from chickenfoot.match import Match
from chickenfoot.review import CHUNK, MoveReview, assemble, chunks, review_plies
from chickenfoot.server.storage import Storage
from chickenfoot.server.worker_process import Worker

log = logging.getLogger(__name__)

QUEUE_SIZE = 64
REVIEW_SEED = 0

Job = tuple[Match, list[int]]
"""A finished match and the seats to mark."""
Loader = Callable[[str], Awaitable[Job | None]]


@dataclass(slots=True)
class Progress:
    status: str
    """``queued``, ``running``, ``done`` or ``failed``."""
    done: int = 0
    total: int = 0


def _review_piece(
    record: dict[str, Any], number: int, start: int, stop: int, seats: list[int], budget: int
) -> list[dict[str, Any]]:
    """One piece of a review, in the worker process (plain data in and out)."""
    match = Match.from_record(record)
    moves = review_plies(match, number, range(start, stop), seats, budget, REVIEW_SEED)
    return [m.to_dict() for m in moves]


class ReviewWorker:
    """The queue of matches to review and the process that reviews them."""

    def __init__(self, storage: Storage, load: Loader, budget: int, queue_size: int = QUEUE_SIZE) -> None:
        self.storage = storage
        self.load = load
        self.budget = budget
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)
        self.progress: dict[str, Progress] = {}
        """Matches queued or under review in this process (done ones are read from storage)."""
        self._worker = Worker()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._worker.close()

    def request(self, code: str) -> Progress | None:
        """Queue the review of a finished match unless it is queued or running; ``None`` when the queue is full."""
        known = self.progress.get(code)
        if known is not None and known.status in ("queued", "running"):
            return known
        try:
            self.queue.put_nowait(code)
        except asyncio.QueueFull:
            return None
        progress = self.progress[code] = Progress("queued")
        return progress

    async def _run(self) -> None:
        while True:
            code = await self.queue.get()
            try:
                await self._review(code)
            except Exception:  # a worker that died is started anew for the next review
                log.exception("the review of table %s failed", code)
                self.progress[code] = Progress("failed")

    async def _review(self, code: str) -> None:
        if await self.storage.load_review(code) is not None:
            self.progress.pop(code, None)
            return
        job = await self.load(code)
        if job is None:
            self.progress.pop(code, None)
            return
        match, seats = job
        pieces = chunks(match, CHUNK)
        progress = self.progress[code] = Progress("running", 0, sum(len(p) for _, p in pieces))
        record = match.record()
        moves: list[MoveReview] = []
        for number, plies in pieces:
            part = await self._worker.run(_review_piece, record, number, plies.start, plies.stop, seats, self.budget)
            moves += [MoveReview.from_dict(m) for m in part]
            progress.done = len(moves)
        review = assemble(match, seats, self.budget, REVIEW_SEED, moves)
        await self.storage.save_review(code, review.to_dict())
        self.progress.pop(code, None)

"""The background review's queue is bounded, and a review is queued when a match ends."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chickenfoot.server.fanout import LocalBus, Message
from chickenfoot.server.review_worker import FinishWatch, ReviewWorker
from chickenfoot.server.storage import Storage


async def no_job(_code: str) -> None:
    return None


def test_the_queue_is_bounded_and_a_match_is_queued_once(tmp_path: Path) -> None:
    worker = ReviewWorker(Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"), no_job, budget=10, queue_size=2)
    first = worker.request("AAAAAA")
    assert first is not None and first.status == "queued"
    assert worker.request("AAAAAA") is first
    assert worker.request("BBBBBB") is not None
    assert worker.request("CCCCCC") is None  # full: asked again later, not queued now
    assert worker.queue.qsize() == 2 and "CCCCCC" not in worker.progress


def test_the_end_of_a_match_queues_its_review_and_messages_pass_through() -> None:
    finished: list[str] = []
    received: list[Message] = []
    watch = FinishWatch(LocalBus(), finished.append)
    watch.subscribe("table:ABC123", received.append)

    async def publish(events: list[dict[str, Any]]) -> None:
        await watch.publish("table:ABC123", {"version": 1, "events": events})

    asyncio.run(publish([{"kind": "play", "seat": 0, "move": "9-9"}]))
    assert finished == [] and len(received) == 1
    asyncio.run(publish([{"kind": "play", "seat": 0, "move": "1-0@5-1"}, {"kind": "match_over", "seat": 0}]))
    assert finished == ["ABC123"] and len(received) == 2

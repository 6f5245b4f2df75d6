"""The outbox of one connection: bounded, in order, a newer state superseding the one waiting."""

from __future__ import annotations

import asyncio
from typing import Any

from chickenfoot.server.edge.client import MAX_MERGED_EVENTS, Outbox


def event(n: int) -> dict[str, Any]:
    return {"kind": "play", "seat": 0, "move": str(n)}


def drain(outbox: Outbox, count: int) -> list[Any]:
    async def take() -> list[Any]:
        return [await outbox.get() for _ in range(count)]

    return asyncio.run(take())


def test_states_coalesce_in_place_and_carry_every_event() -> None:
    outbox = Outbox(limit=4)
    outbox.put_state([event(1)])
    assert outbox.put("pong")
    outbox.put_state([event(2)])  # supersedes the state waiting ahead of the pong
    outbox.put_state([])  # a presence change: no event of its own
    assert drain(outbox, 2) == [[event(1), event(2)], "pong"]
    outbox.put_state([event(3)])  # the earlier state was sent: this one waits on its own
    assert drain(outbox, 1) == [[event(3)]]


def test_other_messages_are_bounded() -> None:
    outbox = Outbox(limit=3)
    assert [outbox.put(f"m{i}") for i in range(5)] == [True, True, True, False, False]
    for i in range(100):
        outbox.put_state([event(i)])
    assert drain(outbox, 4) == ["m0", "m1", "m2", [event(i) for i in range(100)]]


def test_too_many_events_make_a_snapshot() -> None:
    outbox = Outbox(limit=1)
    for i in range(MAX_MERGED_EVENTS + 1):
        outbox.put_state([event(i)])
    outbox.put_state([event(-1)])  # still a snapshot: events between would be missing
    assert drain(outbox, 1) == [[]]

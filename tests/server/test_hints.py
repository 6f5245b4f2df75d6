"""Hints off the event loop: kept by position, counted per address, refused as busy past the queue."""

from __future__ import annotations

import asyncio

import pytest

from chickenfoot.messages import Code, Said
from chickenfoot.round import Round
from chickenfoot.server.http.limits import AddressLimits, RateLimiter
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.hints import Hints
from chickenfoot.view import SeatView


def position(seed: int) -> SeatView:
    """The first view of a dealt round with a choice to make (each seed its own position)."""
    r = Round.deal(players=2, seed=seed)
    while len(r.view(r.to_move).legal_moves) < 2:
        r.push(r.view(r.to_move).legal_moves[0])
    return r.view(r.to_move)


class CountingThrottle:
    """The per-address limit, remembering who was counted and refusing nobody."""

    def __init__(self) -> None:
        self.counted: list[str] = []
        self.called = asyncio.Event()

    async def __call__(self, address: str) -> tuple[Said, int] | None:
        self.counted.append(address)
        self.called.set()
        return None


@pytest.mark.asyncio
async def test_a_position_is_searched_once_and_counted_once() -> None:
    throttle = CountingThrottle()
    hints = Hints(throttle)
    try:
        view = position(1)
        first, again = await asyncio.gather(hints.suggest(view, "a"), hints.suggest(view, "b"))
        later = await hints.suggest(position(1), "c")  # an equal view, built anew: the same position
        assert first == again == later
        assert first[0] in view.legal_moves
        assert throttle.counted == ["a"]  # the search joined and the kept hint cost nobody anything
    finally:
        hints.close()


@pytest.mark.asyncio
async def test_the_address_limit_counts_searches_only() -> None:
    limiter = RateLimiter(AddressLimits(hints="2/minute"))
    hints = Hints(lambda address: limiter.refusal("hint", address))
    try:
        await hints.suggest(position(1), "a")
        await hints.suggest(position(2), "a")
        await hints.suggest(position(1), "a")  # kept: not counted
        with pytest.raises(Refusal) as refused:
            await hints.suggest(position(3), "a")
        said = refused.value.said
        assert said is not None and said.code == Code.ERROR_TOO_MANY_HINTS
        assert dict(said.params)["limit"] == 2 and dict(said.params)["window"] == 60
        await hints.suggest(position(3), "b")  # another address has its own count
    finally:
        hints.close()


@pytest.mark.asyncio
async def test_past_the_queue_a_search_is_refused_as_busy_and_not_counted() -> None:
    throttle = CountingThrottle()
    hints = Hints(throttle, pending=1)
    try:
        searching = asyncio.create_task(hints.suggest(position(1), "a"))
        await throttle.called.wait()  # counted, so now in the queue
        with pytest.raises(Refusal) as refused:
            await hints.suggest(position(2), "b")
        said = refused.value.said
        assert said is not None and said.code == Code.ERROR_HINT_BUSY
        assert throttle.counted == ["a"]
        assert (await searching)[0] in position(1).legal_moves
        assert (await hints.suggest(position(2), "b"))[0] in position(2).legal_moves  # room again
    finally:
        hints.close()


@pytest.mark.asyncio
async def test_an_only_move_is_answered_at_once_and_not_counted() -> None:
    throttle = CountingThrottle()
    hints = Hints(throttle, pending=0)  # no search could start
    r = Round.deal(players=2, seed=1)
    view = r.view(r.to_move)
    assert len(view.legal_moves) == 1
    move, why = await hints.suggest(view, "a")
    assert move == view.legal_moves[0] and why.code == Code.HINT_ONLY_MOVE
    assert throttle.counted == []

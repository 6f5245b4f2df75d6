"""Password hashes: argon2id with the stated parameters, verified off the event loop; the dummy never matches;
a full queue, a wait past its deadline and a client that has gone each get the coded "busy" at once,
and no hash is made for them."""

from __future__ import annotations

import asyncio

import pytest

from chickenfoot.messages import Code
from chickenfoot.server.accounts.passwords import BUSY_RETRY_SECONDS, CONCURRENT, MAX_LENGTH, Hasher, weakness
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.refusals import Refusal, Why

STORED = "$argon2id$v=19$m=19456,t=2,p=1$X9GR3AgicPQ83VLAwlAaMg$c6A2IW+ZEmC7+A1zMh9rK0O67e1mShAS+axs83ltws0"
"""A hash of "x", a password too short for anybody to have: every guess below fails, in a hash's time."""


def test_hash_and_verify() -> None:
    async def scenario() -> None:
        hasher = Hasher(FakeClock())
        stored = await hasher.hashed("tile hub toe chicken")
        assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
        assert await hasher.verify("tile hub toe chicken", stored)
        assert not await hasher.verify("tile hub toe chickens", stored)
        assert not await hasher.verify("not the password of anybody", None)  # the dummy's own password
        assert not await hasher.verify("x" * 10_000, stored)
        assert await asyncio.gather(*(hasher.verify("tile hub toe chicken", stored) for _ in range(5))) == [True] * 5

    asyncio.run(scenario())


def test_weakness() -> None:
    assert weakness("x" * (MAX_LENGTH + 1), "ann") == "long"
    assert weakness("QWERTYUIOP", "ann") == "guessable"
    assert weakness("correct horse", "ann") is None


class Held:
    """Hashes held at their turn: each waits in ``still_wanted`` (inside its slot) until released."""

    def __init__(self) -> None:
        self.arrived = asyncio.Semaphore(0)
        self.release = asyncio.Event()

    async def still_wanted(self) -> bool:
        self.arrived.release()
        await self.release.wait()
        return True


def busy(refusal: Refusal) -> bool:
    return (
        refusal.why is Why.UNAVAILABLE
        and refusal.said.code is Code.ACCOUNT_HASHING_BUSY
        and refusal.retry_after == BUSY_RETRY_SECONDS
    )


def test_a_full_queue_refuses_at_once() -> None:
    async def scenario() -> None:
        hasher, held = Hasher(FakeClock(), waiting=1), Held()
        running = [asyncio.create_task(hasher.verify("guess", STORED, held.still_wanted)) for _ in range(CONCURRENT)]
        for _ in running:
            await held.arrived.acquire()
        queued = asyncio.create_task(hasher.verify("guess", STORED))
        await asyncio.sleep(0)
        with pytest.raises(Refusal) as refused:
            await hasher.verify("one too many", STORED)
        assert busy(refused.value) and hasher.dropped == {"full": 1}
        held.release.set()
        assert await asyncio.gather(*running, queued) == [False] * (CONCURRENT + 1)

    asyncio.run(scenario())


def test_a_hash_that_waited_past_its_deadline_is_dropped() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        hasher, held = Hasher(clock, deadline=5.0), Held()
        running = [asyncio.create_task(hasher.verify("guess", STORED, held.still_wanted)) for _ in range(CONCURRENT)]
        for _ in running:
            await held.arrived.acquire()
        late = asyncio.create_task(hasher.hashed("tile hub toe chicken"))
        await asyncio.sleep(0)
        clock.advance(5.5)
        held.release.set()
        with pytest.raises(Refusal) as refused:
            await late
        assert busy(refused.value) and hasher.dropped == {"late": 1}
        await asyncio.gather(*running)

    asyncio.run(scenario())


def test_no_hash_for_a_client_that_has_gone() -> None:
    async def scenario() -> None:
        hasher = Hasher(FakeClock())

        async def gone() -> bool:
            return False

        for work in (hasher.verify("guess", STORED, gone), hasher.hashed("tile hub toe chicken", gone)):
            with pytest.raises(Refusal) as refused:
                await work
            assert busy(refused.value)
        assert hasher.dropped == {"gone": 2}

    asyncio.run(scenario())

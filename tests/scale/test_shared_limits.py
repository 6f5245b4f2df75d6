"""Rate limits hold across processes: two limiters over one Redis count against one counter."""

from __future__ import annotations

import asyncio

import pytest
from limits import parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter, RateLimiter


@pytest.mark.parametrize("strategy", [MovingWindowRateLimiter, FixedWindowRateLimiter])
def test_two_independent_limiters_over_one_redis_share_the_count(
    redis_url: str, prefix: str, strategy: type[RateLimiter]
) -> None:
    limit = parse("5/minute")
    address = "203.0.113.7"

    async def scenario() -> list[bool]:
        # As in two server processes: each its own storage, connection and limiter.
        storages = [RedisStorage(f"async+{redis_url}", implementation="redispy", key_prefix=prefix) for _ in "ab"]
        first, second = (strategy(storage) for storage in storages)
        allowed = [await first.hit(limit, address) for _ in range(3)]
        allowed += [await second.hit(limit, address) for _ in range(3)]
        allowed.append(await first.hit(limit, "198.51.100.1"))  # another address has its own count
        stats = [await limiter.get_window_stats(limit, address) for limiter in (first, second)]
        assert stats[0].remaining == stats[1].remaining == 0
        for storage in storages:
            await storage.reset()
        return allowed

    assert asyncio.run(scenario()) == [True] * 5 + [False, True]

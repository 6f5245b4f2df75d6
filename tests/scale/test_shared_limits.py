"""Rate limits hold across processes: two limiters over one Redis count against one counter."""

from __future__ import annotations

import asyncio

import pytest
from limits import parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter, RateLimiter

from chickenfoot.server.http import limits as server_limits
from chickenfoot.server.http.limits import AddressLimits


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


def test_replays_built_are_counted_once_across_server_processes(redis_url: str, prefix: str) -> None:
    address = f"{prefix}-203.0.113.8"  # this run's own counter on the shared Redis

    async def scenario() -> list[bool]:
        # Two processes' limiters, as each server builds its own from the same settings.
        first, second = (server_limits.RateLimiter(AddressLimits(replays="3/minute", storage=redis_url)) for _ in "ab")
        answers = [await first.refusal("replay", address) is None for _ in range(2)]
        answers += [await second.refusal("replay", address) is None for _ in range(2)]
        refused = await first.refusal("replay", address)
        assert refused is not None and refused[0].code.id == "error.too_many_replays"
        return answers

    assert asyncio.run(scenario()) == [True, True, True, False]


def test_hints_searched_are_counted_once_across_server_processes(redis_url: str, prefix: str) -> None:
    address = f"{prefix}-203.0.113.9"  # this run's own counter on the shared Redis

    async def scenario() -> list[bool]:
        first, second = (server_limits.RateLimiter(AddressLimits(hints="2/minute", storage=redis_url)) for _ in "ab")
        answers = [await first.refusal("hint", address) is None, await second.refusal("hint", address) is None]
        refused = await first.refusal("hint", address)
        assert refused is not None and refused[0].code.id == "error.too_many_hints"
        return answers

    assert asyncio.run(scenario()) == [True, True]

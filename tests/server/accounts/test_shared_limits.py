"""Sign-in limits are shared by the processes of one site: two limiters over one Redis, one count per name."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
import redis

from chickenfoot.server.http.limits import AddressLimits, RateLimiter


def test_two_processes_count_one_names_sign_ins_together() -> None:
    url = os.environ.get("CHICKENFOOT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required on CI: {exc}")
        pytest.skip(f"Redis is not available ({exc}); run scripts/test-services.sh")
    name = f"test-{secrets.token_hex(8)}"  # the Redis is shared with other runs: a key of this test alone

    async def scenario() -> list[str | None]:
        settings = AddressLimits(storage=url, sign_ins_per_name="4/minute")
        first, second = RateLimiter(settings), RateLimiter(settings)  # as in two server processes
        outcomes = []
        for limiter in (first, second, first, second, second, first):
            refusal = await limiter.refusal("sign_in_name", name)
            outcomes.append(None if refusal is None else refusal[0].code.id)
        return outcomes

    assert asyncio.run(scenario()) == [None] * 4 + ["account.too_many_sign_ins"] * 2

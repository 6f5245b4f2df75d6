"""Password hashes: argon2id with the stated parameters, verified off the event loop; the dummy never matches."""

from __future__ import annotations

import asyncio

from chickenfoot.server.accounts.passwords import MAX_LENGTH, Hasher, weakness


def test_hash_and_verify() -> None:
    async def scenario() -> None:
        hasher = Hasher()
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

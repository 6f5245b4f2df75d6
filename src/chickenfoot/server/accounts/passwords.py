"""Passwords: argon2id hashes (``pwdlib``), checked off the event loop, and what a password may be.

Parameters (OWASP's second recommended argon2id configuration): memory 19 MiB (``memory_cost=19456``
KiB), 2 iterations (``time_cost=2``), 1 lane (``parallelism=1``), a 16-byte random salt and a 32-byte
hash. On this project's 2-core test machine one hash takes about 30 ms; at most :data:`CONCURRENT`
run at once, in threads, so sign-ins never hold the event loop and a flood queues instead of
exhausting memory.

A sign-in for a name that does not exist, or an account without a password, verifies against a
dummy hash with the same parameters: the answer and its time are those of a wrong password.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Literal

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

MIN_LENGTH = 10
MAX_LENGTH = 256
"""Longer input is refused before hashing (it is never a password a person types)."""
CONCURRENT = 2
COMMON = frozenset(
    """
    1234567890 0123456789 12345678910 1234567891 123456789a 1q2w3e4r5t qwertyuiop 1qaz2wsx3edc
    password12 password123 password1234 passw0rd123 iloveyou12 qwerty1234 qwerty12345 qwerty123456
    abcdefghij abc1234567 aaaaaaaaaa 1111111111 0000000000 9876543210 asdfghjkl1 zxcvbnm123
    princess12 sunshine12 football12 baseball12 welcome123 monkey1234 dragon1234 letmein123
    trustno123 superman12 starwars12 whatever12 123qweasdzxc qazwsxedc123 1234qwer5678 changeme123
    administrator chickenfoot dominoes12 password! password1! Password123 Passw0rd!
    """.casefold().split()
)
"""A small list of the most guessed passwords at least :data:`MIN_LENGTH` long (shorter ones are refused anyway)."""

Weakness = Literal["short", "long", "guessable"]

_hasher = PasswordHash((Argon2Hasher(time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=16),))


def weakness(password: str, username: str) -> Weakness | None:
    """Why ``password`` may not be used by ``username``, or ``None``.

    >>> weakness("short", "ann"), weakness("password123", "ann"), weakness("annabelle12", "Annabelle12")
    ('short', 'guessable', 'guessable')
    >>> weakness("tile hub toe chicken", "ann") is None
    True
    """
    if len(password) < MIN_LENGTH:
        return "short"
    if len(password) > MAX_LENGTH:
        return "long"
    if password.casefold() in COMMON or password.casefold() == username.casefold():
        return "guessable"
    return None


class Hasher:
    """One server's password hashing: at most :data:`CONCURRENT` hashes at once, each in a thread."""

    def __init__(self) -> None:
        self._slots = asyncio.Semaphore(CONCURRENT)
        _dummy()  # made now, so the first unknown name takes no longer than a wrong password

    async def hashed(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(_hasher.hash, password)

    async def verify(self, password: str, stored: str | None) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: no password; a dummy is checked, for the time)."""
        password = password[:MAX_LENGTH]
        async with self._slots:
            if stored is None:
                await asyncio.to_thread(_hasher.verify, password, _dummy())
                return False
            return await asyncio.to_thread(_hasher.verify, password, stored)


@cache
def _dummy() -> str:
    return _hasher.hash("not the password of anybody")

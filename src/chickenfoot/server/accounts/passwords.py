"""Passwords: argon2id hashes (``pwdlib``), checked off the event loop, and what a password may be.

Parameters (OWASP's second recommended argon2id configuration): memory 19 MiB (``memory_cost=19456``
KiB), 2 iterations (``time_cost=2``), 1 lane (``parallelism=1``), a 16-byte random salt and a 32-byte
hash. On this project's 2-core test machine one hash takes about 30 ms; at most :data:`CONCURRENT`
run at once, in threads, so sign-ins never hold the event loop. Behind them at most :data:`WAITING`
wait: one more is refused at once as busy (503, try again shortly), a hash that waited past
:data:`DEADLINE_SECONDS` is dropped when its turn comes, and so is one whose client has gone (a flood
of abandoned sign-ins costs no hashing once its clients leave).

A sign-in for a name that does not exist, or an account without a password, verifies against a
dummy hash with the same parameters: the answer and its time are those of a wrong password.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Literal, TypeVar

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock
from chickenfoot.server.refusals import Refusal

MIN_LENGTH = 10
MAX_LENGTH = 256
"""Longer input is refused before hashing (it is never a password a person types)."""
CONCURRENT = 2
WAITING = 16
"""Hashes that may wait for a slot; more are refused at once (about a quarter of a second of work on two slots)."""
DEADLINE_SECONDS = 5.0
"""A hash that waited longer than this is dropped at its turn: its client has given up or soon will."""
BUSY_RETRY_SECONDS = 2
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
StillWanted = Callable[[], Awaitable[bool]]
"""Whether the client a hash is for is still there (its connection open)."""
Dropped = Literal["full", "late", "gone"]
_T = TypeVar("_T")

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


async def wanted() -> bool:
    """Work whose client is never asked about (the command line's own accounts)."""
    return True


class Hasher:
    """One server's password hashing: at most :data:`CONCURRENT` hashes at once, each in a thread, and at
    most ``waiting`` behind them, each for at most ``deadline`` seconds."""

    def __init__(self, clock: Clock, waiting: int = WAITING, deadline: float = DEADLINE_SECONDS) -> None:
        self.clock, self.waiting, self.deadline = clock, waiting, deadline
        self._slots = asyncio.Semaphore(CONCURRENT)
        self._queued = 0
        self.dropped = Counter[Dropped]()
        """Hashes not done, by why: the queue was full, the hash waited too long, its client had gone."""
        _dummy()  # made now, so the first unknown name takes no longer than a wrong password

    async def hashed(self, password: str, still_wanted: StillWanted = wanted) -> str:
        return await self._in_turn(lambda: _hasher.hash(password), still_wanted)

    async def verify(self, password: str, stored: str | None, still_wanted: StillWanted = wanted) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: no password; a dummy is checked, for the time)."""
        password = password[:MAX_LENGTH]
        if stored is None:
            await self._in_turn(lambda: _hasher.verify(password, _dummy()), still_wanted)
            return False
        return await self._in_turn(lambda: _hasher.verify(password, stored), still_wanted)

    def check_room(self) -> None:
        """Raises :class:`Refusal` (busy) at once when no hash could wait its turn now: a sign-in asks it
        before any other work (the store's facts), so a refusal in a flood costs next to nothing."""
        if self._queued >= self.waiting + CONCURRENT:
            raise self._busy("full")

    async def _in_turn(self, work: Callable[[], _T], still_wanted: StillWanted) -> _T:
        """``work`` in a thread once a slot is free; raises :class:`Refusal` (busy) instead when the queue
        is full, the wait outlasted the deadline, or the client has gone (before the work, or during it)."""
        self.check_room()
        self._queued += 1
        queued_at = self.clock.monotonic()
        try:
            async with self._slots:
                if self.clock.monotonic() - queued_at > self.deadline:
                    raise self._busy("late")
                if not await still_wanted():
                    raise self._busy("gone")
                done = await asyncio.to_thread(work)
                if not await still_wanted():  # gone meanwhile: no account nor session made for nobody
                    raise self._busy("gone")
                return done
        finally:
            self._queued -= 1

    def _busy(self, why: Dropped) -> Refusal:
        self.dropped[why] += 1
        return Refusal.busy(Said.of(Code.ACCOUNT_HASHING_BUSY, seconds=BUSY_RETRY_SECONDS), BUSY_RETRY_SECONDS)


@cache
def _dummy() -> str:
    return _hasher.hash("not the password of anybody")

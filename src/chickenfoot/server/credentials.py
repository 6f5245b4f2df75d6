"""Seat credentials: a secret per seated player and a single-use claim per invite.

Secrets are ``secrets.token_urlsafe(32)`` (256 bits). Storage keeps only their SHA-256 digests,
and a presented secret is compared with each of the table's digests in constant time. A seat's
secret is handed out once, to the player who takes the seat (the creator at creation, a friend
claiming an invite, or a stranger joining an open table); nobody else ever sees it, and it is never
issued again unless the creator replaces the absent player with a bot (which revokes it).

A socket's handshake does not read storage each time: the seat digests of a table in memory are kept
with the table's seating generation (:attr:`~chickenfoot.server.table.actor.Table.seating`, which
moves whenever the table adopts a configuration or hears that a seat's credential moved, in any
process), so a credential revoked or moved elsewhere stops opening its seat as soon as the table
hears of it. A secret not among the kept digests is looked up again (it may be new); concurrent
look-ups of one table share one read.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import secrets
from enum import StrEnum

from chickenfoot.server.storage import Storage

SECRET_BYTES = 32
MAX_SECRET_LENGTH = 100
"""Longer strings are never secrets this server made; they are refused before hashing."""
KEPT_TABLES = 10_000
"""Tables whose seat digests are kept at most; past them the least recently used are forgotten."""

Digests = list[tuple[int, str]]


class Purpose(StrEnum):
    SEAT = "seat"
    """The seat's credential: opens the seat's WebSocket."""
    INVITE = "invite"
    """A single-use claim: exchanged once for a fresh seat credential."""


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Credentials:
    """The seat credentials and invites of every table, kept in storage only."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._kept: dict[str, tuple[int, Digests]] = {}
        """Each table's seat digests with the seating generation they were read under, least recently used first."""
        self._reading: dict[str, asyncio.Future[Digests]] = {}
        self._writes = 0
        """Counts this process's changes of seat digests: a read that began before one is not kept."""

    async def _find(
        self, code: str, purpose: Purpose, secret: str | None, seating: int | None = None
    ) -> tuple[int, str] | None:
        """The seat whose ``purpose`` digest matches ``secret``, with that digest (``seating``: see :meth:`seat_of`)."""
        if not secret or len(secret) > MAX_SECRET_LENGTH:
            return None
        wanted = digest(secret)
        kept = self._kept.get(code) if purpose is Purpose.SEAT and seating is not None else None
        if kept is not None and kept[0] == seating:
            self._kept[code] = self._kept.pop(code)  # the most recently used now
            if (found := _match(kept[1], wanted)) is not None:
                return found
        if purpose is Purpose.SEAT and seating is not None:
            return _match(await self._seat_digests(code, seating), wanted)
        return _match(await self.storage.secrets_of(code, purpose), wanted)

    async def _seat_digests(self, code: str, seating: int) -> Digests:
        """The table's seat digests read from storage (one read for every look-up waiting), then kept."""
        writes = self._writes
        reading = self._reading.get(code)
        if reading is None:
            reading = self._reading[code] = asyncio.ensure_future(self.storage.secrets_of(code, Purpose.SEAT))
            reading.add_done_callback(functools.partial(self._read_done, code))
        digests = await asyncio.shield(reading)
        if writes == self._writes:
            self._kept.pop(code, None)
            self._kept[code] = (seating, digests)
            if len(self._kept) > KEPT_TABLES:
                del self._kept[next(iter(self._kept))]
        return digests

    def _read_done(self, code: str, done: asyncio.Future[Digests]) -> None:
        if self._reading.get(code) is done:
            del self._reading[code]

    def _changed(self, code: str) -> None:
        """This process changed the table's seat digests: what was kept or is being read is stale."""
        self._writes += 1
        self._kept.pop(code, None)
        self._reading.pop(code, None)

    def kept_seat(self, code: str, secret: str) -> int | None:
        """The seat ``secret`` opens at table ``code`` by the digests kept for it, without a read (``None``:
        none kept, or none matches). The seating they were read under is not checked: another process may
        have changed it since, so this decides what a socket is counted against, never what it opens."""
        kept = self._kept.get(code)
        if kept is None or not secret or len(secret) > MAX_SECRET_LENGTH:
            return None
        found = _match(kept[1], digest(secret))
        return found[0] if found else None

    async def seat_of(self, code: str, secret: str | None, seating: int | None = None) -> int | None:
        """The seat this secret opens at table ``code``, or ``None``.

        ``seating``: the table's seating generation, when the table is in memory: the digests kept for
        that generation answer without a read. Without it, storage is read.
        """
        found = await self._find(code, Purpose.SEAT, secret, seating)
        return found[0] if found else None

    async def issue_seat(self, code: str, seat: int) -> str | None:
        """A fresh credential for a seat nobody holds (its invite stops working); ``None`` if taken."""
        secret = new_secret()
        if not await self.storage.take_seat(code, seat, digest(secret), None):
            return None
        self._changed(code)
        return secret

    async def invite(self, code: str, seat: int) -> str:
        """A new single-use claim for ``seat`` (replacing any earlier one)."""
        claim = new_secret()
        await self.storage.put_secret(code, seat, Purpose.INVITE, digest(claim))
        return claim

    async def claim(self, code: str, invite: str) -> tuple[int, str] | None:
        """Exchange an invite for a fresh seat credential; ``None`` when the invite opens nothing."""
        found = await self._find(code, Purpose.INVITE, invite)
        if found is None:
            return None
        seat, invite_digest = found
        secret = new_secret()
        if not await self.storage.take_seat(code, seat, digest(secret), invite_digest):
            return None
        self._changed(code)
        return seat, secret

    async def revoke(self, code: str, seat: int, *, keep_account: bool = False) -> None:
        """The seat's credential and any invite for it open nothing from now on; with ``keep_account``
        the account the seat followed keeps it on record (a rated match its player abandoned)."""
        self._changed(code)
        await self.storage.drop_secrets(code, seat, keepers=not keep_account)
        self._changed(code)  # a look-up that read meanwhile found the credential still there


def _match(digests: Digests, wanted: str) -> tuple[int, str] | None:
    """The (seat, digest) pair whose digest is ``wanted``, compared in constant time."""
    found = None
    for seat, stored in digests:
        if hmac.compare_digest(stored, wanted):
            found = seat, stored  # no early exit: the time taken does not depend on which seat
    return found

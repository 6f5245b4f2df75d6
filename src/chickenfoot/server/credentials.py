"""Seat credentials: a secret per seated player and a single-use claim per invite.

Secrets are ``secrets.token_urlsafe(32)`` (256 bits). Storage keeps only their SHA-256 digests,
and a presented secret is compared with each of the table's digests in constant time. A seat's
secret is handed out once, to the player who takes the seat (the creator at creation, a friend
claiming an invite, or a stranger joining an open table); nobody else ever sees it, and it is never
issued again unless the creator replaces the absent player with a bot (which revokes it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from enum import StrEnum

from chickenfoot.server.storage import Storage

SECRET_BYTES = 32
MAX_SECRET_LENGTH = 100
"""Longer strings are never secrets this server made; they are refused before hashing."""


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

    async def _find(self, code: str, purpose: Purpose, secret: str | None) -> tuple[int, str] | None:
        """The seat whose ``purpose`` digest matches ``secret``, with that digest."""
        if not secret or len(secret) > MAX_SECRET_LENGTH:
            return None
        wanted = digest(secret)
        found = None
        for seat, stored in await self.storage.secrets_of(code, purpose):
            if hmac.compare_digest(stored, wanted):
                found = seat, stored  # no early exit: the time taken does not depend on which seat
        return found

    async def seat_of(self, code: str, secret: str | None) -> int | None:
        """The seat this secret opens at table ``code``, or ``None``."""
        found = await self._find(code, Purpose.SEAT, secret)
        return found[0] if found else None

    async def issue_seat(self, code: str, seat: int) -> str | None:
        """A fresh credential for a seat nobody holds (its invite stops working); ``None`` if taken."""
        secret = new_secret()
        if not await self.storage.take_seat(code, seat, digest(secret), None):
            return None
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
        return seat, secret

    async def revoke(self, code: str, seat: int, *, keep_account: bool = False) -> None:
        """The seat's credential and any invite for it open nothing from now on; with ``keep_account``
        the account the seat followed keeps it on record (a rated match its player abandoned)."""
        await self.storage.drop_secrets(code, seat, keepers=not keep_account)

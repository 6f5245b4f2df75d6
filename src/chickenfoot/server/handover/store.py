"""Continue on another device: a seat's single-use link that moves the seat's credential to the device
that opens it; the device that held it is told and watches from then on.

The link's secret is stored only as its SHA-256 digest (table ``seat_handovers``, migration
``0011_handover``), lives :data:`HANDOVER_SECONDS`, and is spent in the same transaction that swaps
the seat's credential digest for a new one: two devices opening one link, in one process or two,
cannot both take the seat. The spent row stays, so the old credential is recognised afterwards and
its device is told it watches because the seat is elsewhere (``watching = {"reason":
"seat_elsewhere"}`` in its state), rather than that its credential is unknown.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, Purpose, digest, new_secret
from chickenfoot.server.handover.schema import handovers
from chickenfoot.server.storage import Storage, seat_secrets

HANDOVER_SECONDS = 600
"""How long a link to continue on another device stays good (it is shown to be scanned at once)."""


class _Gone(LookupError):
    """Raised inside a transaction to roll it back: the link or the seat's credential changed meanwhile."""


class HandoverStore:
    """The handover links of every table, kept in storage only."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage, self.clock = storage, clock

    async def offer(self, code: str, seat: int) -> str | None:
        """A new link's secret for ``seat`` (its earlier unspent links end); ``None`` if the seat has no credential."""
        current = dict(await self.storage.secrets_of(code, Purpose.SEAT)).get(seat)
        if current is None:
            return None
        secret = new_secret()
        now = utc(self.clock)
        same_seat = (handovers.c.table_code == code) & (handovers.c.seat == seat) & handovers.c.used_at.is_(None)
        async with self.storage.transaction() as conn:
            await conn.execute(handovers.delete().where(same_seat))
            await conn.execute(
                handovers.insert().values(
                    digest=digest(secret),
                    table_code=code,
                    seat=seat,
                    from_digest=current,
                    expires_at=now + timedelta(seconds=HANDOVER_SECONDS),
                )
            )
        return secret

    async def take(self, code: str, secret: str) -> tuple[int, str, str] | None:
        """Spend a link: the seat, its new credential, and the digest of the credential it replaced.

        ``None``, and nothing changed, for a link unknown, spent, expired, or whose seat's credential
        changed since it was made (the seat was given to a bot or to someone else).
        """
        if not secret or len(secret) > MAX_SECRET_LENGTH:
            return None
        now = utc(self.clock)
        new = new_secret()
        link = (
            (handovers.c.digest == digest(secret))
            & (handovers.c.table_code == code)
            & handovers.c.used_at.is_(None)
            & (handovers.c.expires_at > now)
        )
        try:
            async with self.storage.transaction() as conn:
                row = (await conn.execute(sa.select(handovers.c.seat, handovers.c.from_digest).where(link))).first()
                if row is None:
                    raise _Gone
                seat, old = int(row.seat), str(row.from_digest)
                spent = await conn.execute(handovers.update().where(link).values(used_at=now))
                swapped = await conn.execute(
                    seat_secrets.update()
                    .where(
                        (seat_secrets.c.table_code == code)
                        & (seat_secrets.c.seat == seat)
                        & (seat_secrets.c.purpose == Purpose.SEAT)
                        & (seat_secrets.c.digest == old)
                    )
                    .values(digest=digest(new))
                )
                if spent.rowcount != 1 or swapped.rowcount != 1:
                    raise _Gone
        except _Gone:
            return None
        return seat, new, old

    async def moved(self, code: str, credential: str) -> bool:
        """Whether ``credential`` was a seat's at table ``code`` until a link moved it to another device."""
        if not credential or len(credential) > MAX_SECRET_LENGTH:
            return False
        query = sa.select(handovers.c.seat).where(
            (handovers.c.table_code == code)
            & (handovers.c.from_digest == digest(credential))
            & handovers.c.used_at.is_not(None)
        )
        async with self.storage.reading() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

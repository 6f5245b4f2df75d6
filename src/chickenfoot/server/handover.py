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
from typing import Any

import segno
import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, Credentials, Purpose, digest, new_secret
from chickenfoot.server.limiter import Limiter
from chickenfoot.server.refusal import Refused
from chickenfoot.server.storage import Storage, seat_secrets
from chickenfoot.server.table.commands import SeatMoved
from chickenfoot.server.table.registry import TableRegistry

HANDOVER_SECONDS = 600
"""How long a link to continue on another device stays good (it is shown to be scanned at once)."""
SEAT_ELSEWHERE = "seat_elsewhere"
"""The reason a device whose seat moved watches (``watching.reason`` in its state)."""

metadata = sa.MetaData()
handovers = sa.Table(
    "seat_handovers",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("table_code", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    # The digest of the seat credential the link replaces: once spent, that credential only watches.
    sa.Column("from_digest", sa.String(64), nullable=False, index=True),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
)


class _Gone(LookupError):
    """Raised inside a transaction to roll it back: the link or the seat's credential changed meanwhile."""


class Handovers:
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


class HandoverOffer(BaseModel):
    token: str | None = Field(default=None, max_length=MAX_SECRET_LENGTH)
    """The seat's credential; none: the seat of the signed-in account."""


class HandoverTake(BaseModel):
    handover: str = Field(max_length=MAX_SECRET_LENGTH)


def qr_code(link: str) -> str:
    """The link as a QR code: an SVG data URI, dark on light with its quiet zone, as scanners want it."""
    return str(segno.make(link, error="m").svg_data_uri(scale=4, dark="#000", light="#fff"))


def handover_router(hub: TableRegistry, handovers_: Handovers, accounts: Accounts, limiter: Limiter) -> APIRouter:
    router = APIRouter(prefix="/api/tables/{code}/handover")
    credentials: Credentials = hub.credentials

    async def limited(request: Request) -> None:
        address = request.client.host if request.client is not None else "unknown"
        if (refusal := await limiter.refusal("handover", address)) is not None:
            reason, wait = refusal
            raise Refused(429, reason, {"Retry-After": str(wait)})

    async def table_code(code: str) -> str:
        table = await hub.get(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
        return table.code

    @router.post("")
    async def offer(code: str, body: HandoverOffer, request: Request) -> dict[str, Any]:
        """A single-use link (and its QR code) that moves this seat to another device."""
        code = await table_code(code)
        await limited(request)
        if body.token:
            seat = await credentials.seat_of(code, body.token)
        else:
            await accounts.require(request, changing=True)
            seat = await accounts.seat_at(request, code)
        secret = None if seat is None else await handovers_.offer(code, seat)
        if secret is None:
            raise Refused(403, Said.of(Code.ERROR_UNKNOWN_TOKEN))
        # In the fragment: the secret reaches no server log, no proxy and no Referer.
        origin = accounts.settings.origin or str(request.base_url).rstrip("/")
        link = f"{origin}/t/{code}#handover={secret}"
        return {"link": link, "qr": qr_code(link), "seconds": HANDOVER_SECONDS}

    @router.post("/take")
    async def take(code: str, body: HandoverTake, request: Request) -> dict[str, Any]:
        """Spend a link: this device gets the seat's new credential; the device that held it watches."""
        code = await table_code(code)
        await limited(request)
        taken = await handovers_.take(code, body.handover)
        table = await hub.get(code)
        if taken is None or table is None:
            raise Refused(403, Said.of(Code.ERROR_HANDOVER_USED))
        seat, token, old = taken
        await accounts.sit(request, code, seat)
        await table.submit(SeatMoved(seat, old))
        return {"seat": seat, "token": token}

    return router

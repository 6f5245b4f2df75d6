"""Continue on another device: the API that offers a seat's link (and its QR code) and spends it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from chickenfoot.server.accounts.holders import SeatOf
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.handover.service import Handovers, qr_code
from chickenfoot.server.handover.store import HANDOVER_SECONDS
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.tables import TableLookup


class HandoverOffer(BaseModel):
    token: str | None = Field(default=None, max_length=MAX_SECRET_LENGTH)
    """The seat's credential; none: the seat of the signed-in account."""


class HandoverTake(BaseModel):
    handover: str = Field(max_length=MAX_SECRET_LENGTH)


def handover_router(
    handovers: Handovers, accounts: Accounts, seat_of: SeatOf, get_table: TableLookup, limits: RateLimiter
) -> APIRouter:
    """``seat_of``: the seat a request acts for (server/accounts/holders.py)."""
    router = APIRouter(prefix="/api/tables/{code}/handover")

    @router.post("")
    async def offer(code: str, body: HandoverOffer, request: Request) -> dict[str, Any]:
        """A single-use link (and its QR code) that moves this seat to another device."""
        code = (await get_table(code)).code
        await limits.check("handover", client_address(request))
        seat = await seat_of(request, code, body.token)
        secret = await handovers.offer(code, seat)
        # In the fragment: the secret reaches no server log, no proxy and no Referer.
        origin = accounts.settings.origin or str(request.base_url).rstrip("/")
        link = f"{origin}/t/{code}#handover={secret}"
        return {"link": link, "qr": qr_code(link), "seconds": HANDOVER_SECONDS}

    @router.post("/take")
    async def take(code: str, body: HandoverTake, request: Request) -> dict[str, Any]:
        """Spend a link: this device gets the seat's new credential; the device that held it watches."""
        code = (await get_table(code)).code
        await limits.check("handover", client_address(request))
        seat, token = await handovers.take(code, body.handover, request)
        return {"seat": seat, "token": token}

    return router

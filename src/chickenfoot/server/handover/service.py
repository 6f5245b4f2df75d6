"""Continue on another device, as the API does it: a link offered for a seat, spent by the device that
opens it (the seat's new credential there; the table tells every other device of the seat)."""

from __future__ import annotations

import segno
from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.credentials import digest
from chickenfoot.server.handover.store import HandoverStore
from chickenfoot.server.http.tables import TableGetter
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.commands import SeatMoved


def qr_code(link: str) -> str:
    """The link as a QR code: an SVG data URI, dark on light with its quiet zone, as scanners want it."""
    return str(segno.make(link, error="m").svg_data_uri(scale=4, dark="#000", light="#fff"))


class Handovers:
    def __init__(self, store: HandoverStore, accounts: Accounts, tables: TableGetter) -> None:
        self.store, self.accounts, self.tables = store, accounts, tables

    async def offer(self, code: str, seat: int | None) -> str:
        """A new link's secret for ``seat`` of table ``code``; refuses no seat, or a seat without a credential."""
        secret = None if seat is None else await self.store.offer(code, seat)
        if secret is None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_UNKNOWN_TOKEN))
        return secret

    async def take(self, code: str, secret: str, connection: HTTPConnection) -> tuple[int, str]:
        """Spend a link: the seat and its new credential, for the device of ``connection``, which alone
        plays the seat from now on. Every other device it was open on watches: the one that asked, any
        holding the old credential, and every device of the account it follows (the seat stays that
        account's, for its history and rating; a device holding the new credential that signs in to it
        lets it follow the account's devices again). A seat that followed nobody follows the account
        the taking device is signed in to, if any."""
        taken = await self.store.take(code, secret)
        table = await self.tables(code)
        if taken is None or table is None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_HANDOVER_USED))
        seat, token, _old = taken
        await self.accounts.handed_over(connection, code, seat)
        await table.submit(SeatMoved(seat, digest(token)))
        return seat, token

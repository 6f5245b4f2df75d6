"""Who may act for a seat: whoever holds the seat's credential, or a device signed in to the account the
seat follows (by its session, with the session's CSRF token). Decided here once, for every seat action
of the HTTP API: Ready, starting with bots, leaving, listing the table, reopening a seat or giving it to
a bot, new invites, the rematch, continue on another device. Every device a seat is open on can press
every one of its buttons.

The credential is tried first: it is what the page's socket uses, so the seat acted for is the seat the
page shows. A seat handed to another device opens by its new credential only
(:meth:`~chickenfoot.server.accounts.store.AccountStore.handed_over`), so the account's sessions no
longer act for it either.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.refusals import Refusal, Why

SeatOf = Callable[[HTTPConnection, str, str | None], Awaitable[int]]
"""The seat at table ``code`` that a request acts for, by its credential (or ``None``) or its session;
raises :class:`Refusal` (403) when it acts for none."""
SeatAs = Callable[[HTTPConnection, str, str | None, Code], Awaitable[int]]
""":data:`SeatOf` with the refusal's words for a request that acts for no seat."""


class SeatHolders:
    def __init__(self, credentials: Credentials, accounts: Accounts) -> None:
        self.credentials, self.accounts = credentials, accounts

    async def seat(
        self, request: HTTPConnection, code: str, token: str | None, unknown: Code = Code.ERROR_UNKNOWN_TOKEN
    ) -> int:
        """The seat at table ``code`` that ``request`` acts for: the seat ``token`` opens, else the seat
        its signed-in account's sessions open (refused, 403 ``account.cross_site``, without the
        session's CSRF token). Refuses (403, ``unknown``: each route keeps its own words) otherwise."""
        if token:
            seat = await self.credentials.seat_of(code, token)
            if seat is not None:
                return seat
        me = await self.accounts.signed_in(request)
        if me is not None and not me.account.bot:  # a bot account acts through the Bot API only
            seat = await self.accounts.store.seat_at(code, me.account.id)
            if seat is not None:
                self.accounts.from_its_pages(request, me)
                return seat
        raise Refusal(Why.FORBIDDEN, Said.of(unknown))

    def of(self, unknown: Code = Code.ERROR_UNKNOWN_TOKEN) -> SeatOf:
        """:meth:`seat` refusing with ``unknown``, for the routes that take the port."""

        async def seat_of(request: HTTPConnection, code: str, token: str | None) -> int:
            return await self.seat(request, code, token, unknown)

        return seat_of

"""What the rest of the server asks of accounts: who a request is signed in as, and the seats that follow them."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts import sessions as session_cookies
from chickenfoot.server.accounts.live import LiveSessions
from chickenfoot.server.accounts.passwords import Hasher
from chickenfoot.server.accounts.sessions import SessionPolicy, Sessions
from chickenfoot.server.accounts.store import Account, AccountStore, Session
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus, LocalBus
from chickenfoot.server.credentials import digest, new_secret
from chickenfoot.server.refusal import Refused
from chickenfoot.server.security import origin_allowed
from chickenfoot.server.storage import Storage

RESET_LINK_SECONDS = 24 * 3600.0
RESET_PURPOSE = "reset"


@dataclass(frozen=True, slots=True)
class AccountSettings:
    origin: str | None = None
    """The site's public origin (``https://host``): the passkeys' relying party. ``None``: the origin
    each request came to (fine for one host; set it behind a proxy that rewrites ``Host``)."""
    sessions: SessionPolicy = field(default_factory=SessionPolicy)
    ceremony_seconds: float = 300.0
    """How long a passkey ceremony may take between its two requests."""


SeatFinder = Callable[[str, str], Awaitable[int | None]]
"""The seat a table's seat credential opens (``code, credential``), or ``None``."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    account: Account
    session: Session
    session_id: str


class Accounts:
    def __init__(self, storage: Storage, clock: Clock, settings: AccountSettings, bus: Bus | None = None) -> None:
        self.store = AccountStore(storage)
        self.live = LiveSessions(bus or LocalBus())
        """The table connections seated by a session, ended with it (``bus``: the cluster's)."""
        self.clock, self.settings = clock, settings
        self.sessions = Sessions(self.store, clock, settings.sessions)
        self.hasher = Hasher()

    async def signed_in(self, connection: HTTPConnection) -> SignedIn | None:
        """The account whose live session the request's cookie names, or ``None`` (a guest)."""
        session_id = session_cookies.presented(connection)
        session = await self.sessions.find(session_id)
        if session is None or session_id is None:
            return None
        account = await self.store.by_id(session.account_id)
        return None if account is None else SignedIn(account, session, session_id)

    async def require(self, connection: HTTPConnection, *, changing: bool) -> SignedIn:
        """The signed-in account, or 401; with ``changing``, also the CSRF defences, or 403."""
        if changing:
            self.same_site(connection)
        signed_in = await self.signed_in(connection)
        if signed_in is None:
            raise Refused(401, Said.of(Code.ACCOUNT_NOT_SIGNED_IN))
        if changing:
            token = connection.headers.get(session_cookies.CSRF_HEADER, "")
            if not hmac.compare_digest(token.encode(), session_cookies.csrf_token(signed_in.session_id).encode()):
                raise Refused(403, Said.of(Code.ACCOUNT_CROSS_SITE))
        return signed_in

    def same_site(self, connection: HTTPConnection) -> None:
        """Refuse (403) a request a page of another site sent: a foreign ``Origin``, or the browser says so."""
        allowed = () if self.settings.origin is None else (self.settings.origin,)
        foreign_origin = not origin_allowed(connection.scope, allowed)
        if foreign_origin or connection.headers.get("sec-fetch-site") == "cross-site":
            raise Refused(403, Said.of(Code.ACCOUNT_CROSS_SITE))

    async def sit(self, connection: HTTPConnection, code: str, seat: int) -> None:
        """A seat just taken follows the account the request is signed in as (if any; a bot account's
        seats come through the Bot API only)."""
        signed_in = await self.signed_in(connection)
        if signed_in is not None and not signed_in.account.bot:
            await self.store.sit(code, seat, signed_in.account.id)

    async def seat_at(self, connection: HTTPConnection, code: str) -> int | None:
        """The seat at table ``code`` of the account the connection is signed in as, or ``None``."""
        found = await self.seat_and_session(connection, code)
        return None if found is None else found[0]

    async def seat_and_session(self, connection: HTTPConnection, code: str) -> tuple[int, str] | None:
        """The account's seat at table ``code`` and the digest of the session that opens it, or ``None``."""
        signed_in = await self.signed_in(connection)
        if signed_in is None or signed_in.account.bot:  # a bot account plays through the Bot API only
            return None
        seat = await self.store.seat_at(code, signed_in.account.id)
        return None if seat is None else (seat, signed_in.session.digest)

    async def watching_reason(self, connection: HTTPConnection, code: str) -> str:
        """Why a connection with no seat at table ``code`` watches: ``sign_in`` when it is signed in as
        nobody and a seat there follows an account (it may be theirs), otherwise ``no_seat``."""
        if await self.signed_in(connection) is None and await self.store.any_seat_at(code):
            return "sign_in"
        return "no_seat"

    async def reset(self, account: Account) -> str:
        """An operator's reset: every way in and session goes; a one-time sign-in link's secret comes back."""
        await self.store.remove_ways_in(account.id)
        link = new_secret()
        expires = utc(self.clock) + timedelta(seconds=RESET_LINK_SECONDS)
        await self.store.put_challenge(digest(link), RESET_PURPOSE, {}, expires, account.id)
        return link


async def reset_account(database_url: str | None, username: str) -> str | None:
    """An operator's reset of ``username`` (:meth:`Accounts.reset`): the link's secret, or ``None`` (no such name)."""
    from chickenfoot.server.accounts.names import normalised, skeleton
    from chickenfoot.server.clock import SYSTEM_CLOCK
    from chickenfoot.server.storage import default_database_url

    storage = Storage(database_url or default_database_url())
    try:
        await storage.migrate()
        accounts = Accounts(storage, SYSTEM_CLOCK, AccountSettings())
        account = await accounts.store.by_skeleton(skeleton(normalised(username)))
        return None if account is None else await accounts.reset(account)
    finally:
        await storage.close()


def new_user_handle() -> str:
    """A WebAuthn user handle: 32 random bytes, base64url (it names nobody)."""
    return secrets.token_urlsafe(32)

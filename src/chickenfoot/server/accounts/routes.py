"""The account API under ``/api/account``: sign-up and sign-in (password or passkey), the ways in, the
sessions, the player's data, and seats that follow the account.

Requests that change an account and are authenticated by the session cookie must come from the
site's own pages (``Origin``) and carry the session's CSRF token (``X-CSRF-Token``); sign-up and
sign-in have no session yet and are checked by ``Origin`` alone. Sign-in attempts (and sign-ups) are
limited per address, sign-ins also per username unless the device has signed in to it before
(server/accounts/devices.py), sign-ups also from everyone together (``limits``, shared through
Redis); a wrong password and an unknown name get the same answer in the same time, and a password is
hashed only while its client is there, in a bounded queue (server/accounts/passwords.py). The routes
parse, authorise and answer; what they do is :class:`~chickenfoot.server.accounts.service.Accounts`'.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts import names
from chickenfoot.server.accounts import sessions as session_cookies
from chickenfoot.server.accounts.passkeys import RelyingParty
from chickenfoot.server.accounts.service import Accounts, Facts, SeatFinder, SignedIn
from chickenfoot.server.accounts.store import Account, Passkey, Session
from chickenfoot.server.clock import utc
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.http.client import client_address, still_connected
from chickenfoot.server.http.limits import EVERYONE, RateLimiter
from chickenfoot.server.refusals import Refusal, Why

PREFIX = "/api/account"
MAX_CREDENTIAL_FIELDS = 10


class PasswordSignUp(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordSignIn(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class NewPassword(BaseModel):
    password: str = Field(max_length=1024)
    keep_this_device: bool = True
    """This device stays signed in (every other session of the account ends either way)."""


class Confirmation(BaseModel):
    """The password, or a passkey's answer to a sign-in ceremony (``POST …/passkeys/signin``)."""

    password: str | None = Field(default=None, max_length=1024)
    handle: str | None = Field(default=None, max_length=MAX_SECRET_LENGTH)
    credential: dict[str, Any] | None = Field(default=None, max_length=MAX_CREDENTIAL_FIELDS)


class PasskeyStart(BaseModel):
    username: str | None = Field(default=None, max_length=64)
    """Signing up: the name asked for (signed in: absent, the passkey is added to the account)."""


class PasskeyFinish(BaseModel):
    handle: str = Field(max_length=MAX_SECRET_LENGTH)
    credential: dict[str, Any] = Field(max_length=MAX_CREDENTIAL_FIELDS)
    label: str | None = Field(default=None, max_length=64)


class OneTimeLink(BaseModel):
    link: str = Field(max_length=MAX_SECRET_LENGTH)


class GuestSeat(BaseModel):
    code: str = Field(max_length=16)
    token: str = Field(max_length=MAX_SECRET_LENGTH)


def _when(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _passkey_facts(key: Passkey) -> dict[str, Any]:
    return {
        "id": key.credential_id,
        "label": key.label,
        "transports": key.transports,
        "created": _when(key.created_at),
        "last_used": _when(key.last_used_at),
    }


def overview(facts: Facts, me: SignedIn) -> dict[str, Any]:
    """The account page's facts, and the session's CSRF token."""
    return {
        "username": facts.account.username,
        "bot": facts.account.bot,
        "created": _when(facts.account.created_at),
        "password": facts.password,
        "passkeys": [_passkey_facts(key) for key in facts.passkeys],
        "sessions": len(facts.sessions),
        "csrf": session_cookies.csrf_token(me.session_id),
    }


def session_list(sessions: list[Session], me: SignedIn) -> list[dict[str, Any]]:
    return [
        {
            "id": session_cookies.handle(session),
            "created": _when(session.created_at),
            "last_seen": _when(session.last_seen),
            "user_agent": session.user_agent,
            "current": session.digest == me.session.digest,
        }
        for session in sessions
    ]


class AccountRoutes:
    """What every route of the account API shares: the service, the sign-in limits, the session cookie."""

    def __init__(self, accounts: Accounts, limits: RateLimiter) -> None:
        self.accounts, self.limits = accounts, limits

    def party(self, request: Request) -> RelyingParty:
        return RelyingParty.of(request, self.accounts.settings.origin)

    async def limited(self, request: Request, skeleton: str | None = None) -> None:
        """Count a sign-in attempt (or a sign-up: each costs a hash and a row) of the address, and of the
        name unless the device has signed in to it before (server/accounts/devices.py)."""
        await self.limits.check("sign_in", client_address(request))
        if skeleton is not None and not await self.accounts.devices.known(request, skeleton, utc(self.accounts.clock)):
            await self.limits.check("sign_in_name", skeleton)

    async def sign_up_limited(self, request: Request) -> None:
        """Count a sign-up: of the address (as a sign-in), and of everyone together."""
        await self.limited(request)
        await self.limits.check("sign_up", EVERYONE)

    async def signed_in_as(self, request: Request, response: Response, account: Account) -> dict[str, Any]:
        """Start a new session (ending the one the browser held) and set its cookie, unless a gate refuses
        the account one (a suspension)."""
        await self.accounts.admitted(account)
        user_agent = request.headers.get("user-agent", "")
        sessions = self.accounts.sessions
        session_id = await sessions.start(account.id, user_agent, session_cookies.presented(request))
        sessions.set_cookie(request, response, session_id)
        await self.accounts.devices.remember(request, response, account.id, utc(self.accounts.clock))
        return {"username": account.username, "csrf": session_cookies.csrf_token(session_id)}

    async def overview(self, me: SignedIn) -> dict[str, Any]:
        return overview(await self.accounts.facts(me), me)

    async def recent(self, request: Request) -> SignedIn:
        """The signed-in account, for a change of its ways in or its deletion: the CSRF defences, and a
        sign-in (or a confirmation) recent enough (:meth:`Accounts.recently_confirmed`)."""
        me = await self.accounts.require(request, changing=True)
        self.accounts.recently_confirmed(me)
        return me


DataSection = Callable[[int], Awaitable[dict[str, Any]]]
"""What another feature keeps of an account (by its id), for the account's data download."""


def accounts_router(
    accounts: Accounts, limits: RateLimiter, seat_of: SeatFinder, sections: Sequence[DataSection] = ()
) -> APIRouter:
    """``seat_of``: the seat a table's seat credential opens, for a guest's seat kept by the account;
    ``sections``: the other features' parts of the data download (its matches, ratings, chat lines)."""
    shared = AccountRoutes(accounts, limits)
    router = APIRouter()
    router.include_router(password_routes(shared))
    router.include_router(passkey_routes(shared))
    router.include_router(session_routes(shared))
    router.include_router(data_routes(shared, seat_of, sections))
    return router


def password_routes(shared: AccountRoutes) -> APIRouter:
    router, accounts = APIRouter(prefix=PREFIX), shared.accounts

    @router.post("/signup", status_code=201)
    async def sign_up(body: PasswordSignUp, request: Request, response: Response) -> dict[str, Any]:
        """A new account with a password, signed in at once."""
        accounts.same_site(request)
        await shared.sign_up_limited(request)
        account = await accounts.sign_up(body.username, body.password, still_connected(request))
        return await shared.signed_in_as(request, response, account)

    @router.post("/signin")
    async def sign_in(body: PasswordSignIn, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        skeleton = names.skeleton(names.normalised(body.username))
        await shared.limited(request, skeleton)
        account = await accounts.sign_in(skeleton, body.password, still_connected(request))
        return await shared.signed_in_as(request, response, account)

    @router.post("/link")
    async def sign_in_by_link(body: OneTimeLink, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with an operator's one-time link (``chickenfoot account reset``)."""
        accounts.same_site(request)
        await shared.limited(request)
        return await shared.signed_in_as(request, response, await accounts.sign_in_by_link(body.link))

    @router.put("/password")
    async def set_password(body: NewPassword, request: Request, response: Response) -> dict[str, Any]:
        """A new password: every other session of the account ends; this one too unless it is kept."""
        me = await shared.recent(request)
        ended = await accounts.set_password(me, body.password)
        if not body.keep_this_device:
            await accounts.sign_out(me)
            accounts.sessions.clear_cookie(request, response)
            return {"ended": ended + 1, "signed_out": True}
        return await shared.overview(me) | {"ended": ended, "signed_out": False}

    @router.delete("/password")
    async def drop_password(request: Request) -> dict[str, Any]:
        me = await shared.recent(request)
        await accounts.drop_password(me)
        return await shared.overview(me)

    @router.post("/confirm")
    async def confirm(body: Confirmation, request: Request, response: Response) -> dict[str, Any]:
        """It is the account's owner: the password, or a passkey of the account, again. The device gets a
        new session (as at sign-in) that may change the ways in and delete the account for a while."""
        me = await accounts.require(request, changing=True)
        await shared.limited(request, names.skeleton(me.account.username))
        if body.password is not None:
            await accounts.confirm_password(me, body.password)
        elif body.handle is not None and body.credential is not None:
            await accounts.confirm_passkey(me, body.handle, body.credential, shared.party(request))
        else:
            raise Refusal.invalid(Said.of(Code.ACCOUNT_CONFIRM_FAILED))
        return await shared.signed_in_as(request, response, me.account)

    return router


def passkey_routes(shared: AccountRoutes) -> APIRouter:
    router, accounts = APIRouter(prefix=f"{PREFIX}/passkeys"), shared.accounts

    @router.post("/register")
    async def passkey_register(body: PasskeyStart, request: Request) -> dict[str, Any]:
        """Start registering a passkey: for the signed-in account, or for a new one named ``username``."""
        me = await accounts.signed_in(request)
        if me is not None:
            me = await shared.recent(request)
        else:
            accounts.same_site(request)
            await shared.sign_up_limited(request)
        return await accounts.registration_options(me, body.username, shared.party(request))

    @router.post("/register/finish")
    async def passkey_registered(body: PasskeyFinish, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        ceremony = await accounts.ceremony("register", body.handle)
        new = accounts.verified_passkey(ceremony, body.credential, shared.party(request))
        me = None if ceremony.account_id is None else await accounts.require(request, changing=True)
        account = await accounts.add_passkey(ceremony, me, new, body.label)
        if me is None:
            return await shared.signed_in_as(request, response, account)
        return await shared.overview(me)

    @router.post("/signin")
    async def passkey_sign_in_start(request: Request) -> dict[str, Any]:
        accounts.same_site(request)
        await shared.limited(request)
        return await accounts.sign_in_options(shared.party(request))

    @router.post("/signin/finish")
    async def passkey_sign_in(body: PasskeyFinish, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        account = await accounts.passkey_sign_in(body.handle, body.credential, shared.party(request))
        return await shared.signed_in_as(request, response, account)

    @router.delete("/{credential_id}")
    async def drop_passkey(credential_id: str, request: Request) -> dict[str, Any]:
        me = await shared.recent(request)
        await accounts.drop_passkey(me, credential_id)
        return await shared.overview(me)

    return router


def session_routes(shared: AccountRoutes) -> APIRouter:
    router, accounts = APIRouter(prefix=PREFIX), shared.accounts

    @router.get("")
    async def account(request: Request) -> dict[str, Any]:
        return await shared.overview(await accounts.require(request, changing=False))

    @router.get("/sessions")
    async def sessions(request: Request) -> list[dict[str, Any]]:
        me = await accounts.require(request, changing=False)
        return session_list(await accounts.sessions_of(me), me)

    @router.delete("/sessions/{handle}")
    async def end_session(handle: str, request: Request, response: Response) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        ended = await accounts.end_session(me, handle)
        if me.session.digest in ended:
            accounts.sessions.clear_cookie(request, response)
        return {"ended": len(ended)}

    @router.delete("/sessions")
    async def end_every_session(request: Request, response: Response) -> dict[str, Any]:
        """Sign out everywhere, this device included."""
        me = await accounts.require(request, changing=True)
        ended = await accounts.end_every_session(me)
        accounts.sessions.clear_cookie(request, response)
        return {"ended": ended}

    @router.post("/signout")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await accounts.sign_out(me)
        accounts.sessions.clear_cookie(request, response)
        return {"ended": 1}

    return router


def data_routes(shared: AccountRoutes, seat_of: SeatFinder, sections: Sequence[DataSection]) -> APIRouter:
    router, accounts = APIRouter(prefix=PREFIX), shared.accounts

    @router.get("/data")
    async def data(request: Request, response: Response) -> dict[str, Any]:
        """Everything stored about the account and what it did, as a JSON download (no secret, no hash):
        its ways in and sessions, its seats, its matches with their results, its ratings and their
        history, the chat lines it said. Built as a profile is, and limited as one."""
        me = await accounts.require(request, changing=False)
        await shared.limits.check("profile", client_address(request))
        facts = await accounts.facts(me)
        day = utc(accounts.clock).date().isoformat()
        response.headers["Content-Disposition"] = f'attachment; filename="chickenfoot-account-{day}.json"'
        answer = {key: value for key, value in overview(facts, me).items() if key != "csrf"} | {
            "sessions": session_list(facts.sessions, me),
            "seats": [{"table": code, "seat": seat} for code, seat in await accounts.store.seats_of(me.account.id)],
        }
        for section in sections:
            answer |= await section(me.account.id)
        return answer

    @router.delete("")
    async def delete_account(request: Request, response: Response) -> dict[str, Any]:
        """Every way in and every session go at once; finished matches keep the moves, under "deleted player"."""
        me = await shared.recent(request)
        await accounts.delete(me)
        accounts.sessions.clear_cookie(request, response)
        return {"deleted": True}

    @router.post("/seats")
    async def keep_seat(body: GuestSeat, request: Request) -> dict[str, Any]:
        """A seat taken as a guest follows the account from now on (its credential keeps working too)."""
        me = await accounts.require(request, changing=True)
        seat = await seat_of(body.code, body.token)
        if seat is None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_UNKNOWN_TOKEN))
        await accounts.keep_seat(me, body.code, seat)
        return {"table": body.code, "seat": seat}

    return router

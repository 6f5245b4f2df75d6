"""The account API under ``/api/account``: sign-up and sign-in (password or passkey), the ways in, the
sessions, the player's data, and seats that follow the account.

Requests that change an account and are authenticated by the session cookie must come from the
site's own pages (``Origin``) and carry the session's CSRF token (``X-CSRF-Token``); sign-up and
sign-in have no session yet and are checked by ``Origin`` alone. Sign-in attempts (and sign-ups) are
limited per address, sign-ins also per username (``limits``, shared through Redis), and a wrong password and an unknown
name get the same answer in the same time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts import names, passkeys
from chickenfoot.server.accounts import passwords as password_rules
from chickenfoot.server.accounts import sessions as session_cookies
from chickenfoot.server.accounts.passkeys import PasskeyRefused, RelyingParty
from chickenfoot.server.accounts.service import RESET_PURPOSE, Accounts, SeatFinder, SignedIn, new_user_handle
from chickenfoot.server.accounts.store import Account, LastWayIn, Passkey
from chickenfoot.server.clock import utc
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest, new_secret
from chickenfoot.server.limiter import Limiter
from chickenfoot.server.refusal import Refused

MAX_CREDENTIAL_FIELDS = 10


class PasswordSignUp(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordSignIn(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class NewPassword(BaseModel):
    password: str = Field(max_length=1024)


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


def accounts_router(accounts: Accounts, limiter: Limiter, seat_of: SeatFinder) -> APIRouter:
    router = APIRouter(prefix="/api/account")
    store, clock = accounts.store, accounts.clock

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    def party(request: Request) -> RelyingParty:
        return RelyingParty.of(request, accounts.settings.origin)

    async def limited(request: Request, skeleton: str | None) -> None:
        checks: list[tuple[Any, str]] = [("sign_in", address(request))]
        if skeleton is not None:
            checks.append(("sign_in_name", skeleton))
        for action, key in checks:
            if (refusal := await limiter.refusal(action, key)) is not None:
                reason, wait = refusal
                raise Refused(429, reason, {"Retry-After": str(wait)})

    def checked_name(wanted: str) -> str:
        """The normalised name; raises :class:`Refused` (400) for a name nobody may take."""
        name = names.normalised(wanted)
        match names.problem(name):
            case "length":
                raise Refused(400, Said.of(Code.ACCOUNT_NAME_LENGTH, min=names.MIN_LENGTH, max=names.MAX_LENGTH))
            case "characters":
                raise Refused(400, Said.of(Code.ACCOUNT_NAME_CHARACTERS))
            case "reserved":
                raise Refused(400, Said.of(Code.ACCOUNT_NAME_RESERVED, name=name))
        return name

    def checked_password(password: str, username: str) -> None:
        match password_rules.weakness(password, username):
            case "short":
                raise Refused(400, Said.of(Code.ACCOUNT_PASSWORD_SHORT, min=password_rules.MIN_LENGTH))
            case "long":
                raise Refused(400, Said.of(Code.ACCOUNT_PASSWORD_LONG, max=password_rules.MAX_LENGTH))
            case "guessable":
                raise Refused(400, Said.of(Code.ACCOUNT_PASSWORD_GUESSABLE))

    async def signed_in_as(request: Request, response: Response, account: Account) -> dict[str, Any]:
        """Start a new session (ending the one the browser held) and set its cookie."""
        user_agent = request.headers.get("user-agent", "")
        session_id = await accounts.sessions.start(account.id, user_agent, session_cookies.presented(request))
        accounts.sessions.set_cookie(request, response, session_id)
        return {"username": account.username, "csrf": session_cookies.csrf_token(session_id)}

    def name_taken(name: str) -> Refused:
        return Refused(409, Said.of(Code.ACCOUNT_NAME_TAKEN, name=name))

    # --- passwords --------------------------------------------------------------------------------

    @router.post("/signup", status_code=201)
    async def sign_up(body: PasswordSignUp, request: Request, response: Response) -> dict[str, Any]:
        """A new account with a password, signed in at once."""
        accounts.same_site(request)
        await limited(request, None)  # each costs a hash and a row: counted with the address's sign-ins
        name = checked_name(body.username)
        checked_password(body.password, name)
        if await store.look_alike_exists(name, utc(clock)):
            raise name_taken(name)
        password_hash = await accounts.hasher.hashed(body.password)
        account = await store.create(name, new_user_handle(), utc(clock), password_hash)
        if account is None:
            raise name_taken(name)
        return await signed_in_as(request, response, account)

    @router.post("/signin")
    async def sign_in(body: PasswordSignIn, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        skeleton = names.skeleton(names.normalised(body.username))
        await limited(request, skeleton)
        account, stored = await store.sign_in_facts(skeleton)
        # Unknown name or no password: a dummy hash is verified, so the answer takes the same time.
        if not await accounts.hasher.verify(body.password, stored) or account is None:
            raise Refused(401, Said.of(Code.ACCOUNT_SIGN_IN_FAILED))
        return await signed_in_as(request, response, account)

    @router.put("/password")
    async def set_password(body: NewPassword, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        checked_password(body.password, me.account.username)
        await store.set_password(me.account.id, await accounts.hasher.hashed(body.password), utc(clock))
        return await overview(me)

    @router.delete("/password")
    async def drop_password(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        try:
            await store.drop_password(me.account.id)
        except LastWayIn:
            raise Refused(409, Said.of(Code.ACCOUNT_LAST_WAY_IN)) from None
        return await overview(me)

    # --- passkeys ---------------------------------------------------------------------------------

    @router.post("/passkeys/register")
    async def passkey_register(body: PasskeyStart, request: Request) -> dict[str, Any]:
        """Start registering a passkey: for the signed-in account, or for a new one named ``username``."""
        me = await accounts.signed_in(request)
        if me is not None:
            me = await accounts.require(request, changing=True)
            existing = [key.credential_id for key in await store.passkeys_of(me.account.id)]
            user_handle, username, account_id = me.account.user_handle, me.account.username, me.account.id
            payload: dict[str, Any] = {}
        else:
            accounts.same_site(request)
            await limited(request, None)
            username = checked_name(body.username or "")
            if await store.look_alike_exists(username, utc(clock)):
                raise name_taken(username)
            user_handle, existing, account_id = new_user_handle(), [], None
            payload = {"username": username, "user_handle": user_handle}
        options, challenge = passkeys.registration_options(party(request), user_handle, username, existing)
        return {
            "handle": await ceremony("register", payload | {"challenge": challenge}, account_id),
            "options": options,
        }

    @router.post("/passkeys/register/finish")
    async def passkey_registered(body: PasskeyFinish, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        account_id, payload = await ceremony_done("register", body.handle)
        try:
            new = passkeys.verify_registration(party(request), body.credential, payload["challenge"])
        except PasskeyRefused:
            raise Refused(400, Said.of(Code.ACCOUNT_PASSKEY_FAILED)) from None
        now = utc(clock)
        if account_id is None:  # signing up
            account = await store.create(payload["username"], payload["user_handle"], now)
            if account is None:
                raise name_taken(payload["username"])
        else:
            me = await accounts.require(request, changing=True)
            if me.account.id != account_id:
                raise Refused(400, Said.of(Code.ACCOUNT_PASSKEY_EXPIRED))
            account = me.account
        label = (body.label or "").strip()  # none: the page names it by the date it was added
        key = Passkey(new.credential_id, account.id, new.public_key, new.sign_count, new.transports, label, now, None)
        if not await store.add_passkey(key):
            raise Refused(409, Said.of(Code.ACCOUNT_PASSKEY_KNOWN))
        if account_id is None:
            return await signed_in_as(request, response, account)
        return await overview(me)

    @router.post("/passkeys/signin")
    async def passkey_sign_in_start(request: Request) -> dict[str, Any]:
        accounts.same_site(request)
        await limited(request, None)
        options, challenge = passkeys.authentication_options(party(request))
        return {"handle": await ceremony("sign_in", {"challenge": challenge}, None), "options": options}

    @router.post("/passkeys/signin/finish")
    async def passkey_sign_in(body: PasskeyFinish, request: Request, response: Response) -> dict[str, Any]:
        accounts.same_site(request)
        _, payload = await ceremony_done("sign_in", body.handle)
        credential_id = passkeys.credential_id(body.credential)
        key = None if credential_id is None else await store.passkey(credential_id)
        account = None if key is None else await store.by_id(key.account_id)
        if key is None or account is None:
            raise Refused(401, Said.of(Code.ACCOUNT_PASSKEY_FAILED))
        handle = passkeys.user_handle(body.credential)
        if handle is not None and handle != account.user_handle:
            raise Refused(401, Said.of(Code.ACCOUNT_PASSKEY_FAILED))
        try:
            count = passkeys.verify_authentication(
                party(request), body.credential, payload["challenge"], key.public_key, key.sign_count
            )
        except PasskeyRefused:
            raise Refused(401, Said.of(Code.ACCOUNT_PASSKEY_FAILED)) from None
        await store.passkey_used(key.credential_id, count, utc(clock))
        return await signed_in_as(request, response, account)

    @router.delete("/passkeys/{credential_id}")
    async def drop_passkey(credential_id: str, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        try:
            dropped = await store.drop_passkey(me.account.id, credential_id[:1400])
        except LastWayIn:
            raise Refused(409, Said.of(Code.ACCOUNT_LAST_WAY_IN)) from None
        if not dropped:
            raise Refused(404, Said.of(Code.ACCOUNT_NO_PASSKEY))
        return await overview(me)

    async def ceremony(purpose: str, payload: dict[str, Any], account_id: int | None) -> str:
        handle = new_secret()
        expires = utc(clock) + timedelta(seconds=accounts.settings.ceremony_seconds)
        await store.put_challenge(digest(handle), purpose, payload, expires, account_id)
        return handle

    async def ceremony_done(purpose: str, handle: str) -> tuple[int | None, dict[str, Any]]:
        taken = await store.take_challenge(digest(handle), purpose, utc(clock))
        if taken is None:
            raise Refused(400, Said.of(Code.ACCOUNT_PASSKEY_EXPIRED))
        return taken

    # --- the account and its sessions -------------------------------------------------------------

    async def overview(me: SignedIn) -> dict[str, Any]:
        keys = await store.passkeys_of(me.account.id)
        return {
            "username": me.account.username,
            "created": _when(me.account.created_at),
            "password": await store.password_hash(me.account.id) is not None,
            "passkeys": [_passkey_facts(key) for key in keys],
            "sessions": len(await store.sessions_of(me.account.id, utc(clock))),
            "csrf": session_cookies.csrf_token(me.session_id),
        }

    @router.get("")
    async def account(request: Request) -> dict[str, Any]:
        return await overview(await accounts.require(request, changing=False))

    @router.get("/sessions")
    async def session_list(request: Request) -> list[dict[str, Any]]:
        me = await accounts.require(request, changing=False)
        return [
            {
                "id": session_cookies.handle(session),
                "created": _when(session.created_at),
                "last_seen": _when(session.last_seen),
                "user_agent": session.user_agent,
                "current": session.digest == me.session.digest,
            }
            for session in await store.sessions_of(me.account.id, utc(clock))
        ]

    @router.delete("/sessions/{handle}")
    async def end_session(handle: str, request: Request, response: Response) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        sessions = await store.sessions_of(me.account.id, utc(clock))
        chosen = [session.digest for session in sessions if session_cookies.handle(session) == handle]
        if not chosen or not await store.end_sessions(me.account.id, chosen):
            raise Refused(404, Said.of(Code.ACCOUNT_NO_SESSION))
        await accounts.live.ended(chosen)
        if me.session.digest in chosen:
            accounts.sessions.clear_cookie(request, response)
        return {"ended": len(chosen)}

    @router.delete("/sessions")
    async def end_every_session(request: Request, response: Response) -> dict[str, Any]:
        """Sign out everywhere, this device included."""
        me = await accounts.require(request, changing=True)
        every = [session.digest for session in await store.sessions_of(me.account.id, utc(clock))]
        ended = await store.end_sessions(me.account.id)
        await accounts.live.ended(every)
        accounts.sessions.clear_cookie(request, response)
        return {"ended": ended}

    @router.post("/signout")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await store.end_sessions(me.account.id, [me.session.digest])
        await accounts.live.ended([me.session.digest])
        accounts.sessions.clear_cookie(request, response)
        return {"ended": 1}

    @router.get("/data")
    async def data(request: Request, response: Response) -> dict[str, Any]:
        """Everything stored about the account, as a JSON download (no secret, no hash)."""
        me = await accounts.require(request, changing=False)
        facts = await overview(me)
        del facts["csrf"]
        response.headers["Content-Disposition"] = f'attachment; filename="chickenfoot-{me.account.id}.json"'
        return facts | {
            "sessions": await session_list(request),
            "seats": [{"table": code, "seat": seat} for code, seat in await store.seats_of(me.account.id)],
        }

    @router.delete("")
    async def delete_account(request: Request, response: Response) -> dict[str, Any]:
        """Every way in and every session go at once; finished matches keep the moves, under "deleted player"."""
        me = await accounts.require(request, changing=True)
        every = [session.digest for session in await store.sessions_of(me.account.id, utc(clock))]
        await store.delete(me.account.id, utc(clock))
        await accounts.live.ended(every)
        accounts.sessions.clear_cookie(request, response)
        return {"deleted": True}

    @router.post("/link")
    async def sign_in_by_link(body: OneTimeLink, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with an operator's one-time link (``chickenfoot account reset``)."""
        accounts.same_site(request)
        await limited(request, None)
        taken = await store.take_challenge(digest(body.link), RESET_PURPOSE, utc(clock))
        account = None if taken is None or taken[0] is None else await store.by_id(taken[0])
        if account is None:
            raise Refused(400, Said.of(Code.ACCOUNT_LINK_USED))
        return await signed_in_as(request, response, account)

    # --- seats ------------------------------------------------------------------------------------

    @router.post("/seats")
    async def keep_seat(body: GuestSeat, request: Request) -> dict[str, Any]:
        """A seat taken as a guest follows the account from now on (its credential keeps working too)."""
        me = await accounts.require(request, changing=True)
        seat = await seat_of(body.code, body.token)
        if seat is None:
            raise Refused(403, Said.of(Code.ERROR_UNKNOWN_TOKEN))
        await store.sit(body.code, seat, me.account.id)
        return {"table": body.code, "seat": seat}

    return router

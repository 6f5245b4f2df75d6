"""The accounts: what the rest of the server asks of them (who a request is signed in as, the seats that
follow them) and what the account API does (sign-up and sign-in by password, passkey or one-time link,
the ways in, the sessions, the account's data and its deletion). Every refusal is a
:class:`~chickenfoot.server.refusals.Refusal`."""

from __future__ import annotations

import hmac
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts import names, passkeys
from chickenfoot.server.accounts import passwords as password_rules
from chickenfoot.server.accounts import sessions as session_cookies
from chickenfoot.server.accounts.devices import Devices
from chickenfoot.server.accounts.live import LiveSessions
from chickenfoot.server.accounts.passkeys import NewPasskey, PasskeyRefused, RelyingParty
from chickenfoot.server.accounts.passwords import Hasher, StillWanted, wanted
from chickenfoot.server.accounts.sessions import SessionPolicy, Sessions
from chickenfoot.server.accounts.store import Account, AccountStore, LastWayIn, Passkey, Session
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus, LocalBus
from chickenfoot.server.credentials import digest, new_secret
from chickenfoot.server.http.security import origin_allowed
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage

RESET_LINK_SECONDS = 24 * 3600.0
RESET_PURPOSE = "reset"
SEAT_ELSEWHERE = "seat_elsewhere"
"""Why a device watches whose seat went to another device (``watching.reason`` in its state)."""


@dataclass(frozen=True, slots=True)
class AccountSettings:
    origin: str | None = None
    """The site's public origin (``https://host``): the passkeys' relying party. ``None``: the origin
    each request came to (fine for one host; set it behind a proxy that rewrites ``Host``)."""
    sessions: SessionPolicy = field(default_factory=SessionPolicy)
    ceremony_seconds: float = 300.0
    """How long a passkey ceremony may take between its two requests."""
    confirm_seconds: float = 600.0
    """How long after signing in (or confirming with the password or a passkey) a session may change the
    ways in or delete the account; later it must confirm again (``POST /api/account/confirm``)."""


SeatFinder = Callable[[str, str], Awaitable[int | None]]
"""The seat a table's seat credential opens (``code, credential``), or ``None``."""
SignInGate = Callable[[Account], Awaitable[None]]
"""Raises :class:`Refusal` when ``account`` may not sign in now (a suspension: server/moderation)."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    account: Account
    session: Session
    session_id: str


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A passkey ceremony between its two requests: the account it is for (``None``: signing up) and what it keeps."""

    account_id: int | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Facts:
    """What the account page shows of the account."""

    account: Account
    password: bool
    passkeys: list[Passkey]
    sessions: list[Session]


Options = dict[str, Any]
"""A ceremony's start: its ``handle`` (sent back with the browser's answer) and the WebAuthn ``options``."""


class Accounts:
    def __init__(self, storage: Storage, clock: Clock, settings: AccountSettings, bus: Bus | None = None) -> None:
        self.store = AccountStore(storage)
        self.live = LiveSessions(bus or LocalBus())
        """The table connections seated by a session, ended with it (``bus``: the cluster's)."""
        self.clock, self.settings = clock, settings
        self.sessions = Sessions(self.store, clock, settings.sessions)
        self.hasher = Hasher(clock)
        self.devices = Devices(self.store, settings.sessions.secure_cookies)
        self._reread: Callable[[str], Awaitable[None]] = nothing_to_reread
        self._gates: list[SignInGate] = []

    def tables_read_again_by(self, reread: Callable[[str], Awaitable[None]]) -> None:
        """``reread(code)`` has table ``code`` read its stored configuration again wherever it is held
        (after a deleted player's name was erased from it)."""
        self._reread = reread

    def admit_with(self, gate: SignInGate) -> None:
        """``gate`` is asked before every new session of an account (sign-in by any way, sign-up, confirmation)."""
        self._gates.append(gate)

    async def admitted(self, account: Account) -> None:
        """Raises :class:`Refusal` when a gate refuses ``account`` a new session (:meth:`admit_with`)."""
        for gate in self._gates:
            await gate(account)

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
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.ACCOUNT_NOT_SIGNED_IN))
        if changing:
            self.from_its_pages(connection, signed_in)
        return signed_in

    def from_its_pages(self, connection: HTTPConnection, me: SignedIn) -> None:
        """Refuse (403) a change asked by ``me``'s session cookie that a page of the site did not send:
        another site's ``Origin``, or no CSRF token of the session."""
        self.same_site(connection)
        token = connection.headers.get(session_cookies.CSRF_HEADER, "")
        if not hmac.compare_digest(token.encode(), session_cookies.csrf_token(me.session_id).encode()):
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ACCOUNT_CROSS_SITE))

    def same_site(self, connection: HTTPConnection) -> None:
        """Refuse (403) a request a page of another site sent: a foreign ``Origin``, or the browser says so."""
        allowed = () if self.settings.origin is None else (self.settings.origin,)
        foreign_origin = not origin_allowed(connection.scope, allowed)
        if foreign_origin or connection.headers.get("sec-fetch-site") == "cross-site":
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ACCOUNT_CROSS_SITE))

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

    async def seat_and_session(self, connection: HTTPConnection, code: str) -> tuple[int, SignedIn] | None:
        """The account's seat at table ``code`` and the session (of the account) that opens it, or ``None``."""
        signed_in = await self.signed_in(connection)
        if signed_in is None or signed_in.account.bot:  # a bot account plays through the Bot API only
            return None
        seat = await self.store.seat_at(code, signed_in.account.id)
        return None if seat is None else (seat, signed_in)

    async def watching_reason(self, connection: HTTPConnection, code: str) -> str:
        """Why a connection with no seat at table ``code`` watches: ``sign_in`` when it is signed in as
        nobody and a seat there follows an account (it may be theirs), ``seat_elsewhere`` when its
        account's seat there was handed to another device, otherwise ``no_seat``."""
        me = await self.signed_in(connection)
        if me is None:
            return "sign_in" if await self.store.any_seat_at(code) else "no_seat"
        return SEAT_ELSEWHERE if await self.store.handed_away(code, me.account.id) else "no_seat"

    async def handed_over(self, connection: HTTPConnection, code: str, seat: int) -> None:
        """``seat`` went to the device of ``connection`` by its link: the account's sessions open it no
        more (the taking device alone plays it); a seat that followed nobody follows the taker's account."""
        taker = await self.signed_in(connection)
        await self.store.handed_over(code, seat, None if taker is None or taker.account.bot else taker.account.id)

    async def reset(self, account: Account) -> str:
        """An operator's reset: every way in and session goes; a one-time sign-in link's secret comes back."""
        await self.store.remove_ways_in(account.id)
        return await self.sign_in_link(account.id, RESET_LINK_SECONDS)

    async def sign_in_link(self, account_id: int, seconds: float) -> str:
        """The secret of a one-time link that signs ``account_id`` in within ``seconds`` (``/account#link=…``):
        an operator's reset, or the one a player asks for by their confirmed e-mail address. Only its
        digest is kept."""
        link = new_secret()
        expires = utc(self.clock) + timedelta(seconds=seconds)
        await self.store.put_challenge(digest(link), RESET_PURPOSE, {}, expires, account_id)
        return link

    # --- signing up and in (the account API's; each raises Refusal) -------------------------------

    async def sign_up(self, username: str, password: str, still_wanted: StillWanted = wanted) -> Account:
        """A new account with a password (none for a client that has gone: ``still_wanted``)."""
        name = checked_name(username)
        checked_password(password, name)
        self.hasher.check_room()
        if await self.store.look_alike_exists(name, utc(self.clock)):
            raise name_taken(name)
        hashed = await self.hasher.hashed(password, still_wanted)
        account = await self.store.create(name, new_user_handle(), utc(self.clock), hashed)
        if account is None:
            raise name_taken(name)
        return account

    async def sign_in(self, skeleton: str, password: str, still_wanted: StillWanted = wanted) -> Account:
        """The account whose name has ``skeleton``, if ``password`` is its password (checked only while the
        client is there: ``still_wanted``)."""
        self.hasher.check_room()
        account, stored = await self.store.sign_in_facts(skeleton)
        # Unknown name or no password: a dummy hash is verified, so the answer takes the same time.
        if not await self.hasher.verify(password, stored, still_wanted) or account is None:
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.ACCOUNT_SIGN_IN_FAILED))
        return account

    async def sign_in_by_link(self, link: str) -> Account:
        """The account a one-time link (``chickenfoot account reset``, or sent to a confirmed address) signs in,
        spending it."""
        taken = await self.store.take_challenge(digest(link), RESET_PURPOSE, utc(self.clock))
        account = None if taken is None or taken[0] is None else await self.store.by_id(taken[0])
        if account is None:
            raise Refusal.invalid(Said.of(Code.ACCOUNT_LINK_USED))
        return account

    async def set_password(self, me: SignedIn, password: str) -> int:
        """A new password; every other session of the account ends (whoever knew the old one is out).
        How many ended."""
        checked_password(password, me.account.username)
        await self.store.set_password(me.account.id, await self.hasher.hashed(password), utc(self.clock))
        others = [session.digest for session in await self.sessions_of(me) if session.digest != me.session.digest]
        ended = await self.store.end_sessions(me.account.id, others)
        await self.live.ended(others)
        return ended

    # --- confirming it is the account's owner before the gravest changes ----------------------------

    def recently_confirmed(self, me: SignedIn) -> None:
        """Refuse (403 ``account.confirm_needed``) a session that signed in (or confirmed) longer ago than
        :attr:`AccountSettings.confirm_seconds`: a device left signed in, or a stolen cookie, cannot
        change the ways in or delete the account without the password or a passkey."""
        window = self.settings.confirm_seconds
        if (utc(self.clock) - me.session.created_at).total_seconds() > window:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ACCOUNT_CONFIRM_NEEDED, count=math.ceil(window / 60)))

    async def confirm_password(self, me: SignedIn, password: str) -> None:
        """Refuses (401) unless ``password`` is the account's (one hash either way, as signing in)."""
        if not await self.hasher.verify(password, await self.store.password_hash(me.account.id)):
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.ACCOUNT_CONFIRM_FAILED))

    async def confirm_passkey(self, me: SignedIn, handle: str, credential: dict[str, Any], party: RelyingParty) -> None:
        """Refuses (401) unless the assertion of a sign-in ceremony is by a passkey of the account."""
        if (await self.passkey_sign_in(handle, credential, party)).id != me.account.id:
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.ACCOUNT_PASSKEY_FAILED))

    async def drop_password(self, me: SignedIn) -> None:
        try:
            await self.store.drop_password(me.account.id)
        except LastWayIn:
            raise Refusal.conflict(Said.of(Code.ACCOUNT_LAST_WAY_IN)) from None

    # --- passkeys: two requests each, a ceremony between them -------------------------------------

    async def registration_options(self, me: SignedIn | None, username: str | None, party: RelyingParty) -> Options:
        """Start registering a passkey: for the signed-in account ``me``, or for a new one named ``username``."""
        if me is not None:
            existing = [key.credential_id for key in await self.store.passkeys_of(me.account.id)]
            user_handle, username, account_id = me.account.user_handle, me.account.username, me.account.id
            payload: dict[str, Any] = {}
        else:
            username = checked_name(username or "")
            if await self.store.look_alike_exists(username, utc(self.clock)):
                raise name_taken(username)
            user_handle, existing, account_id = new_user_handle(), [], None
            payload = {"username": username, "user_handle": user_handle}
        options, challenge = passkeys.registration_options(party, user_handle, username, existing)
        return {
            "handle": await self._ceremony("register", payload | {"challenge": challenge}, account_id),
            "options": options,
        }

    async def ceremony(self, purpose: str, handle: str) -> Ceremony:
        """Spend a ceremony started by :meth:`registration_options` or :meth:`sign_in_options`."""
        taken = await self.store.take_challenge(digest(handle), purpose, utc(self.clock))
        if taken is None:
            raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSKEY_EXPIRED))
        return Ceremony(*taken)

    def verified_passkey(self, ceremony: Ceremony, credential: dict[str, Any], party: RelyingParty) -> NewPasskey:
        """The passkey the browser registered, once it proves the ceremony's challenge."""
        try:
            return passkeys.verify_registration(party, credential, ceremony.payload["challenge"])
        except PasskeyRefused:
            raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSKEY_FAILED)) from None

    async def add_passkey(self, ceremony: Ceremony, me: SignedIn | None, new: NewPasskey, label: str | None) -> Account:
        """Keep a registered passkey: of the account signed up now, or of ``me`` who started the ceremony."""
        now = utc(self.clock)
        if ceremony.account_id is None:  # signing up
            account = await self.store.create(ceremony.payload["username"], ceremony.payload["user_handle"], now)
            if account is None:
                raise name_taken(ceremony.payload["username"])
        else:
            if me is None or me.account.id != ceremony.account_id:
                raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSKEY_EXPIRED))
            account = me.account
        label = (label or "").strip()  # none: the page names it by the date it was added
        key = Passkey(new.credential_id, account.id, new.public_key, new.sign_count, new.transports, label, now, None)
        if not await self.store.add_passkey(key):
            raise Refusal.conflict(Said.of(Code.ACCOUNT_PASSKEY_KNOWN))
        return account

    async def sign_in_options(self, party: RelyingParty) -> Options:
        options, challenge = passkeys.authentication_options(party)
        return {"handle": await self._ceremony("sign_in", {"challenge": challenge}, None), "options": options}

    async def passkey_sign_in(self, handle: str, credential: dict[str, Any], party: RelyingParty) -> Account:
        """The account a passkey's assertion proves, for a sign-in ceremony."""
        ceremony = await self.ceremony("sign_in", handle)
        failed = Refusal(Why.UNAUTHENTICATED, Said.of(Code.ACCOUNT_PASSKEY_FAILED))
        credential_id = passkeys.credential_id(credential)
        key = None if credential_id is None else await self.store.passkey(credential_id)
        account = None if key is None else await self.store.by_id(key.account_id)
        if key is None or account is None:
            raise failed
        handle_given = passkeys.user_handle(credential)
        if handle_given is not None and handle_given != account.user_handle:
            raise failed
        try:
            count = passkeys.verify_authentication(
                party, credential, ceremony.payload["challenge"], key.public_key, key.sign_count
            )
        except PasskeyRefused:
            raise failed from None
        await self.store.passkey_used(key.credential_id, count, utc(self.clock))
        return account

    async def drop_passkey(self, me: SignedIn, credential_id: str) -> None:
        try:
            dropped = await self.store.drop_passkey(me.account.id, credential_id[:1400])
        except LastWayIn:
            raise Refusal.conflict(Said.of(Code.ACCOUNT_LAST_WAY_IN)) from None
        if not dropped:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ACCOUNT_NO_PASSKEY))

    async def _ceremony(self, purpose: str, payload: dict[str, Any], account_id: int | None) -> str:
        handle = new_secret()
        expires = utc(self.clock) + timedelta(seconds=self.settings.ceremony_seconds)
        await self.store.put_challenge(digest(handle), purpose, payload, expires, account_id)
        return handle

    # --- the account, its sessions and seats ------------------------------------------------------

    async def facts(self, me: SignedIn) -> Facts:
        return Facts(
            me.account,
            await self.store.password_hash(me.account.id) is not None,
            await self.store.passkeys_of(me.account.id),
            await self.sessions_of(me),
        )

    async def sessions_of(self, me: SignedIn) -> list[Session]:
        """The account's live sessions, the most recently seen first."""
        return await self.store.sessions_of(me.account.id, utc(self.clock))

    async def end_session(self, me: SignedIn, handle: str) -> list[str]:
        """End the session the account's pages list under ``handle``; the digests of those ended, whose
        table connections end with them in every process."""
        chosen = [session.digest for session in await self.sessions_of(me) if session_cookies.handle(session) == handle]
        if not chosen or not await self.store.end_sessions(me.account.id, chosen):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ACCOUNT_NO_SESSION))
        await self.live.ended(chosen)
        return chosen

    async def end_every_session(self, me: SignedIn) -> int:
        """Sign out everywhere, this device included; how many sessions ended."""
        return await self.end_sessions_of(me.account.id)

    async def sign_out(self, me: SignedIn) -> None:
        await self.store.end_sessions(me.account.id, [me.session.digest])
        await self.live.ended([me.session.digest])

    async def delete(self, me: SignedIn) -> None:
        """Every way in and every session go at once; finished matches keep the moves, under "deleted
        player", and the name the player typed at each table is erased from it."""
        await self.close(me.account.id)

    async def close(self, account_id: int) -> None:
        """Delete the account, as its player does (:meth:`delete`): its player's, or an operator's closing."""
        every = [session.digest for session in await self.store.sessions_of(account_id, utc(self.clock))]
        await self.store.delete(account_id, utc(self.clock))
        await self.live.ended(every)
        await self._forget_names_at_tables(account_id)

    async def end_sessions_of(self, account_id: int) -> int:
        """End every session of the account, live in every process (an operator's suspension); how many ended."""
        every = [session.digest for session in await self.store.sessions_of(account_id, utc(self.clock))]
        ended = await self.store.end_sessions(account_id)
        await self.live.ended(every)
        return ended

    async def rename(self, account_id: int, username: str) -> bool:
        """An operator's rename (:meth:`AccountStore.rename`), and the name the player typed at each table
        erased from it, as a deletion erases it. ``False``: the name is taken, or the account is deleted."""
        if not await self.store.rename(account_id, username):
            return False
        await self._forget_names_at_tables(account_id)
        return True

    async def _forget_names_at_tables(self, account_id: int) -> None:
        for code in await self.store.forget_names(account_id):
            await self._reread(code)

    async def keep_seat(self, me: SignedIn, code: str, seat: int) -> None:
        """A seat taken as a guest follows the account from now on (its credential keeps working too)."""
        await self.store.sit(code, seat, me.account.id)


async def nothing_to_reread(_code: str) -> None:
    """No table is held anywhere (the command line's own accounts)."""


def checked_name(wanted: str) -> str:
    """The normalised name; raises :class:`Refusal` (invalid) for a name nobody may take."""
    name = names.normalised(wanted)
    match names.problem(name):
        case "length":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_NAME_LENGTH, min=names.MIN_LENGTH, max=names.MAX_LENGTH))
        case "characters":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_NAME_CHARACTERS))
        case "reserved":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_NAME_RESERVED, name=name))
    return name


def checked_password(password: str, username: str) -> None:
    """Raises :class:`Refusal` (invalid) for a password too short, too long or too easily guessed."""
    match password_rules.weakness(password, username):
        case "short":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSWORD_SHORT, min=password_rules.MIN_LENGTH))
        case "long":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSWORD_LONG, max=password_rules.MAX_LENGTH))
        case "guessable":
            raise Refusal.invalid(Said.of(Code.ACCOUNT_PASSWORD_GUESSABLE))


def name_taken(name: str) -> Refusal:
    return Refusal.conflict(Said.of(Code.ACCOUNT_NAME_TAKEN, name=name))


async def reset_account(database_url: str | None, username: str, clock: Clock) -> str | None:
    """An operator's reset of ``username`` (:meth:`Accounts.reset`): the link's secret, or ``None`` (no such name)."""
    from chickenfoot.server.accounts.names import normalised, skeleton
    from chickenfoot.server.storage import default_database_url

    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        accounts = Accounts(storage, clock, AccountSettings())
        account = await accounts.store.by_skeleton(skeleton(normalised(username)))
        return None if account is None else await accounts.reset(account)
    finally:
        await storage.close()


def new_user_handle() -> str:
    """A WebAuthn user handle: 32 random bytes, base64url (it names nobody)."""
    return secrets.token_urlsafe(32)

"""Sessions: a random id in a ``HttpOnly``, ``SameSite=Lax`` cookie, stored only as its SHA-256 digest.

A session ends when it has not been seen for :attr:`SessionPolicy.idle_seconds`, or at the latest
:attr:`SessionPolicy.absolute_seconds` after sign-in, or when the player ends it (one device, or all).
Signing in always makes a new id and deletes the one the browser held: an id planted before sign-in
(session fixation) never becomes a signed-in session.

Cookie-authenticated requests that change something carry the session's CSRF token in the
``X-CSRF-Token`` header: a digest of the session id, which a page of another site cannot read.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from starlette.requests import HTTPConnection
from starlette.responses import Response

from chickenfoot.server.accounts.store import AccountStore, Session
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.http.security import SESSION_COOKIE

COOKIE = SESSION_COOKIE
CSRF_HEADER = "x-csrf-token"
MAX_ID_LENGTH = 100
USER_AGENT_LENGTH = 120


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    idle_seconds: float = 14 * 24 * 3600
    absolute_seconds: float = 60 * 24 * 3600
    touch_seconds: float = 300
    """``last_seen`` is written at most this often per session (one write per request would be a lot)."""
    secure_cookies: bool = False
    """Mark the cookie ``Secure`` even when the request arrived over plain HTTP (a TLS-terminating proxy)."""


def digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_token(session_id: str) -> str:
    return hmac.new(session_id.encode("utf-8", "surrogatepass"), b"csrf", hashlib.sha256).hexdigest()


def handle(session: Session) -> str:
    """The name under which the account's own pages list a session (not enough to use it)."""
    return session.digest[:16]


def presented(connection: HTTPConnection) -> str | None:
    """The session id the browser sent, if it could be one."""
    value = connection.cookies.get(COOKIE)
    return value if value and len(value) <= MAX_ID_LENGTH else None


class Sessions:
    def __init__(self, store: AccountStore, clock: Clock, policy: SessionPolicy) -> None:
        self.store, self.clock, self.policy = store, clock, policy

    async def start(self, account_id: int, user_agent: str, replacing: str | None) -> str:
        """A new session id for ``account_id``; the browser's earlier id (``replacing``) ends."""
        session_id = secrets.token_urlsafe(32)
        now = utc(self.clock)
        session = Session(
            digest(session_id),
            account_id,
            now,
            now,
            now + timedelta(seconds=self.policy.idle_seconds),
            now + timedelta(seconds=self.policy.absolute_seconds),
            " ".join(user_agent.split())[:USER_AGENT_LENGTH],
        )
        await self.store.add_session(session, None if replacing is None else digest(replacing))
        return session_id

    async def find(self, session_id: str | None) -> Session | None:
        """The live session of this id (its idle expiry moved on), or ``None``."""
        if session_id is None:
            return None
        session = await self.store.session(digest(session_id))
        now = utc(self.clock)
        if session is None or min(session.expires_at, session.idle_expires_at) <= now:
            return None
        if (now - session.last_seen).total_seconds() >= self.policy.touch_seconds:
            await self.store.touch_session(session.digest, now, now + timedelta(seconds=self.policy.idle_seconds))
        return session

    def set_cookie(self, connection: HTTPConnection, response: Response, session_id: str) -> None:
        response.set_cookie(
            COOKIE,
            session_id,
            max_age=int(self.policy.absolute_seconds),
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.policy.secure_cookies or connection.url.scheme in ("https", "wss"),
        )

    def clear_cookie(self, connection: HTTPConnection, response: Response) -> None:
        response.delete_cookie(
            COOKIE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.policy.secure_cookies or connection.url.scheme in ("https", "wss"),
        )

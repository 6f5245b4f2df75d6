"""Devices an account has signed in from, so that a guesser cannot lock its owner out.

The limit of password sign-ins at one name (``sign_ins_per_name``) stops a guesser spread over many
addresses; counted alone it would stop the name's owner as well. As Lichess and GitHub do, a sign-in
from a device that has signed in to the account before is not counted against the name: each sign-in
leaves a long-lived random cookie on the device (``HttpOnly``, sent to the account API only) whose
digest is kept with the account (an ``account_challenges`` row of purpose ``device``, ending with it).
A guesser has no such cookie for the account it aims at, and the cookie of an account of its own
opens no other name. A passkey's sign-in is never counted against the name either; the limit per
address still counts every attempt, the owner's too.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from starlette.requests import HTTPConnection
from starlette.responses import Response

from chickenfoot.server.accounts.schema import DEVICE_PURPOSE
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.credentials import digest, new_secret

COOKIE = "chickenfoot_device"
PATH = "/api/account"
KEEP_DAYS = 365
"""How long a device stays known after it last signed in."""
MAX_LENGTH = 100


def presented(connection: HTTPConnection) -> str | None:
    """The device cookie the browser sent, if it could be one."""
    value = connection.cookies.get(COOKIE)
    return value if value and len(value) <= MAX_LENGTH else None


class Devices:
    def __init__(self, store: AccountStore, secure_cookies: bool) -> None:
        self.store, self.secure_cookies = store, secure_cookies

    async def known(self, connection: HTTPConnection, name_skeleton: str, now: datetime) -> bool:
        """Whether the request comes from a device that has signed in to the account named ``name_skeleton``."""
        device = presented(connection)
        return device is not None and await self.store.known_device(digest(device), name_skeleton, now)

    async def remember(self, connection: HTTPConnection, response: Response, account_id: int, now: datetime) -> None:
        """The device signed in to ``account_id``: a new cookie for it, known for :data:`KEEP_DAYS` (its
        earlier one, of whichever account, is forgotten: one row a browser)."""
        if (earlier := presented(connection)) is not None:
            await self.store.take_challenge(digest(earlier), DEVICE_PURPOSE, now)
        device = new_secret()
        expires = now + timedelta(days=KEEP_DAYS)
        await self.store.put_challenge(digest(device), DEVICE_PURPOSE, {}, expires, account_id)
        response.set_cookie(
            COOKIE,
            device,
            max_age=KEEP_DAYS * 24 * 3600,
            path=PATH,
            httponly=True,
            samesite="strict",
            secure=self.secure_cookies or connection.url.scheme == "https",
        )

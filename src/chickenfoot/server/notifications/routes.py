"""The notifications' HTTP API under ``/api/notifications``, the e-mails' unsubscribe page and the request
for a sign-in link by e-mail (``/api/account/recover``).

The list, the choices, the devices and the address are the signed-in account's (changes carry the
session's CSRF token, as every change of an account does). Three requests need no session: opening a
confirmation link (the link is the proof), asking for a sign-in link (answered alike whether the
account exists or not, limited per address and per name), and the one-click unsubscribe of RFC 8058,
which a mail provider posts from its own servers. A page follows its account's list live on
``/api/notifications/events`` (server-sent events: "something changed", then the page asks again).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, StreamingResponse
from pydantic import BaseModel, Field

from chickenfoot.i18n import DEFAULT, LANGUAGES
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.clock import Clock, woken
from chickenfoot.server.credentials import MAX_SECRET_LENGTH
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.notices import TABLE_CODE, Kind
from chickenfoot.server.notifications.preferences import MINUTES_A_DAY, Channel
from chickenfoot.server.notifications.service import Notifications, channel
from chickenfoot.server.refusals import Refusal, Why

PREFIX = "/api/notifications"
MAX_STREAMS = 4
"""Pages of one account following its list live, in one process (a fifth is refused: it polls)."""
KEEP_ALIVE_SECONDS = 25.0
"""A comment line this often keeps a quiet stream open through proxies."""


class ReadBody(BaseModel):
    ids: list[int] | None = Field(default=None, max_length=100)
    """These notices; neither ``ids`` nor ``table``: all of them."""
    table: str | None = Field(default=None, max_length=16, pattern=TABLE_CODE.pattern)
    """The notices of this table (its page was opened)."""


class LanguageBody(BaseModel):
    language: str = Field(max_length=8)


class ChoicesBody(BaseModel):
    choices: dict[Kind, list[Channel]] = Field(max_length=len(Kind))
    quiet_from: int | None = Field(default=None, ge=0, lt=MINUTES_A_DAY)
    quiet_until: int | None = Field(default=None, ge=0, lt=MINUTES_A_DAY)
    time_zone: str = Field(default="UTC", max_length=64)


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=128)
    auth: str = Field(max_length=64)


class SubscriptionBody(BaseModel):
    """A ``PushSubscription`` as the browser's ``toJSON()`` gives it."""

    endpoint: str = Field(max_length=1024)
    keys: SubscriptionKeys


class EndpointBody(BaseModel):
    endpoint: str = Field(max_length=1024)


class AddressBody(BaseModel):
    address: str = Field(max_length=320)


class LinkBody(BaseModel):
    link: str = Field(max_length=MAX_SECRET_LENGTH)


class RecoverBody(BaseModel):
    username: str = Field(max_length=64)


def notifications_router(notifications: Notifications, accounts: Accounts, clock: Clock, web_dir: Path) -> APIRouter:
    router = APIRouter()
    router.include_router(list_routes(notifications, accounts, clock))
    router.include_router(choice_routes(notifications, accounts))
    router.include_router(mail_routes(notifications, accounts, web_dir))
    return router


def list_routes(notifications: Notifications, accounts: Accounts, clock: Clock) -> APIRouter:
    router = APIRouter(prefix=PREFIX)
    streams = Counter[int]()

    @router.get("")
    async def listing(request: Request, lang: str = DEFAULT) -> dict[str, Any]:
        """The unread count and the newest notices, worded in ``lang`` (the page's language)."""
        me = await accounts.require(request, changing=False)
        return await notifications.listing(me.account.id, lang if lang in LANGUAGES else DEFAULT)

    @router.post("/read")
    async def read(body: ReadBody, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        if body.table is not None:
            await notifications.seen(me.account.id, body.table)
            return {"table": body.table}
        return {"read": await notifications.mark_read(me.account.id, body.ids)}

    @router.get("/events")
    async def events(request: Request) -> StreamingResponse:
        """Server-sent events: a ``data`` line whenever the account's list changes (in any process)."""
        me = await accounts.require(request, changing=False)
        account_id = me.account.id
        if streams[account_id] >= MAX_STREAMS:
            raise Refusal(Why.TOO_MANY, Said.of(Code.NOTIFY_TOO_MANY_STREAMS))
        changed, ended = asyncio.Event(), asyncio.Event()
        heard: list[dict[str, Any]] = []

        def hear(message: dict[str, Any]) -> None:
            if len(heard) < 8:  # what changed is told again by the list itself: a few are enough
                heard.append(message)
            changed.set()

        def end() -> None:
            ended.set()
            changed.set()

        async def lines() -> AsyncIterator[bytes]:
            unsubscribe = notifications.bus.subscribe(channel(account_id), hear)
            unwatch = accounts.live.watch(me.session.digest, end)  # signed out: the stream ends
            streams[account_id] += 1
            try:
                yield b"retry: 10000\n\n"
                while not ended.is_set():
                    if not await woken(changed, clock, KEEP_ALIVE_SECONDS):
                        yield b": still here\n\n"
                        continue
                    changed.clear()
                    while heard and not ended.is_set():
                        yield f"data: {json.dumps(heard.pop(0))}\n\n".encode()
            finally:
                unsubscribe()
                unwatch()
                streams[account_id] -= 1

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(lines(), media_type="text/event-stream", headers=headers)

    return router


def choice_routes(notifications: Notifications, accounts: Accounts) -> APIRouter:
    router = APIRouter(prefix=PREFIX)

    @router.get("/settings")
    async def settings(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=False)
        return await notifications.settings_of(me.account.id)

    @router.put("/settings")
    async def choose(body: ChoicesBody, request: Request) -> dict[str, Any]:
        """Which kinds go where, the quiet hours (both ends, or neither) and the time zone they are in."""
        me = await accounts.require(request, changing=True)
        chosen = {kind: frozenset(channels) for kind, channels in body.choices.items()}
        quiet = None if body.quiet_from is None or body.quiet_until is None else (body.quiet_from, body.quiet_until)
        await notifications.choose(me.account.id, chosen, quiet, body.time_zone)
        return await notifications.settings_of(me.account.id)

    @router.post("/language")
    async def language(body: LanguageBody, request: Request) -> dict[str, Any]:
        """Push and e-mail are written in the language of the player's pages from now on."""
        me = await accounts.require(request, changing=True)
        await notifications.speak(me.account.id, body.language)
        return {"language": body.language}

    @router.post("/subscriptions", status_code=201)
    async def subscribe(body: SubscriptionBody, request: Request) -> dict[str, Any]:
        """This device gets the account's push (the browser's subscription, at a known push service)."""
        me = await accounts.require(request, changing=True)
        await notifications.subscribe(me.account.id, body.endpoint, body.keys.p256dh, body.keys.auth)
        return {"subscribed": True}

    @router.delete("/subscriptions")
    async def unsubscribe(body: EndpointBody, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await notifications.unsubscribe_device(me.account.id, body.endpoint)
        return {"subscribed": False}

    return router


def mail_routes(notifications: Notifications, accounts: Accounts, web_dir: Path) -> APIRouter:
    router = APIRouter()

    @router.post(f"{PREFIX}/email", status_code=202)
    async def ask_confirmation(body: AddressBody, request: Request) -> dict[str, Any]:
        """Send a confirmation link to the address; e-mails go there once it is opened."""
        me = await accounts.require(request, changing=True)
        await notifications.ask_confirmation(me.account.id, body.address, client_address(request))
        return await notifications.settings_of(me.account.id)

    @router.delete(f"{PREFIX}/email")
    async def remove_address(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await notifications.remove_address(me.account.id)
        return await notifications.settings_of(me.account.id)

    @router.post(f"{PREFIX}/email/confirm")
    async def confirm(body: LinkBody, request: Request) -> dict[str, Any]:
        """Open a confirmation link (``/account#confirm=…``): the link itself proves the mailbox."""
        accounts.same_site(request)
        await notifications.confirm(body.link)
        return {"confirmed": True}

    @router.post(f"{PREFIX}/unsubscribe/{{token}}")
    async def unsubscribe(token: str) -> dict[str, Any]:
        """One click (RFC 8058, ``List-Unsubscribe-Post``): no more e-mail. No session, no origin: a mail
        provider posts it from its own servers; the token, signed by the server, names the account."""
        await notifications.unsubscribe(token[:64])
        return {"unsubscribed": True}

    @router.get("/unsubscribe/{token}", include_in_schema=False)
    async def unsubscribe_page(token: str, request: Request) -> HTMLResponse:
        """The page an e-mail's unsubscribe line opens: one button (a link alone unsubscribes nobody:
        mail scanners open links)."""
        return serve_page(web_dir, "unsubscribe", request)

    @router.post("/api/account/recover", status_code=202)
    async def recover(body: RecoverBody, request: Request) -> dict[str, Any]:
        """A sign-in link to the account's confirmed address; the same answer whether or not there is one."""
        accounts.same_site(request)
        await notifications.recover(body.username, client_address(request))
        return {"sent": True}

    return router

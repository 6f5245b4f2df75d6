"""Profiles (``/u/NAME``) and "My matches" (``/matches``): pages and the JSON they read.

A profile is public: member since, finished matches played and won by player count, a page of
recent finished matches (players, result, replay and review) and the accuracy of the latest
reviewed ones. "My matches" is the signed-in player's own list, unfinished matches included, each
with its way back to the table. Both read :mod:`chickenfoot.server.history.service`; what they answer is
kept for a few seconds per page, and a request that must first replay matches not yet recorded
(:meth:`~chickenfoot.server.history.service.MatchHistory.backfill`) is limited per address, like a
replay built.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.names import normalised, problem, skeleton
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.accounts.store import Account
from chickenfoot.server.history.service import BACKFILL, MatchHistory
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.refusals import Refusal, Why

MAX_PAGE = 1000
"""Pages past this are not served (a history that long is read through the data download)."""


def profiles_router(history: MatchHistory, accounts: Accounts, limits: RateLimiter, web_dir: Path) -> APIRouter:
    router = APIRouter()

    async def player(name: str) -> Account | None:
        wanted = normalised(name)[:64]
        if problem(wanted) not in (None, "reserved"):
            return None
        return await accounts.store.by_skeleton(skeleton(wanted))

    async def built(key: str, request: Request, account: Account, build: Callable[[], Awaitable[Any]]) -> Response:
        """The page kept under ``key``, or built now (matches not yet recorded first, limited per address)."""
        answer = history.kept.get(key)
        if answer is None:
            await limits.check("profile", client_address(request))
            await history.backfill(account.id, BACKFILL)
            generation = history.kept.generation
            answer = await asyncio.to_thread(orjson.dumps, await build())
            history.kept.keep(key, answer, generation)
        return Response(answer, media_type="application/json", headers={"Cache-Control": "no-store"})

    @router.get("/u/{name}", include_in_schema=False)
    async def profile_page(name: str, request: Request) -> HTMLResponse:
        """The profile page; a 404 for a name nobody has (the page then says so in its reader's language)."""
        return serve_page(web_dir, "profile", request, 200 if await player(name) is not None else 404)

    @router.get("/matches", include_in_schema=False)
    async def matches_page(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "matches", request)

    @router.get("/api/players/{name}")
    async def profile(name: str, request: Request, page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
        """A player's public profile and a page of their finished matches."""
        account = await player(name)
        if account is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.PROFILE_UNKNOWN, name=quoted(name[:40])))
        return await built(f"profile:{account.id}:{page}", request, account, lambda: history.profile(account, page))

    @router.get("/api/matches")
    async def my_matches(request: Request, page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
        """The signed-in player's matches, unfinished ones included (401 for a guest)."""
        me = (await accounts.require(request, changing=False)).account
        return await built(f"matches:{me.id}:{page}", request, me, lambda: history.own_matches(me, page))

    return router

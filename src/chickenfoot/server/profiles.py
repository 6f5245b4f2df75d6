"""Profiles (``/u/NAME``) and "My matches" (``/matches``): pages and the JSON they read.

A profile is public: member since, finished matches played and won by player count, a page of
recent finished matches (players, result, replay and review) and the accuracy of the latest
reviewed ones. "My matches" is the signed-in player's own list, unfinished matches included, each
with its way back to the table. Both read :mod:`chickenfoot.server.history`; what they answer is
kept for a few seconds per page, and a request that must first replay matches not yet recorded
(:meth:`MatchHistory.backfill`) is limited per address, like a replay built.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.names import normalised, problem, skeleton
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.accounts.store import Account
from chickenfoot.server.clock import Clock
from chickenfoot.server.history import MatchHistory, SeatAt
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.refusals import Refusal, Why

PAGE_SIZE = 10
"""Matches per page."""
MAX_PAGE = 1000
"""Pages past this are not served (a history that long is read through the data download)."""
BACKFILL = 5
"""Matches not yet recorded that one request replays at most (the next request does the next ones)."""
CHART_MATCHES = 30
"""Reviewed matches in a profile's accuracy chart."""
KEEP_SECONDS = 10.0
"""How long an answer is kept: a flood of one page costs one build per this many seconds."""
KEEP_ANSWERS = 512


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat(timespec="seconds")


def listed(entry: SeatAt, accounts_at: dict[int, str | None]) -> dict[str, Any]:
    """One match of a history: its players by their public names only, the seat's result and links."""
    players = []
    for s, seat in enumerate(entry.config.seats):
        deleted = s in accounts_at and accounts_at[s] is None
        players.append(
            {
                "seat": s,
                "name": None if deleted else seat.name,
                "bot": seat.bot if seat.kind == "bot" else None,
                "account": accounts_at.get(s),
                "deleted": deleted,
            }
        )
    links = (
        {"replay": f"/r/{entry.code}", "review": f"/r/{entry.code}#review"}
        if entry.over
        else {"return": f"/t/{entry.code}"}
    )
    return {
        "code": entry.code,
        "seat": entry.seat,
        "created_at": iso(entry.created_at),
        "finished_at": iso(entry.finished_at),
        "over": entry.over,
        "result": None if entry.won is None else ("won" if entry.won else "lost"),
        "accuracy": entry.accuracy,
        "players": players,
        "links": links,
    }


class Answers:
    """Built answers by key, each kept for ``KEEP_SECONDS`` (the oldest dropped past ``KEEP_ANSWERS``)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        kept = self._kept.get(key)
        if kept is None or kept[0] <= self.clock.monotonic():
            return None
        return kept[1]

    def keep(self, key: str, built: bytes) -> None:
        self._kept[key] = (self.clock.monotonic() + KEEP_SECONDS, built)
        self._kept.move_to_end(key)
        while len(self._kept) > KEEP_ANSWERS:
            self._kept.popitem(last=False)


def profiles_router(
    history: MatchHistory, accounts: Accounts, limits: RateLimiter, clock: Clock, web_dir: Path
) -> APIRouter:
    router = APIRouter()
    answers = Answers(clock)

    async def player(name: str) -> Account | None:
        wanted = normalised(name)[:64]
        if problem(wanted) not in (None, "reserved"):
            return None
        return await accounts.store.by_skeleton(skeleton(wanted))

    def page_file(name: str) -> Path:
        page = web_dir / name
        if not page.is_file():
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_PAGE_MISSING))
        return page

    @router.get("/u/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        """The profile page; a 404 for a name nobody has (the page then says so in its reader's language)."""
        page = page_file("profile.html")
        return FileResponse(page, status_code=200 if await player(name) is not None else 404)

    @router.get("/matches", include_in_schema=False)
    async def matches_page() -> FileResponse:
        return FileResponse(page_file("matches.html"))

    async def page_of(account: Account, *, finished_only: bool, page: int) -> dict[str, Any]:
        entries, total = await history.matches(
            account.id, finished_only=finished_only, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
        names = await history.names(entry.code for entry in entries)
        return {
            "page": page,
            "pages": max(1, -(-total // PAGE_SIZE)),
            "total": total,
            "matches": [listed(entry, names.get(entry.code, {})) for entry in entries],
        }

    Build = Callable[[], Awaitable[dict[str, Any]]]

    async def built(key: str, request: Request, account: Account, build: Build) -> Response:
        """The answer kept under ``key``, or built now (matches not yet recorded first, limited per address)."""
        answer = answers.get(key)
        if answer is None:
            await limits.check("profile", client_address(request))
            await history.backfill(account.id, BACKFILL)
            facts = await build()
            answer = await asyncio.to_thread(orjson.dumps, facts)
            answers.keep(key, answer)
        return Response(answer, media_type="application/json", headers={"Cache-Control": "no-store"})

    @router.get("/api/players/{name}")
    async def profile(name: str, request: Request, page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
        """A player's public profile and a page of their finished matches."""
        account = await player(name)
        if account is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.PROFILE_UNKNOWN, name=quoted(name[:40])))

        async def build() -> dict[str, Any]:
            tallies = await history.tallies(account.id)
            chart = await history.accuracy(account.id, CHART_MATCHES)
            return {
                "username": account.username,
                "bot": account.bot,
                "member_since": iso(account.created_at),
                "played": sum(t.played for t in tallies),
                "won": sum(t.won for t in tallies),
                "by_players": [{"players": t.players, "played": t.played, "won": t.won} for t in tallies],
                "accuracy": [{"code": code, "at": iso(at), "accuracy": value} for code, at, value in chart],
            } | await page_of(account, finished_only=True, page=page)

        return await built(f"profile:{account.id}:{page}", request, account, build)

    @router.get("/api/matches")
    async def my_matches(request: Request, page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
        """The signed-in player's matches, unfinished ones included (401 for a guest)."""
        me = (await accounts.require(request, changing=False)).account

        async def build() -> dict[str, Any]:
            return {"username": me.username} | await page_of(me, finished_only=False, page=page)

        return await built(f"matches:{me.id}:{page}", request, me, build)

    return router

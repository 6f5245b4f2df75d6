"""The ratings' HTTP API: a table's rated status and changes, a player's history and rank, the
leaderboards, and the leaderboard's page.

A player's ratings and a leaderboard are kept for a few seconds once built (:class:`Kept`), and each
one built is counted per address as a profile is (``profiles``): a flood of them costs a build per page
per few seconds, and each address no more than its limit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.names import skeleton
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.http.tables import TableLookup
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import FAMILIES, Family, family_of
from chickenfoot.server.ratings.service import ACTIVE_DAYS, Ratings
from chickenfoot.server.refusals import Refusal, Why

LEADERBOARD_SIZE = 50


def bots_json(family: Family) -> list[dict[str, Any]]:
    return [{"level": level} | rating.wire() for level, rating in LEVEL_RATINGS[family].items()]


def checked_family(family: str) -> Family:
    for known in FAMILIES:
        if family == known:
            return known
    raise Refusal(Why.NOT_FOUND, Said.of(Code.RATING_NO_FAMILY, family=quoted(family[:8])))


def ratings_router(
    ratings: Ratings, accounts: Accounts, get_table: TableLookup, limits: RateLimiter, web_dir: Path
) -> APIRouter:
    router = APIRouter()

    async def built(key: str, request: Request, build: Callable[[], Awaitable[Any]]) -> Response:
        """The answer kept under ``key``, or built now (counted per address)."""
        answer = ratings.kept.get(key)
        if answer is None:
            await limits.check("profile", client_address(request))
            generation = ratings.kept.generation
            answer = orjson.dumps(await build(), option=orjson.OPT_NON_STR_KEYS)  # the families are StrEnums
            ratings.kept.keep(key, answer, generation)
        return Response(answer, media_type="application/json", headers={"Cache-Control": "no-store"})

    @router.get("/api/ratings/tables/{code}")
    async def table_ratings(code: str) -> dict[str, Any]:
        """Whether the table is rated, its family, and its players' rating changes once its match is rated."""
        table = await get_table(code)
        config = table.config
        changes = await ratings.store.changes(table.code) if config.rated else []
        return {"rated": config.rated, "family": family_of(len(config.seats)), "changes": [c.wire() for c in changes]}

    @router.get("/api/ratings/{name}")
    async def player(name: str, request: Request) -> Response:
        """A player's rating, rank and history in each family."""
        wanted = skeleton(name[:64])
        return await built(f"player:{wanted}", request, lambda: player_ratings(wanted, name))

    async def player_ratings(wanted: str, name: str) -> dict[str, Any]:
        account = await accounts.store.by_skeleton(wanted)
        if account is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.RATING_NO_PLAYER, name=quoted(name[:32])))
        families = {}
        for family in FAMILIES:
            rating, rank, history = await ratings.standing(account.id, family)
            families[family] = rating.wire() | {
                "rank": rank,
                "history": [
                    {
                        "at": point.at.isoformat(),
                        "before": point.before.shown,
                        "rating": point.rating.shown,
                        "table": point.table_code,
                    }
                    for point in history
                ],
            }
        return {"username": account.username, "active_days": ACTIVE_DAYS, "families": families}

    @router.get("/api/leaderboard/{family}")
    async def leaderboard(
        request: Request, family: str, limit: int = Query(default=LEADERBOARD_SIZE, ge=1, le=100)
    ) -> Response:
        """The best established players active in the last ``active_days`` days, and the bot levels."""
        known = checked_family(family)
        return await built(f"leaderboard:{known}:{limit}", request, lambda: leaderboard_of(known, limit))

    async def leaderboard_of(known: Family, limit: int) -> dict[str, Any]:
        rows = await ratings.store.leaderboard(known, ratings.active_since(), limit)
        players = [
            {"rank": place, "username": row.username, "bot": row.bot}
            | {"last_played": row.last_played.isoformat(), "form": list(row.form)}
            | row.rating.wire()
            for place, row in enumerate(rows, 1)
        ]
        return {"family": known, "active_days": ACTIVE_DAYS, "players": players, "bots": bots_json(known)}

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "leaderboard", request)

    return router

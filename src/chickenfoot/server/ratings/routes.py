"""The ratings' HTTP API: a table's rated status and changes, a player's history and rank, the
leaderboards; and who may sit at a rated table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.names import skeleton
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import FAMILIES, Family, Rating, family_of
from chickenfoot.server.ratings.rated import why_not_rated
from chickenfoot.server.ratings.service import ACTIVE_DAYS, Ratings
from chickenfoot.server.refusal import Refused
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.config import TableConfig

LEADERBOARD_SIZE = 50


async def make_rated(accounts: Accounts, connection: HTTPConnection, config: TableConfig) -> None:
    """Mark a new table rated; refuses (400 or 403) a table that cannot be, or a creator without an account."""
    if (why := why_not_rated(config.rules, config.seats)) is not None:
        raise Refused(400, why)
    if await accounts.signed_in(connection) is None:
        raise Refused(403, Said.of(Code.RATING_SIGN_IN))
    config.rated = True


async def admit(accounts: Accounts, connection: HTTPConnection, config: TableConfig) -> None:
    """Refuse (403) a guest a seat at a rated table: every person there plays as an account."""
    if config.rated and await accounts.signed_in(connection) is None:
        raise Refused(403, Said.of(Code.RATING_SIGN_IN))


def rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "rating": rating.shown,
        "provisional": rating.provisional,
        "text": rating.text,
        "matches": rating.matches,
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
    }


def bots_json(family: Family) -> list[dict[str, Any]]:
    return [{"level": level} | rating_json(rating) for level, rating in LEVEL_RATINGS[family].items()]


def checked_family(family: str) -> Family:
    for known in FAMILIES:
        if family == known:
            return known
    raise Refused(404, Said.of(Code.RATING_NO_FAMILY, family=quoted(family[:8])))


def ratings_router(
    ratings: Ratings, accounts: Accounts, get_table: Callable[[str], Awaitable[Table]], web_dir: Path
) -> APIRouter:
    """``get_table(code)``: table ``code`` (refusing 404 when there is none)."""
    router = APIRouter()
    store = ratings.store

    @router.get("/api/ratings/tables/{code}")
    async def table_ratings(code: str) -> dict[str, Any]:
        """Whether the table is rated, its family, and its players' rating changes once its match is rated."""
        table = await get_table(code)
        config = table.config
        family = family_of(len(config.seats))
        changes = await store.changes(table.code) if config.rated else []
        return {"rated": config.rated, "family": family, "changes": [change.wire() for change in changes]}

    @router.get("/api/ratings/{name}")
    async def player(name: str) -> dict[str, Any]:
        """A player's rating, rank and history in each family."""
        account = await accounts.store.by_skeleton(skeleton(name[:64]))
        if account is None:
            raise Refused(404, Said.of(Code.RATING_NO_PLAYER, name=quoted(name[:32])))
        since = ratings.active_since()
        families = {}
        for family in FAMILIES:
            history = await store.history(account.id, family)
            families[family] = rating_json(await store.of(account.id, family)) | {
                "rank": await store.rank(account.id, family, since),
                "history": [
                    {"at": point.at.isoformat(), "rating": point.rating.shown, "table": point.table_code}
                    for point in history
                ],
            }
        return {"username": account.username, "active_days": ACTIVE_DAYS, "families": families}

    @router.get("/api/leaderboard/{family}")
    async def leaderboard(family: str, limit: int = Query(default=LEADERBOARD_SIZE, ge=1, le=100)) -> dict[str, Any]:
        """The best established players active in the last ``active_days`` days, and the bot levels."""
        known = checked_family(family)
        rows = await store.leaderboard(known, ratings.active_since(), limit)
        return {
            "family": known,
            "active_days": ACTIVE_DAYS,
            "players": [
                {
                    "rank": place,
                    "username": row.username,
                    "bot": row.bot,
                    "last_played": row.last_played.isoformat(),
                    "form": list(row.form),
                }
                | rating_json(row.rating)
                for place, row in enumerate(rows, 1)
            ],
            "bots": bots_json(known),
        }

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        page = web_dir / "leaderboard.html"
        if not page.is_file():
            raise Refused(404, Said.of(Code.ERROR_PAGE_MISSING))
        return FileResponse(page)

    return router

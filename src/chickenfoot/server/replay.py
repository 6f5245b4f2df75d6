"""Replays and reviews of finished matches: the ``/r/CODE`` page and the endpoints it reads.

Every position is computed here by the engine, replaying the match record; hands and boneyard are
served face up only once the match is over (403 before). Nothing here is a rule of the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from chickenfoot.errors import quoted
from chickenfoot.i18n import DEFAULT, render, seat_names
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.review import Review
from chickenfoot.server.refusal import Refused
from chickenfoot.server.replay_frames import ReplayBusy, ReplayFrames, RoundJob
from chickenfoot.server.review_worker import ReviewWorker
from chickenfoot.server.table.actor import Table

TableGetter = Callable[[str], Awaitable[Table | None]]
DeletedSeats = Callable[[str], Awaitable[list[int]]]
"""The seats of a table whose account has been deleted since: their names are not served ("deleted player")."""
Throttle = Callable[[Request], Awaitable[tuple[Said, int] | None]]
"""The refusal, if any, of one more uncached replay for the request's address, and seconds to wait."""
FINISHED = "public, max-age=3600"
"""A finished match never changes: browsers and proxies keep its replay, then revalidate by ``ETag``."""


def overview(table: Table) -> dict[str, Any]:
    match = table.match
    seats = table.config.seats
    return {
        "code": table.code,
        "rules": match.rules.to_dict(),
        "players": match.players,
        "names": [seat.name for seat in seats],
        "kinds": [seat.kind for seat in seats],
        "bots": table.config.bot_levels(),
        "bot_accounts": [seat.bot_account for seat in seats],
        "rounds": [
            {"round": n, "start_double": r.start_double, "moves": len(r.history), "points": r.points()}
            for n, r in enumerate(match.rounds, start=1)
        ],
        "totals": match.totals(),
        "winners": match.winners(),
        "explanation": match.explain_winner(),
    }


def human_seats(table: Table) -> list[int]:
    return [s for s, seat in enumerate(table.config.seats) if seat.kind == "human"]


def finished_answer(built: bytes) -> Response:
    return Response(built, media_type="application/json", headers={"Cache-Control": FINISHED})


def unchanged(request: Request, etag: str) -> bool:
    """Whether the client's copy (``If-None-Match``) is the one named ``etag``."""
    wanted = request.headers.get("if-none-match", "")
    return any(tag.strip().removeprefix("W/") in (etag, "*") for tag in wanted.split(","))


def replay_router(
    get_table: TableGetter,
    reviews: ReviewWorker,
    frames: ReplayFrames,
    throttle: Throttle,
    web_dir: Path,
    deleted_seats: DeletedSeats,
) -> APIRouter:
    router = APIRouter()

    async def finished(code: str) -> Table:
        table = await get_table(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
        if not table.match.is_over():
            raise Refused(403, Said.of(Code.ERROR_REPLAY_NOT_OVER))
        return table

    @router.get("/r/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        page = web_dir / "replay.html"
        if not page.is_file():
            raise Refused(404, Said.of(Code.ERROR_PAGE_MISSING))
        return FileResponse(page)

    async def allowed(request: Request) -> None:
        """Raises :class:`Refused` (429) when the request's address has built too much lately."""
        if (refusal := await throttle(request)) is not None:
            reason, wait = refusal
            raise Refused(429, reason, {"Retry-After": str(wait)})

    async def kept(key: str, request: Request, write: Callable[[], bytes]) -> Response:
        """What a finished match's ``key`` answers: written once (its writing limited per address), then kept."""
        built = frames.cached(key)
        if built is None:
            await allowed(request)
            built = write()
            frames.keep(key, built)
        return finished_answer(built)

    @router.get("/api/tables/{code}/replay")
    async def replay(code: str, request: Request) -> Response:
        table = await finished(code)
        deleted = await deleted_seats(table.code)

        def write() -> bytes:
            facts = overview(table)
            facts["names"] = [None if s in deleted else name for s, name in enumerate(facts["names"])]
            return orjson.dumps(facts | {"deleted": deleted})

        return await kept(f"overview:{table.code}:{deleted}", request, write)

    @router.get("/api/tables/{code}/replay/{number}")
    async def replay_round(code: str, number: int, request: Request) -> Response:
        """Every position of a finished round, face up; built off the event loop, kept, and named by its ``ETag``."""
        table = await finished(code)
        if not 1 <= number <= len(table.match.rounds):
            raise Refused(404, Said.of(Code.ERROR_ROUND_NOT_PLAYED, round=number))
        config = table.config
        deleted = await deleted_seats(table.code)
        names = seat_names([seat.name for seat in config.seats], config.bot_levels(), DEFAULT)
        names = [render(Code.PLAYER_DELETED, DEFAULT) if s in deleted else name for s, name in enumerate(names)]
        job = RoundJob.of(table.match, number, names)
        digest = job.digest()
        headers = {"ETag": f'"{digest}"', "Cache-Control": FINISHED}
        if unchanged(request, headers["ETag"]):
            return Response(status_code=304, headers=headers)
        built = frames.cached(digest)
        if built is None:
            await allowed(request)
            try:
                built = await frames.get(job)
            except ReplayBusy:
                raise Refused(503, Said.of(Code.ERROR_REPLAY_BUSY), {"Retry-After": "2"}) from None
        return Response(built, media_type="application/json", headers=headers)

    @router.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> Response:
        """The match record (tens of milliseconds to write for a long match)."""
        table = await get_table(code)
        if table is None:
            raise Refused(404, Said.of(Code.ERROR_NO_TABLE, table=quoted(code[:16])))
        if not table.match.is_over():
            raise Refused(403, Said.of(Code.ERROR_RECORD_NOT_OVER))
        return await kept(f"record:{table.code}", request, lambda: orjson.dumps(table.match.record()))

    @router.get("/api/tables/{code}/review")
    async def review(code: str, request: Request) -> Response:
        """The stored review (kept once read), or how far it has come (polled by the page: not limited)."""
        table = await finished(code)
        key = f"review:{table.code}"
        built = frames.cached(key)
        if built is None:
            stored = await reviews.storage.load_review(table.code)
            if stored is None:
                return JSONResponse(progress(table.code))
            await allowed(request)
            # Read back, so a review stored by an older server has today's messages.
            built = orjson.dumps({"status": "done", "review": Review.from_dict(stored).to_dict()})
            frames.keep(key, built)
        return finished_answer(built)

    def progress(code: str) -> dict[str, Any]:
        known = reviews.progress.get(code)
        if known is None:
            known = reviews.request(code)
        if known is None:
            return {"status": "busy", "done": 0, "total": 0}
        return {"status": known.status, "done": known.done, "total": known.total}

    return router


async def review_job(get_table: TableGetter, code: str) -> tuple[Match, list[int]] | None:
    """What the review worker needs of a finished table: its match and its human seats."""
    table = await get_table(code)
    if table is None or not table.match.is_over():
        return None
    return table.match, human_seats(table)

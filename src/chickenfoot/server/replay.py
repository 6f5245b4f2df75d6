"""Replays and reviews of finished matches: the ``/r/CODE`` page and the endpoints it reads.

Every position is computed here by the engine, replaying the match record; hands and boneyard are
served face up only once the match is over (403 before). Nothing here is a rule of the game.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from chickenfoot.errors import quoted
from chickenfoot.i18n import DEFAULT, seat_names
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.review import Review, replay_rounds
from chickenfoot.round import Round
from chickenfoot.server.refusal import Refused
from chickenfoot.server.review_worker import ReviewWorker
from chickenfoot.server.table import Table

CACHED_ROUNDS = 64
"""Rounds whose positions are kept, across all matches (each costs a replay to rebuild)."""

TableGetter = Callable[[str], Awaitable[Table | None]]


def frame(r: Round, names: list[str]) -> dict[str, Any]:
    """One position with every tile face up, and the log entry of the move that led to it."""
    view = r.view(None)
    data: dict[str, Any] = {
        "layout": [[str(tile), str(target) if target is not None else None] for tile, target in view.layout],
        "open_ends": [[str(tile), number] for tile, number in view.open_ends],
        "foot": str(view.open_foot) if view.open_foot is not None else None,
        "hands": [[str(t) for t in r.hand(s)] for s in range(r.players)],
        "boneyard": [str(t) for t in r.boneyard_tiles()],
        "to_move": None if r.is_over() else r.to_move,
        "entry": None,
        "points": r.points() if r.is_over() else None,
        "reason": r.end_reason,
    }
    if r.ply:
        step = r.history[-1]
        text = step.move.describe(names[step.seat], step.drawn)
        entry = {"seat": step.seat, "move": str(step.move), "text": text}
        data["entry"] = entry | step.move.said(step.seat, step.drawn).wire()
    return data


def round_frames(match: Match, number: int, names: list[str]) -> list[dict[str, Any]]:
    """Round ``number`` (1-based) before its first move, then after each move."""
    r, moves = replay_rounds(match)[number - 1]
    frames = [frame(r, names)]
    for move in moves:
        r.push(move)
        frames.append(frame(r, names))
    return frames


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


def replay_router(get_table: TableGetter, reviews: ReviewWorker, web_dir: Path) -> APIRouter:
    router = APIRouter()
    cache: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()

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

    @router.get("/api/tables/{code}/replay")
    async def replay(code: str) -> dict[str, Any]:
        return overview(await finished(code))

    @router.get("/api/tables/{code}/replay/{number}")
    async def replay_round(code: str, number: int) -> dict[str, Any]:
        table = await finished(code)
        if not 1 <= number <= len(table.match.rounds):
            raise Refused(404, Said.of(Code.ERROR_ROUND_NOT_PLAYED, round=number))
        key = (table.code, number)
        frames = cache.get(key)
        if frames is None:
            config = table.config
            names = seat_names([seat.name for seat in config.seats], config.bot_levels(), DEFAULT)
            frames = cache[key] = round_frames(table.match, number, names)
            while len(cache) > CACHED_ROUNDS:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return {"round": number, "frames": frames}

    @router.get("/api/tables/{code}/review")
    async def review(code: str) -> dict[str, Any]:
        table = await finished(code)
        stored = await reviews.storage.load_review(table.code)
        if stored is not None:  # read back, so a review stored by an older server has today's messages
            return {"status": "done", "review": Review.from_dict(stored).to_dict()}
        progress = reviews.progress.get(table.code)
        if progress is None:
            progress = reviews.request(table.code)
        if progress is None:
            return {"status": "busy", "done": 0, "total": 0}
        return {"status": progress.status, "done": progress.done, "total": progress.total}

    return router


async def review_job(get_table: TableGetter, code: str) -> tuple[Match, list[int]] | None:
    """What the review worker needs of a finished table: its match and its human seats."""
    table = await get_table(code)
    if table is None or not table.match.is_over():
        return None
    return table.match, human_seats(table)

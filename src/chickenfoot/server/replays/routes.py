"""Replays and reviews of finished matches: the ``/r/CODE`` page and the endpoints it reads, answered
from :class:`~chickenfoot.server.replays.service.Replays`. A finished match never changes: its answers
may be kept by browsers and proxies, and a round's frames are named by their ``ETag``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from chickenfoot.server.http.answers import unchanged
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.replays.service import Allowed, Replays

FINISHED = "public, max-age=3600"
"""A finished match never changes: browsers and proxies keep its replay, then revalidate by ``ETag``."""


def finished_answer(built: bytes) -> Response:
    return Response(built, media_type="application/json", headers={"Cache-Control": FINISHED})


def replay_router(replays: Replays, limits: RateLimiter, web_dir: Path) -> APIRouter:
    router = APIRouter()

    def allowed(request: Request) -> Allowed:
        """Counts a replay written for the request's address; refuses one too many."""
        return lambda: limits.check("replay", client_address(request))

    @router.get("/r/{code}", include_in_schema=False)
    async def replay_page(code: str, request: Request) -> HTMLResponse:
        return serve_page(web_dir, "replay", request)

    @router.get("/api/tables/{code}/replay")
    async def replay(code: str, request: Request) -> Response:
        return finished_answer(await replays.overview(code, allowed(request)))

    @router.get("/api/tables/{code}/replay/{number}")
    async def replay_round(code: str, number: int, request: Request) -> Response:
        """Every position of a finished round, face up; built off the event loop, kept, and named by its ``ETag``."""
        job = await replays.round_job(code, number)
        headers = {"ETag": f'"{job.digest()}"', "Cache-Control": FINISHED}
        if unchanged(request, headers["ETag"]):
            return Response(status_code=304, headers=headers)
        built = await replays.round_frames(job, allowed(request))
        return Response(built, media_type="application/json", headers=headers)

    @router.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> Response:
        """The match record (tens of milliseconds to write for a long match)."""
        return finished_answer(await replays.record(code, allowed(request)))

    @router.get("/api/tables/{code}/review")
    async def review(code: str, request: Request) -> Response:
        """The stored review (kept once read), or how far it has come (polled by the page: not limited)."""
        answered = await replays.review(code, allowed(request))
        return JSONResponse(answered) if isinstance(answered, dict) else finished_answer(answered)

    return router

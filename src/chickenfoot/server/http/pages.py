"""The site's pages, each set into the one shell they share (its head and top bar).

Each page is a template of ``web/pages/`` that extends ``web/pages/_shell.html`` (Jinja2 blocks: its
stylesheets and module, marks beside the brand, buttons of its own, the page itself), so the shell is
written once and no page carries a copy of it. :func:`serve_page` renders one; the routes that serve the
pages call it (the lobby and How to play here, the others beside their features).

The shell says whether the request came without a session cookie: its account menu then shows "Sign
in" without asking the account API, which would only answer that nobody is signed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateNotFound

from chickenfoot.messages import Code, Said
from chickenfoot.server.http.security import SESSION_COOKIE
from chickenfoot.server.refusals import Refusal, Why


@cache
def _templates(web_dir: Path) -> Environment:
    # Templates are read again when they change on disk (auto_reload), as the static files are.
    return Environment(loader=FileSystemLoader(web_dir / "pages"), autoescape=True, undefined=StrictUndefined)


def serve_page(
    web_dir: Path, name: str, request: Request, status_code: int = 200, facts: Mapping[str, str] | None = None
) -> HTMLResponse:
    """The page ``name`` (``"replay"`` is ``web/pages/replay.html``) in the shell, for ``request``; a
    404 if it is missing. ``facts``: what the server decided for this page (escaped into it), such as
    the sign-in page's way onward."""
    try:
        template = _templates(web_dir).get_template(f"{name}.html")
    except TemplateNotFound:
        raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_PAGE_MISSING)) from None
    session = SESSION_COOKIE in request.cookies
    return HTMLResponse(template.render(page=name, session=session, **(facts or {})), status_code=status_code)


def pages_router(web_dir: Path) -> APIRouter:
    """The lobby (``/``) and How to play; the table's page is the seating feature's."""
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    async def lobby(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "index", request)

    @router.get("/howto.html")
    async def howto(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "howto", request)

    return router

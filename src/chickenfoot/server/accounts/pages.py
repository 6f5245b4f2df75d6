"""The account's pages: sign-in and sign-up (``/signin``, ``/signup``, both going on to ``?next=``) and the
account itself (``/account``; ``/account#link=…`` is an operator's one-time sign-in link).

Where signing in goes on to is decided here, never by the page: ``?next=`` is read against an allow-list
of the site's own pages (:func:`next_path`) and the page gets only the path that came out, in its
``data-next``. A visitor already signed in is sent there at once (303). A browser reads ``/\\t/host``
as ``//host`` (it drops tabs and line breaks from a URL), so no check of the raw text could be trusted;
a path rebuilt from what the allow-list matched can name no other site. The pages are otherwise static;
they read everything from the account API (routes.py).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.http.pages import serve_page

PAGES = {"/signin": "signin", "/signup": "signin", "/account": "account"}
HOME = "/"

_CODE = r"[A-Za-z0-9]{1,16}"
_NAME = r"[\w.-]{1,64}"
ONWARD: dict[re.Pattern[str], tuple[str, ...]] = {
    re.compile(pattern): queries
    for pattern, queries in {
        "/": (),
        f"/t/{_CODE}": (),
        f"/r/{_CODE}": (),
        f"/u/{_NAME}": ("page",),
        "/account": (),
        "/friends": (),
        "/tournaments": (),
        f"/tournaments/{_CODE}": (),
        "/matches": ("page",),
        "/leaderboard": ("family",),
        "/howto.html": (),
    }.items()
}
"""The pages signing in may go on to, each with the query parameters it keeps (an invite, or anything
else, is dropped: the path is for going back to a page, not for carrying a secret)."""


def next_path(asked: str | None) -> str:
    """Where signing in goes on to after ``asked`` (``?next=`` as received): a page of :data:`ONWARD`,
    rebuilt from its parts, or the lobby.

    >>> next_path("/t/ABC234"), next_path("/\\t/evil.example/x"), next_path("//evil.example")
    ('/t/ABC234', '/', '/')
    >>> next_path("/leaderboard?family=3-4&x=1")
    '/leaderboard?family=3-4'
    """
    if not asked or len(asked) > 300:
        return HOME
    parts = urlsplit(asked)
    if parts.scheme or parts.netloc:
        return HOME
    for pattern, queries in ONWARD.items():
        if pattern.fullmatch(parts.path):
            kept = [(key, value) for key, value in parse_qsl(parts.query) if key in queries]
            path = quote(parts.path, safe="/.-_")
            return f"{path}?{urlencode(kept)}" if kept else path
    return HOME


def account_pages_router(web_dir: Path, accounts: Accounts) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    async def signing_in(request: Request) -> Response:
        """The sign-in or sign-up page, told where to go on to; a signed-in visitor goes there at once."""
        onward = next_path(request.query_params.get("next"))
        if await accounts.signed_in(request) is not None:
            return RedirectResponse(onward, status_code=303)
        return serve_page(web_dir, PAGES[request.url.path], request, facts={"next": onward})

    def serving(name: str) -> Callable[[Request], Awaitable[HTMLResponse]]:
        async def answer(request: Request) -> HTMLResponse:
            return serve_page(web_dir, name, request)

        return answer

    for route in ("/signin", "/signup"):
        router.add_api_route(route, signing_in, methods=["GET"])
    router.add_api_route("/account", serving("account"), methods=["GET"])
    return router

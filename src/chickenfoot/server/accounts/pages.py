"""The account's pages: sign-in and sign-up (``/signin``, ``/signup``, both honouring ``?next=``) and the
account itself (``/account``; ``/account#link=…`` is an operator's one-time sign-in link).

The pages are static; they read everything from the account API (routes.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from chickenfoot.server.http.pages import serve_page

PAGES = {"/signin": "signin", "/signup": "signin", "/account": "account"}


def account_pages_router(web_dir: Path) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    def serving(name: str) -> Callable[[Request], Awaitable[HTMLResponse]]:
        async def answer(request: Request) -> HTMLResponse:
            return serve_page(web_dir, name, request)

        return answer

    for route, name in PAGES.items():
        router.add_api_route(route, serving(name), methods=["GET"])
    return router

"""The site's pages, each set into the one shell they share (its head and top bar).

Each page is a template of ``web/pages/`` that extends ``web/pages/_shell.html`` (Jinja2 blocks: its
stylesheets and module, marks beside the brand, buttons of its own, the page itself), so the shell is
written once and no page carries a copy of it. :func:`serve_page` renders one; the routes that serve the
pages call it (the lobby and How to play here, the others beside their features).

The shell says whether the request came without a session cookie: its account menu then shows "Sign
in" without asking the account API, which would only answer that nobody is signed in.

Beside the pages, what makes the site an app a phone installs (docs/contributors/pages.md, The app on a
phone): the web app manifest in the reader's language, the service worker with the list of files this
version keeps for offline use (written into ``web/sw.js`` as it is served), each catalog at an address of
its own (the words of a page opened offline), and the page that says a page needs the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateNotFound

from chickenfoot import __version__
from chickenfoot.i18n import LANGUAGES, negotiate, render
from chickenfoot.messages import Code, Said
from chickenfoot.server.http.security import SESSION_COOKIE
from chickenfoot.server.i18n_routes import MAX_PREFERENCES, catalog_body
from chickenfoot.server.refusals import Refusal, Why

THEME_COLOURS = {"light": "#fffdf8", "dark": "#1f2329"}
"""The top bar's colour in each theme (``--card`` in style.css): the phone's status bar and the
installed app's title bar take it."""
BACKGROUND = "#f4efe6"
"""The page's background in the light theme (``--bg``): the installed app's splash screen."""
ICONS = [
    {"src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "/icons/maskable-192.png", "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
    {"src": "/icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
]
"""The manifest's icons (drawn by scripts/app-icons.py): for any use, and maskable (a launcher cuts its
own shape from them)."""
OFFLINE_PAGES = ("/", "/howto.html", "/offline.html")
"""The pages the service worker keeps to show offline: the lobby and table page, How to play, and the
page that says a page needs the network (for every other page)."""
BUILD_LINE = re.compile(r"^const BUILD = .*;$", re.MULTILINE)
"""The line of web/sw.js that the server writes this version's cache name and files into."""


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
    html = template.render(page=name, session=session, colours=THEME_COLOURS, **(facts or {}))
    return HTMLResponse(html, status_code=status_code)


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``: the game's name, the lobby to start in, the colours and icons."""
    name = render(Code.GAME_NAME, lang)
    return {
        "id": "/",
        "name": name,
        "short_name": name,
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOURS["light"],
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": ICONS,
    }


def offline_files(web_dir: Path) -> list[Path]:
    """The files the static mount serves that the pages load: every file of ``web_dir`` but the page
    templates and the service worker itself."""
    return sorted(
        path
        for path in web_dir.rglob("*")
        if path.is_file() and path.relative_to(web_dir).parts[0] != "pages" and path != web_dir / "sw.js"
    )


def service_worker(web_dir: Path) -> str:
    """``web/sw.js`` with this version's build written in: the cache's name, which names the package's
    version and a hash of everything kept, and the addresses the worker keeps."""
    stamps = []
    for folder, folders, names in os.walk(web_dir):
        folders.sort()
        for name in sorted(names):
            stat = os.stat(path := os.path.join(folder, name))
            stamps.append((path, stat.st_mtime_ns, stat.st_size))
    return _service_worker(web_dir, tuple(stamps))


@lru_cache(maxsize=4)
def _service_worker(web_dir: Path, stamps: tuple[tuple[str, int, int], ...]) -> str:
    # Made again only when a file under web/ changed (its stamp did): a browser asks at every visit,
    # and the stamps of the 80 files or so cost a fraction of a millisecond.
    digest = hashlib.sha256(__version__.encode())
    for name, _, _ in stamps:
        path = Path(name)
        digest.update(str(path.relative_to(web_dir)).encode() + b"\0" + path.read_bytes())
    for lang in LANGUAGES:
        digest.update(catalog_body(lang))
    kept = [f"/i18n/{lang}.json" for lang in LANGUAGES]
    kept += [f"/{path.relative_to(web_dir).as_posix()}" for path in offline_files(web_dir)]
    build = {"cache": f"chickenfoot-{__version__}-{digest.hexdigest()[:16]}", "pages": OFFLINE_PAGES, "files": kept}
    source = (web_dir / "sw.js").read_text()
    written, count = BUILD_LINE.subn(lambda _: f"const BUILD = {json.dumps(build)};", source)
    if count != 1:
        raise ValueError(f"{web_dir / 'sw.js'} has {count} lines 'const BUILD = ...;', not one")
    return written


def pages_router(web_dir: Path) -> APIRouter:
    """The lobby (``/``), How to play, and what makes the site an installable app: its manifest, its
    service worker, the catalogs at addresses of their own and the page shown offline. The table's page
    is the seating feature's."""
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    async def lobby(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "index", request)

    @router.get("/howto.html")
    async def howto(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "howto", request)

    @router.get("/offline.html")
    async def offline(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "offline", request)

    @router.get("/manifest.webmanifest")
    async def web_app_manifest(request: Request, lang: str | None = None) -> Response:
        """In ``lang`` (the page names its own), else the language of ``Accept-Language``."""
        chosen = negotiate((lang or request.headers.get("accept-language", ""))[:MAX_PREFERENCES])
        body = json.dumps(manifest(chosen), ensure_ascii=False).encode()
        return Response(body, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})

    @router.get("/sw.js")
    def worker() -> Response:  # a plain def: reading and hashing the files runs off the event loop
        # At the root, so that its scope is the whole site; never kept by a cache, so that a browser
        # sees a new version at its next visit.
        headers = {"Cache-Control": "no-cache"}
        return Response(service_worker(web_dir), media_type="text/javascript", headers=headers)

    @router.get("/i18n/{lang}.json")
    async def catalog(lang: str) -> Response:
        """A language's catalog, as ``/api/i18n`` answers it: the one a page opened offline reads."""
        if lang not in LANGUAGES:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_PAGE_MISSING))
        headers = {"Content-Language": lang, "Cache-Control": "no-cache"}
        return Response(catalog_body(lang), media_type="application/json", headers=headers)

    return router

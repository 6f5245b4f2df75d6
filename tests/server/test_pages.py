"""Every page the server serves wears the one shell (server/pages.py, web/pages/_shell.html): the same
head and top bar, written once, each page's template holding only its own parts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from chickenfoot.messages import Code
from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.app import WEB_DIR
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.refusals import Refusal, Why

PAGES = {
    "/": "index",
    "/t/ABC123": "index",
    "/howto.html": "howto",
    "/leaderboard": "leaderboard",
    "/signin": "signin",
    "/signup": "signin",
    "/account": "account",
    "/matches": "matches",
    "/friends": "friends",
    "/tournaments": "tournaments",
    "/tournaments/nosuchevent": "tournament",
    "/u/nobody-here": "profile",
    "/r/ABC123": "replay",
    "/offline.html": "offline",
    "/unsubscribe/1.not-a-token": "unsubscribe",
}
"""Each page's address, and the template it is."""

SHARED = ('<header class="topbar">', 'class="brand"', 'id="language"', 'id="theme"', 'id="account-menu"')
"""What the shell alone writes, once on every page."""


def top_bar(html: str) -> str:
    found = re.search(r'<header class="topbar">.*?</header>', html, re.DOTALL)
    assert found is not None, "no top bar"
    return found.group(0)


def brand(html: str) -> str:
    found = re.search(r'<a class="brand".*?</a>', html, re.DOTALL)
    assert found is not None, "no brand link"
    return found.group(0)


def test_every_page_wears_the_one_shell(client: TestClient) -> None:
    served = {path: client.get(path) for path in PAGES}
    for path, answer in served.items():
        assert answer.status_code == (404 if path.startswith("/u/") else 200), path  # a name nobody has
        assert answer.headers["content-type"].startswith("text/html"), path
        html = answer.text
        for mark in (*SHARED, "<title>", '<link rel="stylesheet" href="/style.css">', 'id="favicon"'):
            assert html.count(mark) == 1, (path, mark)
        bar = top_bar(html)
        for mark in SHARED[1:]:
            assert mark in bar, (path, mark)
        assert 'href="/howto.html"' in bar and 'href="/leaderboard"' in bar, path
    # One brand link, one language picker, one theme button: the same markup on every page.
    assert len({brand(answer.text) for answer in served.values()}) == 1
    for tag in ('<select id="language"', '<button id="theme"'):
        lines = {line.strip() for answer in served.values() for line in answer.text.splitlines() if tag in line}
        assert len(lines) == 1, lines
    # Each page its own module: the shell's words are not a page.
    module = re.compile(r'<script type="module" src="/(\w+)\.js">')
    modules = {path: module.findall(answer.text) for path, answer in served.items()}
    assert modules["/"] == modules["/t/ABC123"] == ["app"] and modules["/howto.html"] == ["howto"]
    assert all(len(found) == 1 for found in modules.values()), modules


def test_no_page_template_copies_the_shell() -> None:
    templates = sorted(path for path in (WEB_DIR / "pages").glob("*.html") if not path.name.startswith("_"))
    assert {path.stem for path in templates} == set(PAGES.values()) | {"admin"}  # served to operators only
    for path in templates:
        text = path.read_text()
        assert text.startswith('{% extends "_shell.html" %}\n'), path.name
        for copy in ("<head", "<header", "<body", 'id="language"', 'id="theme"', 'id="account-menu"', "<title"):
            assert copy not in text, (path.name, copy)
    assert not list(WEB_DIR.glob("*.html")), "a page outside the shell"


def test_a_page_marks_its_own_link(client: TestClient) -> None:
    marked = re.compile(r'id="(\w+)-link"[^>]*aria-current="page"')
    current = {path: marked.findall(top_bar(client.get(path).text)) for path in PAGES}
    assert current.pop("/howto.html") == ["howto"]
    assert current.pop("/leaderboard") == ["leaderboard"]
    assert all(found == [] for found in current.values()), current


def request(cookies: str = "") -> Request:
    headers = [(b"cookie", cookies.encode())] if cookies else []
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers, "query_string": b""})


def test_a_guest_without_a_session_is_not_asked_about_one() -> None:
    """Without a session cookie nobody is signed in: the account menu need not ask (and be refused)."""
    guest = serve_page(WEB_DIR, "howto", request()).body.decode()
    assert 'id="account-menu" class="account-menu" data-no-session>' in guest
    member = serve_page(WEB_DIR, "howto", request(f"{COOKIE}=whatever")).body.decode()
    assert 'id="account-menu" class="account-menu">' in member and "data-no-session" not in member


@pytest.mark.parametrize("name", ["index", "no-such-page"])
def test_a_page_not_installed_is_a_404(tmp_path: Path, name: str) -> None:
    with pytest.raises(Refusal) as refused:
        serve_page(tmp_path, name, request())
    assert refused.value.why is Why.NOT_FOUND and refused.value.said.code == Code.ERROR_PAGE_MISSING

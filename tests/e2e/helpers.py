"""Driving the page the way a player does: through what it shows."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page

from chickenfoot.testing import clients
from chickenfoot.testing.bot_accounts import bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

# The page is waiting for this player, or has nothing more to offer this round.
ACTIONABLE = """() => !document.querySelector('#round-over').hidden
  || document.querySelector('.hand-tile.playable')
  || !document.querySelector('#pass').hidden"""

# The player's own moves, made by the page itself whenever it is their turn (the first legal move):
# for tests about what the page shows around the moves, not about clicking them.
AUTOPLAY = """() => { window.autoplay = setInterval(() => {
  const table = window.chickenfoot;
  if (table?.myTurn) table.play(table.state.legal[0]);
}, 20); }"""


def shot(page: Page, name: str) -> Path:
    """Save a screenshot of the page as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


NO_TABLE = "DEMO42"
"""The code of the table that does not exist, whose page tests draw STATEs on."""


def state(page: Page) -> dict[str, Any]:
    """The last STATE the page received (what it draws from)."""
    result: dict[str, Any] = page.evaluate("() => window.chickenfoot.state")
    return result


def open_lobby(page: Page, base: str) -> None:
    """Open the lobby and wait until it is ready: its form filled in from the server's presets, its
    handlers attached (typed text or events before then would be lost)."""
    page.goto(f"{base}/")
    page.wait_for_selector("#lobby[data-ready]", state="attached")


def create_table(page: Page, base: str, seats: list[str], preset: str = "classic", rated: bool = False) -> str:
    """Create a table from the lobby: seat 0 is the player, the others bot levels or "human"; a rated
    one (for a signed-in player) when asked."""
    open_lobby(page, base)
    page.select_option("#preset", preset)
    page.select_option("#seat-count", str(len(seats)))
    page.fill("#my-name", "Ann")
    for i, kind in enumerate(seats[1:], start=1):
        row = page.locator("#seats li").nth(i)
        if kind == "human":
            row.locator(".seat-kind").select_option("human")
        else:
            row.locator(".seat-bot").select_option(kind)
    if rated:
        page.check("#rated-table")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))  # no secret in the address
    page.wait_for_selector(".player")
    return page.url.split("/t/")[1]


def no_such_table(page: Page, base: str) -> None:
    """Open the page of a table that does not exist, for a test that hands it STATEs itself; once the
    server's word that there is no such table has come (on a busy machine it may come late), hide it."""
    page.goto(f"{base}/t/{NO_TABLE}")
    page.wait_for_function("code => document.querySelector('#toast')?.textContent.includes(code)", arg=NO_TABLE)
    page.evaluate("document.querySelector('#toast').hidden = true")


def play_one(page: Page) -> str | None:
    """Make one move by clicking, when the page offers one: select a playable tile, check that the
    highlighted targets are exactly its legal moves, then click one. Returns the move clicked."""
    tiles = page.locator(".hand-tile.playable")
    if tiles.count() == 0:
        # A forced pass the server is about to make itself may hide the button at any moment: check
        # and click in one step of the page, or the click would wait for a button that is gone.
        clicked = page.evaluate(
            "() => { const b = document.querySelector('#pass'); return !b.hidden && (b.click(), true); }"
        )
        return "pass" if clicked else None
    tile = tiles.first.get_attribute("data-tile")
    assert tile is not None
    if "selected" not in (tiles.first.get_attribute("class") or ""):  # a drawn tile comes selected
        tiles.first.click()
    page.wait_for_selector(".target", state="attached")
    legal = state(page)["legal"]
    shown = sorted(t.get_attribute("data-move") or "" for t in page.locator(".target").all())
    expected = sorted(m for m in legal if m.split("@")[0] == tile)
    assert shown == expected, f"targets {shown} for {tile}, legal {legal}"
    move = shown[-1]
    page.locator(f'.target[data-move="{move}"]').dispatch_event("click")
    return move


def ready_all(*pages: Page) -> None:
    """Each player presses Ready on the waiting card; the match begins."""
    for page in pages:
        page.click("#waiting button.ready")
    for page in pages:
        page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")


def frames_of(page: Page) -> list[dict[str, Any]]:
    """Collect every WebSocket frame the page receives (parsed), from now on."""
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    return frames


def api(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON request to the server's API, as the page makes it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def new_table(base: str, names: list[str], kinds: list[str] | None = None) -> dict[str, Any]:
    """A table made through the API: seat 0 is the creator; ``kinds`` (default: bots after seat 0) says
    which other seats are "human" (with an invite) or a bot level."""
    kinds = kinds or ["human"] + ["easy"] * (len(names) - 1)
    seats = [
        {"kind": "human", "name": name}
        if kind == "human" and s == 0
        else {"kind": "human"}
        if kind == "human"
        else {"kind": "bot", "bot": kind, "name": name}
        for s, (name, kind) in enumerate(zip(names, kinds, strict=True))
    ]
    with httpx.Client(base_url=base, timeout=10) as http:
        return clients.new_table(http, {"seats": seats}, claim=False)


def sit_down(page: Page, base: str, table: dict[str, Any], name: str = "Ann") -> None:
    """Open ``table`` in ``page`` as its creator, as the lobby would have left this browser: the seat's
    credential, the invites and the player's name kept in localStorage."""
    code = table["code"]
    invites = [{"seat": s["seat"], "invite": s["invite"]} for s in table["seats"] if "invite" in s]
    page.add_init_script(
        f"localStorage.setItem('cf-token-{code}', {json.dumps(table['token'])});"
        f"localStorage.setItem('cf-invites-{code}', {json.dumps(json.dumps(invites))});"
        f"localStorage.setItem('cf-name', {json.dumps(name)});"
    )
    page.goto(f"{base}/t/{code}")
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")


@contextmanager
def serving_bot_account(tmp_path: Path, name: str) -> Iterator[tuple[str, str]]:
    """A real server (its database and log in ``tmp_path``) with the bot account ``name``: the
    server's address and the bot's API token."""
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        yield server, bot_token(server, database_url, name)

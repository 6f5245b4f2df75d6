"""The site as an app on a phone, met the way a phone's player meets it, in Chromium on ``localhost``:
installable (its manifest read and judged by Chromium itself), its service worker controlling the
page, "You are offline" when the network goes and gone by itself when it comes back, a page opened
offline served from the worker's kept shell, nothing of a player or a table in the worker's cache, and
the table page in one hand at 360–430 px in portrait.

The screenshots are saved with the test artifacts (``artifacts/app/``; the ones in ``docs/images/app/``
are copies of them: scripts/screenshots.sh).
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.match import Match
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import state_for

from .conftest import CHROMIUM, CHROMIUM_ARGS, watch_errors
from .helpers import ARTIFACTS, AUTOPLAY, api, new_table, no_such_table, sit_down
from .test_accounts import sign_up_with_password
from .test_howto import LOCALES
from .test_languages import PRESENCE, measured

SHOTS = ARTIFACTS / "app"
PHONES = {360: 740, 390: 844, 430: 932}
"""Portrait phones, narrow to wide: width and height in CSS pixels."""

INSTALLED = 90_000
"""How long the service worker may take to install (fetching some 80 files) and take the page over, in
ms: on a loaded machine the server answers them slowly."""
REGISTRATION = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? ['installing', 'waiting', 'active'].map((k) => `${k}: ${registration[k]?.state}`) : 'none';
}"""

# Every control in view that a finger cannot hit everywhere within 44 × 44 px around its middle: the
# element itself must be what is found at each corner of that square (its own box, or its reach).
SMALL_TARGETS = """() => {
  const controls = [...document.querySelectorAll('button, select, input, summary, a[href], label.toggle')]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter((e) => !(e instanceof HTMLInputElement && e.type === 'checkbox' && e.closest('label')));
  return controls.filter((e) => {
    const box = e.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= innerHeight || (box.width >= 44 && box.height >= 44)) return false;
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    return ![[-21, -21], [21, -21], [-21, 21], [21, 21]].every(([dx, dy]) => {
      const found = document.elementFromPoint(x + dx, y + dy);
      return found !== null && e.contains(found);
    });
  }).map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.textContent.trim().slice(0, 30)}`);
}"""

KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      kept.push({ cache: name, url: new URL(request.url).pathname, body: await (await cache.match(request)).text() });
    }
  }
  return kept;
}"""
"""Everything in the page's caches: each entry's cache, address and body."""


def controlled(page: Page) -> None:
    """Waits until the page's service worker has installed and controls the page."""
    try:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=INSTALLED)
    except PlaywrightTimeout:
        raise AssertionError(f"no service worker controls the page: {page.evaluate(REGISTRATION)}") from None


def local(server: str) -> str:
    """The server's address by the name ``localhost`` (an origin Chromium trusts as it trusts https)."""
    return server.replace("127.0.0.1", "localhost")


def build(site: str) -> dict[str, Any]:
    """The build the server writes into its service worker: the cache's name and what it keeps."""
    with urllib.request.urlopen(f"{site}/sw.js", timeout=10) as answer:
        found = re.search(r"^const BUILD = (.*);$", answer.read().decode(), re.MULTILINE)
    assert found is not None
    kept: dict[str, Any] = json.loads(found.group(1))
    return kept


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_page(browser: Browser, lang: str, width: int) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": PHONES.get(width, 800)}, locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    return page, watch_errors(page)


def test_the_app_installs_and_its_worker_controls_the_page(browser: Browser, server: str, tmp_path: Path) -> None:
    site = local(server)
    # A profile of its own: Chromium installs no app from an incognito window, which a new context is.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
        locale=LOCALES["lt"],
    )
    try:
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{site}/howto.html")  # a page that redraws itself in a new language, where it is
        controlled(page)
        worker = page.evaluate(
            "async () => { const r = await navigator.serviceWorker.ready; return [r.scope, r.active.scriptURL]; }"
        )
        assert worker == [f"{site}/", f"{site}/sw.js"]
        cdp = context.new_cdp_session(page)
        for lang in ("lt", "fy"):
            if lang != "lt":  # the reader picks another language: the app is named in it
                page.select_option("#language", lang)
                page.wait_for_function("lang => document.querySelector('#manifest').href.endsWith(lang)", arg=lang)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == f"{site}/manifest.webmanifest?lang={lang}"
            assert manifest["errors"] == []
            data = json.loads(manifest["data"])
            assert data["name"] == render(Code.GAME_NAME, lang)
            assert (data["start_url"], data["scope"], data["display"]) == ("/", "/", "standalone")
            assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_offline_and_back_by_itself(browser: Browser, server: str, lang: str, width: int) -> None:
    site = local(server)
    page, errors = open_page(browser, lang, width)
    context = page.context
    try:
        sit_down(page, site, new_table(site, ["Ann", "Bo"], ["human", "easy"]))
        controlled(page)
        page.evaluate(AUTOPLAY)  # a few moves on the board, then the player's own turn
        page.wait_for_function("() => document.querySelectorAll('#board .tile:not(.ghost)').length >= 5")
        page.evaluate("clearInterval(window.autoplay)")
        assert page.locator("#offline").inner_text() == ""
        # The network goes: the page says so in the reader's language, and play waits.
        context.set_offline(True)
        page.wait_for_selector("#offline:not(:empty)")
        offline = [render(Code.OFFLINE_TITLE, lang), render(Code.OFFLINE_NOTE, lang)]
        assert page.locator("#offline strong, #offline span").all_inner_texts() == offline
        page.wait_for_function("() => window.chickenfoot.socket.reconnecting")
        assert not page.evaluate("window.chickenfoot.myTurn")
        assert page.locator("#draw").is_hidden() and page.locator("#pass").is_hidden()
        assert page.locator("#connection").is_hidden()  # the offline state says more
        page.wait_for_function("() => !document.querySelector('.flying-tile')")  # a move's slide is over
        shot(page, f"offline-{lang}-{width}")
        # It comes back: the notice goes by itself, the table reconnects by itself.
        context.set_offline(False)
        page.wait_for_selector("#offline:empty", state="attached")
        page.wait_for_function("() => !window.chickenfoot.socket.reconnecting")
        assert not page.evaluate("document.documentElement.hasAttribute('data-offline')")
        # Opened without a network, the page is the worker's kept shell, in the reader's language.
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline:not(:empty)")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#offline strong, #offline span").all_inner_texts() == offline
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        assert page.locator("#account-menu").inner_text() == ""  # nothing known of a session offline
        # The network back, the page opens again by itself and the table is there.
        with page.expect_navigation():
            context.set_offline(False)
        page.wait_for_function("() => window.chickenfoot?.state?.status === 'playing'")
        assert page.locator("#offline").inner_text() == ""
        assert not errors, errors
    finally:
        context.close()


def test_a_page_that_needs_the_network_says_so_and_opens_by_itself(browser: Browser, server: str) -> None:
    site = local(server)
    page, errors = open_page(browser, "lv", 390)
    needs = render(Code.OFFLINE_PAGE_TITLE, "lv")
    heading = "title => document.querySelector('main h1')?.textContent === title"
    try:
        page.goto(f"{site}/howto.html")
        controlled(page)
        page.context.set_offline(True)
        # The leaderboard needs the network: at its address, the worker's page says so.
        page.goto(f"{site}/leaderboard")
        page.wait_for_function(heading, arg=needs)
        assert page.url == f"{site}/leaderboard"
        assert page.inner_text("#offline strong") == render(Code.OFFLINE_TITLE, "lv")
        # How to play, which it offers, works without the network.
        page.click(".offline-page a")
        page.wait_for_selector("#howto-body h2")
        assert page.inner_text("main h1") == render(Code.HOW_TO_PLAY, "lv")
        # The network back, the leaderboard opened offline opens by itself.
        page.goto(f"{site}/leaderboard")
        page.wait_for_function(heading, arg=needs)
        with page.expect_navigation():
            page.context.set_offline(False)
        page.wait_for_function(heading, arg=render(Code.RATING_LEADERBOARD, "lv"))
        assert page.locator("#offline").inner_text() == ""
        assert not errors, errors
    finally:
        page.context.close()


def test_the_cache_keeps_nothing_of_a_player(browser: Browser, server: str) -> None:
    site = local(server)
    page, errors = open_page(browser, "en", 390)
    try:
        username = "keeper"
        sign_up_with_password(page, site, username)
        # Installed before the table opens: a page whose navigation began before its worker was
        # active is only controlled from the next one.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        table = new_table(site, ["Ann", "Bo"], ["human", "easy"])
        sit_down(page, site, table)
        controlled(page)
        page.evaluate(AUTOPLAY)
        page.wait_for_function("() => window.chickenfoot.state.log.length > 6")
        page.context.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline:not(:empty)")
        kept = page.evaluate(KEPT)
        expected = build(site)
        # One cache, this version's, holding exactly the worker's list: no answer of the API, nothing of
        # the table's connection, no page as this player was served it.
        assert {entry["cache"] for entry in kept} == {expected["cache"]}
        assert sorted(entry["url"] for entry in kept) == sorted([*expected["pages"], *expected["files"]])
        invites = [seat["invite"] for seat in table["seats"] if "invite" in seat]
        secrets = [table["code"], table["token"], username, *invites]
        assert not [(entry["url"], s) for entry in kept for s in secrets if s in entry["body"]]
        shells = {entry["url"]: entry["body"] for entry in kept if entry["url"] in expected["pages"]}
        # Kept without the session cookie the browser holds: the shell of nobody in particular.
        assert all('id="account-menu" class="account-menu" data-no-session' in body for body in shells.values())
        assert api(site, "GET", f"/api/tables/{table['code']}")["code"] == table["code"]  # the table exists all along
        assert not errors, errors
    finally:
        page.context.close()


def drawing_match() -> Match:
    """A four-seat match well into its first round, seat 0 to move with nothing to play: it must draw."""
    for seed in range(100):
        match = Match(Rules().replace(rounds=2), players=4, seed=seed)
        round_ = match.round
        while not round_.is_over():
            legal = round_.legal_moves()
            if round_.to_move == 0 and [str(move) for move in legal] == ["draw"] and len(round_.history) > 14:
                return match
            match.push(legal[0])
    raise AssertionError("no deal left seat 0 to draw")


@pytest.mark.parametrize("width", [*PHONES, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_table_in_one_hand(browser: Browser, server: str, lang: str, width: int) -> None:
    page, errors = open_page(browser, lang, width)
    try:
        no_such_table(page, local(server))
        match = drawing_match()
        message = state_for("DEMO42", "playing", match, match.round.view(0), PRESENCE)
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", message)
        page.wait_for_selector("#draw:not([hidden])")
        measured(page, lang)  # nothing overflows, at every width
        page.evaluate("document.querySelector('#toast').hidden = true")  # "drawing for you": over the board
        shot(page, f"table-{lang}-{width}")
        if width in PHONES:
            height = PHONES[width]
            assert page.evaluate("[scrollX, scrollY, innerHeight]") == [0, 0, height]
            # The seats, the board and the hand fill the screen, the hand at its foot; Draw and the hand
            # are in the lower part of the screen, where the thumb of the hand holding the phone reaches.
            dock = page.locator("#dock").bounding_box()
            assert dock is not None and abs(dock["y"] + dock["height"] - height) <= 1, dock
            for part in ("#draw", "#boneyard", "#hand .hand-tile >> nth=0"):
                box = page.locator(part).bounding_box()
                assert box is not None, part
                assert box["y"] >= 0.55 * height and box["y"] + box["height"] <= height, (part, box)
            tile = page.locator("#hand .hand-tile").first.bounding_box()
            assert tile is not None and tile["width"] >= 44 and tile["height"] >= 44, tile
            assert page.evaluate(SMALL_TARGETS) == []
        assert not errors, errors
    finally:
        page.context.close()

"""The page in each language: the lobby, a table with an open chicken foot, the round-end dialog.

Each is measured in the page (no element overflows its box, on a 390-px phone and at 1280 px), its
``lang`` is right, and its screenshot is saved with the test artifacts (``artifacts/languages/``;
the ones in ``docs/screenshots/`` are copies of them). Two players at one table
in different languages each read the game in their own.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.i18n import LANGUAGES, render, render_wire, seat_name, seat_names
from chickenfoot.layout import Phase
from chickenfoot.match import Match
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for

from .conftest import watch_errors
from .helpers import ARTIFACTS, no_such_table, open_lobby, play_one, ready_all, state
from .test_howto import LOCALES

DOCS = ARTIFACTS / "languages"
NAMES = ("Ann", None, None, None)  # the bots have no names: each language shows its own

# Every element whose content is wider than its box, or that reaches past the window's edge
# without a scrolling box to hold it (the players' strip scrolls on a phone).
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth;
  const held = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')].filter((e) => {
    if (e.closest('svg') && e.tagName !== 'svg') return false;
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible') return true;
    return !held(e) && (box.right > width + 1 || box.left < -1);
  }).map((e) => `${e.tagName}.${e.className.baseVal ?? e.className}: ${e.textContent.slice(0, 40)}`);
}"""
PRESENCE = Presence(NAMES, ("human", "bot", "bot", "bot"), (True,) * 4, (False,) * 4, (None, "easy", "medium", "hard"))


def foot_match() -> Match:
    """A four-seat match at seat 0's turn with a chicken foot open (each seat plays its first legal move)."""
    for seed in range(200):
        match = Match(Rules().replace(rounds=2), players=4, seed=seed)
        round_ = match.round
        while not round_.is_over() and not (round_.phase == Phase.FOOT and round_.to_move == 0):
            match.push(round_.legal_moves()[0])
        if not round_.is_over() and round_.layout.foot >= 0 and len(round_.history) > 12:
            return match
    raise AssertionError("no deal opened a chicken foot at seat 0's turn")


def shown(page: Page, match: Match) -> None:
    """Draw ``match`` as seat 0 sees it: the page's own rendering of a STATE of the protocol."""
    view = match.round.view(0)
    message = state_for("DEMO42", "playing", match, view, PRESENCE)
    page.evaluate("(state) => window.chickenfoot.onState(state, [])", message)


def open_table(browser: Browser, server: str, lang: str, width: int) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": 844 if width < 600 else 800}, locale=LOCALES[lang]
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    no_such_table(page, server)  # the page draws the STATEs this test gives it
    return page


def measured(page: Page, lang: str) -> None:
    assert page.evaluate("document.documentElement.lang") == lang
    overflowing = page.evaluate(OVERFLOWS)
    assert overflowing == [], "\n".join(" ".join(item.split())[:120] for item in overflowing)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_lobby(browser: Browser, server: str, lang: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844}, locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_lobby(page, server)
        assert page.inner_text("#create") == render(Code.LOBBY_CREATE, lang)
        assert page.inner_text("#howto-link") == render(Code.HOW_TO_PLAY, lang)
        seat = page.locator("#seats li").nth(1).locator(".seat-kind option").all_inner_texts()
        assert seat == [render(Code.BOT, lang), render(Code.LOBBY_FRIEND, lang)]
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"lobby-{lang}-{width}.png"), full_page=True)
        measured(page, lang)
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_table_with_an_open_chicken_foot_and_the_round_end(
    browser: Browser, server: str, lang: str, width: int
) -> None:
    page = open_table(browser, server, lang, width)
    try:
        match = foot_match()
        shown(page, match)
        status = page.inner_text("#status")
        assert status == render(Code.TABLE_FINISH_FOOT, lang, tile=state(page)["foot"]), status
        log = page.locator("#log li").all_inner_texts()
        entries = state(page)["log"]
        names = seat_names(PRESENCE.names, PRESENCE.bots, lang)
        assert log == [render_wire(entry, lang, names) for entry in entries]
        cards = page.locator("#players .player .name").all_inner_texts()
        assert cards == [render(Code.NAME_YOU, lang, name="Ann"), *names[1:]]  # "Silpnas robotas 2"...
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"table-{lang}-{width}.png"))
        measured(page, lang)
        # Play the round out: the results come up in a dialog, worded from the round's end.
        round_ = match.round
        while not round_.is_over():
            match.push(round_.legal_moves()[0])
        shown(page, match)
        page.wait_for_selector("#round-over:not([hidden])")
        out = [seat for seat in range(4) if not round_.hands[seat]]
        if round_.end_reason == "blocked":
            title = render(Code.EVENT_ROUND_OVER_BLOCKED, lang, round=1)
        elif out == [0]:
            title = render(Code.EVENT_ROUND_OVER_DOMINO_YOU, lang, round=1)
        else:
            title = render(Code.EVENT_ROUND_OVER_DOMINO, lang, round=1, name=names[out[0]])
        assert page.inner_text("#ro-title").casefold() == title.casefold()  # the heading's style capitalises
        assert page.inner_text("#next-round") == render(Code.TABLE_NEXT_ROUND, lang)
        page.screenshot(path=str(DOCS / f"round-end-{lang}-{width}.png"))
        measured(page, lang)
    finally:
        page.context.close()


def test_two_players_at_one_table_each_in_their_own_language(browser: Browser, server: str) -> None:
    ann_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="lt-LT")
    bo_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    for context in (ann_context, bo_context):
        context.set_default_timeout(30_000)
    try:
        ann = ann_context.new_page()
        ann.add_init_script("localStorage.setItem('cf-lang', 'lt')")
        ann_errors = watch_errors(ann)
        open_lobby(ann, server)
        ann.select_option("#seat-count", "3")
        ann.fill("#my-name", "Ann")
        ann.locator("#seats li").nth(1).locator(".seat-kind").select_option("human")
        ann.click("#create")
        ann.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
        invite = ann.locator("#share .links a").first.get_attribute("href")
        assert invite is not None
        bo = bo_context.new_page()
        bo.add_init_script("localStorage.setItem('cf-lang', 'lv'); localStorage.setItem('cf-name', 'Bo')")
        bo_errors = watch_errors(bo)
        bo.goto(f"{server}{invite}")
        bo.wait_for_selector("#waiting button.ready")
        ready_all(ann, bo)
        for page, lang in ((ann, "lt"), (bo, "lv")):
            page.wait_for_function("() => window.chickenfoot?.state?.status === 'playing'")
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.inner_text("#share h2").casefold() == render(Code.TABLE_ROOM, lang).casefold()
        # Whoever is to move makes the first move (a bot makes its own), so the log has words.
        mover = {0: ann, 1: bo}.get(state(ann)["to_move"])
        if mover is not None:
            mover.wait_for_function("() => window.chickenfoot.myTurn")
            play_one(mover)  # a sole draw offers no tile: the server makes it after a pause
        for page, lang in ((ann, "lt"), (bo, "lv")):
            page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
            current: dict[str, Any] = state(page)
            first = page.locator("#log li").first.inner_text()
            names = seat_names(current["names"], current["bots"], lang)
            assert first == render_wire(current["log"][0], lang, names)
            # The bot has no name: each reader sees their own language's default name for it.
            bot = page.locator("#players .player .name").nth(2).inner_text()
            assert bot == seat_name(2, None, current["bots"][2], lang) == names[2] != current["names"][2]
            # Read together: a bot may draw between two reads.
            shown, count = page.evaluate(
                "() => [document.querySelector('#boneyard').textContent, window.chickenfoot.state.boneyard]"
            )
            assert shown == render(Code.BONEYARD, lang, count=count)
        assert ann.locator("#log li").first.inner_text() != bo.locator("#log li").first.inner_text()
        assert not ann_errors and not bo_errors, (ann_errors, bo_errors)
    finally:
        ann_context.close()
        bo_context.close()


def test_the_lobby_lists_a_player_without_a_name_in_the_readers_language(browser: Browser, server: str) -> None:
    created = httpx.post(f"{server}/api/tables", json={"public": True, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    context = browser.new_context(locale=LOCALES["lt"])
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{server}/")
        listed = page.locator(f"#open-tables li[data-code='{code}'] .facts")
        listed.wait_for()
        assert listed.inner_text().endswith(" · " + render(Code.SEAT_DEFAULT, "lt", number=1))  # "Žaidėjas 1"
        assert not errors, errors
    finally:
        context.close()

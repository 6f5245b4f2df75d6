"""The replay page in each language: no English left in what it shows, nothing overflowing on a
390-px phone or at 1280 px, the review's verdicts worded from the server's codes, and the HTTP API's
refusals shown in the reader's language. Screenshots go with the test artifacts
(``artifacts/languages/``; the ones in ``docs/screenshots/`` are copies of them)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from chickenfoot.i18n import LANGUAGES, render, render_wire, seat_names, template
from chickenfoot.messages import Code
from chickenfoot.testing.waiting import until_now

from .conftest import watch_errors
from .test_howto import LOCALES
from .test_languages import DOCS, measured
from .test_replay import finished_match, get

NAMES = ("Ann", None)  # the easy bot has no name: each language shows its own default name
BOTS = (None, "easy")

# Every piece of text a reader meets: visible text, labels and tooltips, option texts, the title.
SHOWN_TEXTS = """() => {
  const out = [document.title];
  for (const e of document.querySelectorAll('body *')) {
    const shown = e.tagName === 'OPTION' || e.getClientRects().length > 0;
    if (!shown) continue;
    for (const n of e.childNodes) if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
    for (const a of ['aria-label', 'title', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  return out;
}"""


def english_left(texts: list[str], lang: str) -> list[str]:
    """The texts that are an English message of the catalog (whole, its placeholders filled with
    anything) or hold an English phrase of two words or more, where ``lang`` words it otherwise."""
    found = []
    for code in Code:
        text = code.value
        for count, english in ((1, text.english), (2, text.plural)):
            if english is None or template(code, lang, count) == template(code, "en", count):
                continue
            fixed = re.split(r"\{\w+\}", english)
            if sum(ch.isalpha() for part in fixed for ch in part) < 3:
                continue  # no words to find: "{number}. {played} → {best}"
            pattern = re.compile("(?s)" + ".+?".join(re.escape(part) for part in fixed))
            phrase = english if "{" not in english and " " in english.strip() else None
            found += [
                f"{code.id}: {shown!r}"
                for shown in texts
                if pattern.fullmatch(shown) or (phrase is not None and phrase in shown)
            ]
    return found


@pytest.fixture(scope="module")
def reviewed(server: str) -> Iterator[dict[str, Any]]:
    """A finished match of Ann against the easy bot, its review done: its code, the move to show
    (a reviewed move of Ann's, the costliest there is, so its verdict names a better move), the
    round's moves and each seat's points."""
    code = finished_match(server, names=NAMES)
    until_now(lambda: get(f"{server}/api/tables/{code}/review")["status"] == "done", 120, f"the review of {code}")
    answer = get(f"{server}/api/tables/{code}/review")
    moves = answer["review"]["rounds"][0]["moves"]
    worst = max((m for m in moves if "mark" in m), key=lambda m: m["loss"])
    points = get(f"{server}/api/tables/{code}/replay")["rounds"][0]["points"]
    yield {
        "code": code,
        "move": worst,
        "moves": len(moves),
        "points": points,
    }


def open_page(browser: Browser, server: str, lang: str, width: int, path: str) -> tuple[Page, list[str]]:
    context = browser.new_context(
        viewport={"width": width, "height": 844 if width < 600 else 800}, locale=LOCALES[lang]
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}{path}")
    return page, errors


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_replay_in_each_language(
    browser: Browser, server: str, reviewed: dict[str, Any], lang: str, width: int
) -> None:
    code, move = reviewed["code"], reviewed["move"]
    page, errors = open_page(browser, server, lang, width, f"/r/{code}#r1m{move['ply'] + 1}")
    try:
        expect(page.locator("#review[data-done]")).to_have_count(1, timeout=60_000)
        verdict = page.locator(".verdict")
        names = seat_names(NAMES, BOTS, lang)
        expect(verdict).to_have_text(render_wire(move["verdict"], lang, names))
        expect(page.locator(".move-card .numbers")).to_have_text(render_wire(move["explanation"], lang, names))
        expect(page.locator("#play")).to_have_attribute("aria-label", render(Code.REPLAY_PLAY, lang))
        assert page.inner_text("#copy-link") == render(Code.REPLAY_LINK, lang)
        assert page.title() == render(Code.REPLAY_TITLE, lang)
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"replay-{lang}-{width}.png"), full_page=True)
        measured(page, lang)
        # The round's end: the points in the status.
        page.keyboard.press("End")
        points = ", ".join(f"{name} {p}" for name, p in zip(names, reviewed["points"], strict=True))
        over = render(Code.REPLAY_ROUND_OVER, lang, round=1, points=points)
        expect(page.locator("#status")).to_have_text(over)
        measured(page, lang)
    finally:
        page.context.close()
    assert not errors, errors


def test_no_english_is_left_on_the_lithuanian_replay(browser: Browser, server: str, reviewed: dict[str, Any]) -> None:
    code, move = reviewed["code"], reviewed["move"]
    page, errors = open_page(browser, server, "lt", 1280, f"/r/{code}#r1m{move['ply'] + 1}")
    try:
        expect(page.locator("#review[data-done]")).to_have_count(1, timeout=60_000)
        texts: list[str] = page.evaluate(SHOWN_TEXTS)
        assert render(Code.REVIEW_ACCURACY, "lt") in texts and len(texts) > 40, texts
        # The check can fail: the English page shows many of the English catalog's messages.
        page.evaluate("localStorage.setItem('cf-lang', 'en')")
        page.reload()
        expect(page.locator("#review[data-done]")).to_have_count(1, timeout=60_000)
        assert len(english_left(page.evaluate(SHOWN_TEXTS), "lt")) > 20
        # The switcher: back to Lithuanian without a reload, every word with it.
        page.select_option("#language", "lt")
        expect(page.locator("html")).to_have_attribute("lang", "lt")
        expect(page.locator(".review-table th").nth(2)).to_have_text(render(Code.REVIEW_ACCURACY, "lt"))
        assert english_left(page.evaluate(SHOWN_TEXTS), "lt") == []
        page.keyboard.press("End")
        expect(page.locator("#replay")).to_have_attribute("data-move", str(reviewed["moves"]))
        assert english_left(page.evaluate(SHOWN_TEXTS), "lt") == []
    finally:
        page.context.close()
    assert not errors, errors
    assert english_left(texts, "lt") == []


def test_the_apis_refusals_are_shown_in_the_readers_language(browser: Browser, server: str) -> None:
    body = {"open": True, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}]}
    request = urllib.request.Request(
        f"{server}/api/tables", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        full = json.load(response)["code"]  # open, and its one human seat taken: no seat is free
    for lang in ("lt", "fy"):
        page, errors = open_page(browser, server, lang, 390, "/")
        try:
            page.wait_for_selector("#seats li:nth-child(2) .seat-kind", state="attached")
            page.fill("#my-name", "Bo")
            page.fill("#join-code", full)
            page.click("#join")
            expect(page.locator("#lobby-error")).to_have_text(render(Code.ERROR_NO_FREE_SEAT, lang))
            page.goto(f"{server}/t/NOSUCH")  # the table's WebSocket refuses it: a message too
            expect(page.locator("#toast")).to_have_text(render(Code.ERROR_NO_TABLE, lang, table="NOSUCH"))
            page.goto(f"{server}/r/NOSUCH")
            expect(page.locator("#replay-error")).to_have_text(render(Code.ERROR_NO_TABLE, lang, table="NOSUCH"))
            page.goto(f"{server}/r/{full}")  # not over yet: the replay waits for the match's end
            expect(page.locator("#replay-error")).to_have_text(render(Code.ERROR_REPLAY_NOT_OVER, lang))
            page.select_option("#language", "en")  # the refusal is worded again in the language chosen
            expect(page.locator("#replay-error")).to_have_text(render(Code.ERROR_REPLAY_NOT_OVER, "en"))
        finally:
            page.context.close()
        assert not errors, errors

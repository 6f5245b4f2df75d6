"""The table page in one hand at 360–430 px in portrait, met the way a phone's player meets it in
Chromium: nothing overflowing, the hand and Draw at the foot of the screen, every control a 44-px
target.

The screenshots are saved with the test artifacts (``artifacts/app/``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.i18n import LANGUAGES
from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.protocol import state_for

from .conftest import watch_errors
from .helpers import ARTIFACTS, no_such_table
from .test_howto import LOCALES
from .test_languages import PRESENCE, measured

SHOTS = ARTIFACTS / "app"
PHONES = {360: 740, 390: 844, 430: 932}
"""Portrait phones, narrow to wide: width and height in CSS pixels."""

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


def local(server: str) -> str:
    """The server's address by the name ``localhost`` (an origin Chromium trusts as it trusts https)."""
    return server.replace("127.0.0.1", "localhost")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_page(browser: Browser, lang: str, width: int) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": PHONES.get(width, 800)}, locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    return page, watch_errors(page)


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

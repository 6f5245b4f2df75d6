"""How to play in the browser, once per language: the right words, the drawings, nothing overflowing.

The real server serves it with its strict content security policy (``script-src 'self'``), so an
inline script or an ``eval`` would break it here.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from chickenfoot.howto import SECTIONS
from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.messages import Code

from .helpers import ARTIFACTS

LOCALES = {"en": "en-GB", "lt": "lt-LT", "lv": "lv-LV", "fy": "fy-NL"}

# Every element whose content is wider than its box, or that reaches past the window's right edge.
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter((e) => {
    const box = e.getBoundingClientRect();
    if (box.width === 0 || e.closest('svg') && e.tagName !== 'svg') return false;
    return e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
      || box.right > width + 1 || box.left < -1;
  }).map((e) => `${e.tagName}.${e.className.baseVal ?? e.className}: ${e.textContent.slice(0, 40)}`);
}"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_howto_page(browser: Browser, server: str, lang: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        page.goto(f"{server}/howto.html")
        page.wait_for_selector("#howto-body section svg g.tile", state="attached")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.inner_text("#howto-title") == render(Code.HOW_TO_PLAY, lang)
        headings = page.locator("#howto-body h2").all_inner_texts()
        titles = [render(s.title, lang) for s in SECTIONS if s.title is not None]
        assert [h.casefold() for h in headings] == [t.casefold() for t in titles]
        paragraphs = [p.replace("\u2011", "-") for p in page.locator("#howto-body p").all_inner_texts()]
        assert paragraphs == [render(code, lang) for s in SECTIONS for code in s.paragraphs]
        figures = [s.figure for s in SECTIONS if s.figure is not None]
        tiles = page.eval_on_selector_all("figure svg", "(all) => all.map((s) => s.querySelectorAll('g.tile').length)")
        assert tiles == [len(f.layout) for f in figures]
        assert page.locator("figcaption").all_inner_texts() == [render(f.caption, lang) for f in figures]
        assert page.evaluate(OVERFLOWS) == []
        numbers = [0, 1, 2, 3, 5, 10, 11, 12, 21, 22, 25, 100, 101, 111]
        plurals = page.evaluate(
            "async (numbers) => { const { t } = await import('/i18n.js');"
            " return numbers.map((count) => t('ui.tile_count', { count })); }",
            numbers,
        )
        assert plurals == [render(Code.TILE_COUNT, lang, count=n) for n in numbers]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"howto-{lang}-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not problems, problems


def test_language_switcher_is_remembered(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server}/howto.html")
        page.wait_for_selector("#language option[value=lv]", state="attached")
        page.select_option("#language", "lv")
        page.wait_for_selector("html[lang=lv]", state="attached")
        assert page.inner_text("#howto-title") == render(Code.HOW_TO_PLAY, "lv")
        page.reload()
        page.wait_for_selector("html[lang=lv]", state="attached")
        assert page.inner_text("#howto-title") == render(Code.HOW_TO_PLAY, "lv")
    finally:
        context.close()

"""The players' bar shows every seat at a glance, at 2, 4 and 8 players, on a 390-px phone and at
1280 px: measured in the page, no card is clipped or scrolled away and nothing in a card spills
out of it. The eight-seat bars are saved as screenshots (``artifacts/players/``; the copies in
``docs/screenshots/`` come from there)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from chickenfoot.i18n import render
from chickenfoot.messages import Code

from .conftest import watch_errors
from .helpers import ARTIFACTS, new_table, sit_down

NAMES = ["Annabelle", "Bo", "Cyrus the Great", "Di", "Evangelina Rosemary", "Fu", "Gudrun Sigríður", "Hal"]

# What of the bar is not in view: the bar scrolling or leaving the window, a card outside the bar
# or below the window's fold, an element outside its card or wider than its box.
CLIPPED = """() => {
  const bar = document.querySelector('#players');
  const out = [];
  const inside = (r, b) =>
    r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  const b = bar.getBoundingClientRect();
  if (bar.scrollWidth > bar.clientWidth + 1 || bar.scrollHeight > bar.clientHeight + 1) out.push('the bar scrolls');
  const window = { left: 0, top: 0, right: document.documentElement.clientWidth, bottom: innerHeight };
  if (!inside(b, window)) out.push(`the bar leaves the window: ${JSON.stringify(b)}`);
  for (const card of bar.querySelectorAll('.player')) {
    const c = card.getBoundingClientRect();
    if (!inside(c, b)) out.push(`card ${card.dataset.seat} is outside the bar`);
    for (const e of card.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (!inside(r, c)) out.push(`card ${card.dataset.seat}: ${e.className} spills out`);
      const cut = e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
      if (cut) out.push(`card ${card.dataset.seat}: ${e.className} is cut`);
    }
  }
  const rows = new Set([...bar.querySelectorAll('.player')].map((c) => Math.round(c.getBoundingClientRect().top)));
  return { out, rows: rows.size, height: b.height };
}"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_seat_is_in_view(browser: Browser, server: str, players: int, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800})
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        sit_down(page, server, new_table(server, NAMES[:players]), name=NAMES[0])
        cards = page.locator("#players .player")
        assert cards.count() == players
        names = cards.locator(".name").all_inner_texts()
        assert names == [render(Code.NAME_YOU, "en", name=NAMES[0]), *NAMES[1:players]]
        measured = page.evaluate(CLIPPED)
        assert measured["out"] == [], measured["out"]
        # Two rows at most (eight on a phone), one on a desktop; the bar leaves the board its room.
        assert measured["rows"] <= (1 if width > 600 or players <= 4 else 2), measured
        assert measured["height"] < page.viewport_size["height"] * 0.25, measured  # type: ignore[index]
        # Whose turn it is is said in words on that card, not by its colour alone.
        page.wait_for_function("() => document.querySelector('.player.turn')")
        turn = page.locator(".player.turn")
        assert turn.count() == 1
        assert turn.locator(".turn-mark").inner_text().casefold() == render(Code.TABLE_TO_PLAY, "en").casefold()
        if players == 8:
            (ARTIFACTS / "players").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "players" / f"players-8-{width}.png"))
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 360])
def test_the_table_fits_the_smallest_phones(browser: Browser, server: str, width: int) -> None:
    """Nothing of a seated player's table (its top bar the fullest part) runs past a 320–360 px screen."""
    context = browser.new_context(viewport={"width": width, "height": 640})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        sit_down(page, server, new_table(server, NAMES[:4]), name=NAMES[0])
        page.wait_for_function("() => document.querySelector('#players .player')")
        past = page.evaluate(
            """(width) => [...document.querySelectorAll('.topbar > *')]
              .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > width + 0.5)
              .map((e) => e.id || e.className)""",
            width,
        )
        assert past == [], past
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    finally:
        context.close()

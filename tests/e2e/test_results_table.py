"""The match-over results of a full classic match (ten rounds, four seats): every seat's name and total
are in sight at 1280 and 390 px, however many round columns the table has (screenshots saved with the
test artifacts, ``artifacts/results/``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for

from .conftest import watch_errors
from .helpers import shot

# The cells of one column (by index from its end, or its start), with how much of each lies outside the
# results' scrolling box or the window.
HIDDEN = """(fromEnd) => {
  const box = document.querySelector('#ro-body').getBoundingClientRect();
  const rows = [...document.querySelectorAll('#ro-body table')].at(-1).rows;
  return [...rows].map((row) => {
    const cell = fromEnd ? row.cells[row.cells.length - 1] : row.cells[0];
    const r = cell.getBoundingClientRect();
    const left = Math.max(box.left, 0), right = Math.min(box.right, innerWidth);
    const shown = Math.max(0, Math.min(r.right, right) - Math.max(r.left, left));
    // The cell under its own middle: a sticky cell must not be painted over by the scrolled ones.
    const x = (Math.max(r.left, left) + Math.min(r.right, right)) / 2;
    const top = document.elementFromPoint(x, (r.top + r.bottom) / 2);
    return { text: cell.textContent, hidden: Math.round(r.width - shown), covered: !cell.contains(top) };
  });
}"""


def finished_match_state() -> dict[str, Any]:
    """The STATE seat 0 is sent when a classic four-seat match is over (ten rounds)."""
    match = Match(Rules(), players=4, seed=11)
    while True:
        while not match.round.is_over():
            match.push(match.round.legal_moves()[0])
        if match.is_over():
            break
        match.next_round()
    presence = Presence(
        ("Annelies", "Bo", "Cy", "Dainius"),
        ("human", "bot", "bot", "bot"),
        (True,) * 4,
        (False,) * 4,
        (None, "easy", "medium", "hard"),
    )
    return dict(json.loads(json.dumps(state_for("DEMO42", "over", match, match.round.view(0), presence))))


@pytest.mark.parametrize("width", [1280, 390])
def test_every_name_and_total_of_a_full_match_is_in_sight(browser: Browser, server: str, width: int) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 844 if width < 600 else 800}, has_touch=width < 600
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATE given here
        page.wait_for_function("() => window.chickenfoot")
        state = finished_match_state()
        assert len(state["scores"]) == 10 and state["match_over"]
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", state)
        page.wait_for_selector("#round-over:not([hidden])")
        page.locator("#ro-body table").last.scroll_into_view_if_needed()
        shot(page, f"results/match-over-{width}")
        totals = page.evaluate(HIDDEN, True)
        names = page.evaluate(HIDDEN, False)
        assert [cell["text"] for cell in totals[1:]] == [str(total) for total in state["totals"]]
        for cell in totals + names:
            assert cell["hidden"] == 0 and not cell["covered"], (width, cell)
        # The rounds between them scroll, inside the dialog: the page itself never scrolls sideways.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    finally:
        context.close()
    assert not errors, errors

"""Hints: with the toggle on, the page asks on each turn and shows the server's suggestion on the
board (the target ringed, the tile's place outlined, the tile marked in the hand) with its reason."""

from __future__ import annotations

import time

from playwright.sync_api import Page

from .helpers import ACTIONABLE, create_table, play_one, shot, state

HINT_SHOWN = """() => {
  const box = document.querySelector('#hint');
  return !box.hidden && box.dataset.move && window.chickenfoot.state.legal.includes(box.dataset.move);
}"""


def test_hints_show_a_legal_move_with_its_reason(page: Page, server: str) -> None:
    create_table(page, server, ["human", "easy", "easy"])
    page.check("#hints")
    seen: list[str] = []
    deadline = time.monotonic() + 90
    # Play on (the hinted move each time) until a hint has pointed at a tile on the board.
    while not any("@" in move for move in seen):
        assert time.monotonic() < deadline, f"no hint on the board in time (hints seen: {seen})"
        page.wait_for_function(ACTIONABLE, timeout=30_000)
        if page.locator("#round-over").is_visible():
            break
        if page.locator(".hand-tile.playable").count() == 0:
            play_one(page)  # a pass after a draw: no hint is asked for a forced move
            continue
        page.wait_for_function(HINT_SHOWN, timeout=30_000)
        move = page.locator("#hint").get_attribute("data-move") or ""
        assert move in state(page)["legal"]
        text = page.locator("#hint").inner_text()
        assert text.startswith("Hint: ")
        reason = text.split(" — ", 1)[1] if " — " in text else ""
        assert reason.strip(), f"the hint gives no reason: {text!r}"
        if "@" in move:
            tile, target = move.split("@")
            assert f"play {tile} on {target}" in text
            assert page.locator(f'.hint-mark[data-hint="{move}"]').count() == 1
            assert "hint-target" in (page.locator(f'#board .tile[data-tile="{target}"]').get_attribute("class") or "")
            assert page.locator(".hand-tile.hinted").get_attribute("data-tile") == tile
            # The hinted tile comes selected: its target is among the highlighted places.
            assert page.locator(f'.target[data-move="{move}"]').count() == 1
            shot(page, "hint")
        seen.append(move)
        if move == "pass":
            page.click("#pass")
        else:  # the hinted tile comes selected, so its place (or the hub's) is on offer
            page.locator(f'.target[data-move="{move}"]').dispatch_event("click")
        page.wait_for_function("m => !window.chickenfoot.state.legal.includes(m)", arg=move, timeout=15_000)
    assert any("@" in move for move in seen), f"the round ended before a hint on the board: {seen}"
    # Off again: the hint goes away.
    page.uncheck("#hints")
    page.wait_for_function("() => document.querySelector('#hint').hidden", timeout=20_000)
    assert page.locator(".hint-mark").count() == 0

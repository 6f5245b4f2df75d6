"""A whole round against three bots, played by clicking; reload resumes the same game."""

from __future__ import annotations

import time

from playwright.sync_api import Page

from .helpers import ACTIONABLE, create_table, play_one, shot, state


def test_play_a_whole_round_against_three_bots(page: Page, server: str) -> None:
    create_table(page, server, ["human", "easy", "easy", "easy"])
    moves: list[str] = []
    deadline = time.monotonic() + 120
    while page.locator("#round-over").is_hidden():
        assert time.monotonic() < deadline, "the round did not end in time"
        page.wait_for_function(ACTIONABLE, timeout=30_000)
        if page.locator("#round-over").is_visible():
            break
        if page.locator("#draw").is_visible():
            assert state(page)["legal"] == ["draw"]
        move = play_one(page)
        if move:
            moves.append(move)
            # Wait until the server took the move before looking for the next one.
            page.wait_for_function("m => !window.chickenfoot.state.legal.includes(m)", arg=move, timeout=20_000)
        if len(moves) == 3:
            shot(page, "board-early")
    assert moves, "the player never moved"
    # The finished round's state (the server may already have dealt the next one).
    final = page.evaluate("() => window.chickenfoot.finished")
    assert final["round"] == 1 and final["round_over"] is not None
    shot(page, "round-over")
    # Every hand is revealed and each seat's points are shown, with the scoreboard.
    rows = page.locator("#ro-body tbody tr")
    assert rows.count() == 4
    for seat, points in enumerate(final["round_over"]["points"]):
        cells = rows.nth(seat).locator("td")
        assert cells.nth(2).inner_text() == str(points)
        assert rows.nth(seat).locator(".tile-svg").count() == len(final["round_over"]["hands"][seat])
    assert "0-0 counts 50" in page.locator("#ro-body").inner_text()
    title = page.locator("#ro-title").text_content() or ""
    assert title.startswith("Round 1")
    # With bots at the table the server deals round 2 on its own: the results stay up, unchanged.
    page.wait_for_function("() => window.chickenfoot.state.round === 2", timeout=30_000)
    page.wait_for_selector(".dealt", timeout=20_000)
    shot(page, "round-over-next-dealt")
    assert page.locator("#round-over").is_visible()
    assert page.locator("#ro-title").text_content() == title
    for seat, points in enumerate(final["round_over"]["points"]):
        assert rows.nth(seat).locator("td").nth(2).inner_text() == str(points)
        assert rows.nth(seat).locator(".tile-svg").count() == len(final["round_over"]["hands"][seat])
    assert page.locator("#next-round").is_hidden()
    page.click("#ro-close")
    assert page.locator("#round-over").is_hidden()
    # The scoreboard beside the board keeps round 1's points.
    scores = page.locator(".scores tbody tr")
    assert scores.count() == 4
    for seat, points in enumerate(final["round_over"]["points"]):
        assert scores.nth(seat).locator("td").nth(1).inner_text() == str(points)


def test_reload_resumes_the_same_state(page: Page, server: str) -> None:
    create_table(page, server, ["human", "easy", "easy", "easy"])
    for _ in range(2):
        page.wait_for_function(ACTIONABLE, timeout=30_000)
        move = play_one(page)
        if move:
            page.wait_for_function("m => !window.chickenfoot.state.legal.includes(m)", arg=move, timeout=20_000)
    # Wait until the game waits for us, so nothing moves while we reload.
    page.wait_for_function(ACTIONABLE, timeout=30_000)
    before = state(page)
    board_before = page.locator("#board .tile").count()
    page.reload()
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
    after = state(page)
    for key in ("seat", "hand", "layout", "legal", "hand_sizes", "boneyard", "to_move", "log"):
        assert after[key] == before[key], key
    assert page.locator("#board .tile").count() == board_before
    assert page.locator(".hand-tile").count() == len(before["hand"])

"""Two people at one table, each in their own browser context: each sees only their own hand."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import watch_errors
from .helpers import ACTIONABLE, create_table, frames_of, play_one, ready_all, shot, state


def tiles_in(text: str, tiles: list[str]) -> list[str]:
    """Which of ``tiles`` are named in ``text`` (either order, not part of a longer number)."""
    found = []
    for tile in tiles:
        hi, lo = tile.split("-")
        if re.search(rf"(?<!\d)({hi}-{lo}|{lo}-{hi})(?!\d)", text):
            found.append(tile)
    return found


def hands_by_version(frames: list[dict[str, Any]]) -> dict[int, list[str]]:
    return {
        f["version"]: f["state"]["hand"] for f in frames if f.get("type") == "state" and not f["state"]["round_over"]
    }


def test_each_player_sees_only_their_own_hand(browser: Browser, page: Page, server: str) -> None:
    ann_frames = frames_of(page)
    code = create_table(page, server, ["human", "human", "easy", "easy"])
    invite = page.locator("#share .links a").first.get_attribute("href")
    assert invite is not None and invite.startswith(f"/t/{code}?invite=")
    bo_context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    bo_context.set_default_timeout(30_000)
    try:
        bo = bo_context.new_page()
        bo_errors = watch_errors(bo)
        bo_frames = frames_of(bo)
        # The table is invite-only: the lobby says so, and joining by its code is refused.
        bo.goto(f"{server}/")
        bo.fill("#join-code", code)
        bo.locator("#join-code").dispatch_event("change")
        bo.wait_for_function("() => document.querySelector('#join-kind').textContent.includes('invite-only')")
        bo.click("#join")
        bo.wait_for_function("() => document.querySelector('#lobby-error').textContent.includes('invite-only')")
        assert bo.locator("#name-dialog").is_hidden()  # said before a name is asked for
        # Bo opens the invite: seated, and the address no longer holds anything secret.
        bo.goto(f"{server}{invite}")
        bo.wait_for_url(re.compile(rf".*/t/{code}$"))
        bo.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
        assert state(bo)["seat"] == 1 and state(bo)["names"][1] is None
        # Seated on a first visit: asked for a name, which everyone then sees.
        bo.fill("#name-input", "Bo")
        bo.click("#name-dialog button[value=save]")
        page.wait_for_function("() => window.chickenfoot.state.names[1] === 'Bo'")
        assert page.locator('.player[data-seat="1"] .name').inner_text() == "Bo"
        bo.reload()  # back to the seat, not to the spectators
        bo.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
        assert state(bo)["seat"] == 1
        # Ann (or anyone who saw her screen) opening the same invite elsewhere only watches.
        eve = browser.new_context().new_page()
        eve.goto(f"{server}{invite}")
        eve.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
        assert state(eve)["seat"] is None and state(eve)["hand"] == []
        eve.wait_for_function("() => document.querySelector('#toast').textContent.includes('opens nothing')")
        eve.context.close()
        ready_all(page, bo)  # the first deal waits for both
        # Let both play a few moves each so hands, draws and the log change: whoever the game waits
        # for moves (a forced draw or pass is made by the server, so the turn order varies).
        moved = {0: 0, 1: 0}
        deadline = time.monotonic() + 90
        bo_turn = "() => window.chickenfoot.state.to_move === 1"
        while min(moved.values()) < 4 and not page.evaluate("() => window.chickenfoot.finished"):
            assert time.monotonic() < deadline, f"the players' turns did not come in time ({moved})"
            page.wait_for_function(f"() => ({ACTIONABLE})() || ({bo_turn})()", timeout=30_000)
            seat = 1 if state(page)["to_move"] == 1 and page.locator("#round-over").is_hidden() else 0
            who = (page, bo)[seat]
            # Bo's turn may end without a choice (a forced draw of a tile that does not fit).
            who.wait_for_function(
                f"() => ({ACTIONABLE})() || window.chickenfoot.state.to_move !== {seat}", timeout=30_000
            )
            if move := play_one(who):
                moved[seat] += 1
                who.wait_for_function("m => !window.chickenfoot.state.legal.includes(m)", arg=move, timeout=15_000)
        ann, bob = state(page), state(bo)
        assert (ann["seat"], bob["seat"]) == (0, 1)
        assert ann["hand"] and bob["hand"]
        assert not set(ann["hand"]) & set(bob["hand"])
        shot(bo, "phone-second-player")
        # Nothing in either page names a tile of the other's hand (the board shows only played tiles).
        # (Once a round is over every hand is shown to all, so look before that.)
        # The table's markup (the header's logo path "l7-7" is no tile).
        bo_page, ann_page = (who.locator("#table").evaluate("e => e.outerHTML") for who in (bo, page))
        if all(state(who)["round_over"] is None and state(who)["round"] == 1 for who in (page, bo)):
            assert tiles_in(bo_page, ann["hand"]) == []
            assert tiles_in(ann_page, bob["hand"]) == []
        # Nor did any WebSocket frame either received, at any version, before the round's end.
        ann_hands, bo_hands = hands_by_version(ann_frames), hands_by_version(bo_frames)
        assert ann_hands and bo_hands
        checked = 0
        for frames, hands in ((bo_frames, ann_hands), (ann_frames, bo_hands)):
            for frame in frames:
                if frame.get("type") == "state" and frame["version"] in hands and not frame["state"]["round_over"]:
                    assert tiles_in(str(frame), hands[frame["version"]]) == [], frame["version"]
                    checked += 1
        assert checked >= 4
        # The other player's tile count and connection are shown, never their tiles.
        bo.wait_for_function(
            """() => document.querySelector('.player[data-seat="0"] .count').textContent
              === String(window.chickenfoot.state.hand_sizes[0])""",
            timeout=20_000,
        )
        assert state(bo)["hand_sizes"][0] == len(state(page)["hand"]) or state(page)["round_over"]
        assert bo.locator('.player[data-seat="0"] .dot.on').count() == 1
        assert not bo_errors, bo_errors
        # Bo leaves for good: Ann, the creator, hands the seat to a bot; Bo's secret is revoked.
        bo_context.close()
        page.wait_for_selector('.player[data-seat="1"] .replace')
        if page.locator("#round-over").is_visible():  # the round ended with the last moves: back to the board
            page.click("#ro-close")
        page.click('.player[data-seat="1"] .replace')
        page.click("#confirm-dialog button[value=yes]")
        page.wait_for_function("() => window.chickenfoot.state.kinds[1] === 'bot'")
    finally:
        bo_context.close()

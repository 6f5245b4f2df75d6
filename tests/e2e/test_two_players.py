"""Two people at one table, each in their own browser context: each sees only their own hand."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page

from .helpers import create_table, frames_of, play_one, shot, state


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
    code = create_table(page, server, ["human", "human", "greedy", "greedy"])
    bo_context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        bo = bo_context.new_page()
        bo_frames = frames_of(bo)
        bo.goto(f"{server}/")
        bo.fill("#join-code", code)
        bo.click("#join")
        bo.wait_for_url(re.compile(rf".*/t/{code}\?token=.+"))
        bo.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=10_000)
        # Let both play a few moves so hands, draws and the log change.
        for _ in range(6):
            for who in (page, bo):
                who.wait_for_timeout(300)
                move = play_one(who)
                if move:
                    who.wait_for_function("m => !window.chickenfoot.state.legal.includes(m)", arg=move, timeout=10_000)
        page.wait_for_timeout(500)
        ann, bob = state(page), state(bo)
        assert (ann["seat"], bob["seat"]) == (0, 1)
        assert ann["hand"] and bob["hand"]
        assert not set(ann["hand"]) & set(bob["hand"])
        shot(bo, "phone-second-player")
        # Nothing in either page names a tile of the other's hand (the board shows only played tiles).
        # (Once a round is over every hand is shown to all, so look before that.)
        if ann["round_over"] is None and state(bo)["round_over"] is None:
            assert tiles_in(bo.content(), ann["hand"]) == []
            assert tiles_in(page.content(), bob["hand"]) == []
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
        assert bo.locator('.player[data-seat="0"] .count').inner_text() == str(len(ann["hand"]))
        assert bo.locator('.player[data-seat="0"] .dot.on').count() == 1
    finally:
        bo_context.close()

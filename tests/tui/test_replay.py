"""``chickenfoot replay``: a finished match stepped through with the keys."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from chickenfoot.i18n import render, say, seat_name
from chickenfoot.messages import Code
from chickenfoot.tui.keys import KeyBar
from chickenfoot.tui.replay import ReplayApp

from .helpers import played, shown

pytestmark = pytest.mark.timeout(120)


@pytest.mark.asyncio
async def test_replay_steps_through_rounds_with_the_keys() -> None:
    match = played(rounds=2)
    app = ReplayApp(match)
    moves = [len(r.history) for r in match.rounds]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("right", "right", "right")
        assert (app.round_index, app.ply) == (0, 3)
        assert app.frames[3].history == match.rounds[0].history[:3]
        await pilot.press("left")
        assert app.ply == 2
        await pilot.press("end")
        assert app.ply == moves[0] and app.frames[app.ply].points() == match.round_points[0]
        await pilot.press("right")
        assert (app.round_index, app.ply) == (1, 0)
        await pilot.press("home", "left")
        assert (app.round_index, app.ply) == (0, moves[0])
        await pilot.press("2")
        assert (app.round_index, app.ply) == (1, 0)
        await pilot.press("space")
        assert app.timer is not None
        await pilot.press("space")
        assert app.timer is None
        hands = [app.frames[0].hand(s) for s in range(2)]
        assert hands == match.deals[1][0]
        await pilot.press("ctrl+c")  # quits, with no notice in English about which key does
        await pilot.pause()
        assert not app.is_running


@pytest.mark.asyncio
async def test_replay_in_the_readers_language() -> None:
    match = played(rounds=2)
    names = [seat_name(s, None, None, "lv") for s in range(2)]
    app = ReplayApp(match, lang="lv", step_seconds=3600)  # playing, but no step comes while the screen is read
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("right", "right", "space")
        status = shown(app.query_one("#status", Static))
        hands = shown(app.query_one("#hands", Static))
        log = " ".join(shown(app.query_one("#log", Static)).split())
        footer = {key.description for key in app.screen.query_one(KeyBar).shown_keys()}
        await pilot.press("space")
    plies = len(match.rounds[0].history)
    assert render(Code.REPLAY_ROUND_OF, "lv", round=1, rounds=2) in status
    assert render(Code.REPLAY_COUNTER, "lv", move=2, moves=plies) in status
    assert render(Code.REPLAY_PLAYING, "lv") in status
    assert render(Code.REPLAY_BONEYARD, "lv") in hands and names[1] in hands
    for step in match.rounds[0].history[:2]:
        assert say(step.move.said(step.seat, step.drawn), "lv", names) in log
    assert {render(Code.REPLAY_KEY_FORWARD, "lv"), render(Code.TUI_QUIT, "lv")} <= footer
    english = re.compile(r"\b(Round|move|Boneyard|Seat|played|placed|drew|Forward|Back|Quit|playing)\b")
    assert not english.search(" ".join([status, hands, log, *footer]))


def test_replay_with_a_bad_language_gets_one_line(tmp_path: Path) -> None:
    saved = tmp_path / "m.json"
    saved.write_text(played(rounds=1).dumps(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "replay", str(saved), "--lang", "xx"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1 and result.stderr.strip().count("\n") == 0
    assert "unknown language 'xx'" in result.stderr

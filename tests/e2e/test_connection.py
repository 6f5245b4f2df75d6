"""The connection lost and found: its own server process is stopped under a seated player, the page
says it is reconnecting (attempts spaced 1, 2, 4… seconds) and offers no play; the server started
again on the same port and database, the page is back where it was and play resumes."""

from __future__ import annotations

import signal
from pathlib import Path

from playwright.sync_api import Page

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .helpers import new_table, sit_down

# The delay before each reconnection attempt, as the page planned it: {attempt: milliseconds}.
DELAYS = """() => {
  const socket = window.chickenfoot.socket;
  window.delays ??= {};
  if (socket.retrying && !(socket.attempt in window.delays)) {
    window.delays[socket.attempt] = socket.retryDelay;
  }
  return window.delays;
}"""


def test_reconnecting_with_backoff_and_no_play_meanwhile(page: Page, tmp_path: Path) -> None:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    server = f"http://127.0.0.1:{port}"
    with served(port, database, pace=0.25, options=OPEN_LIMITS):
        table = new_table(server, ["Ann", "Bo", "Cy"])
        sit_down(page, server, table)
        page.wait_for_function("() => window.chickenfoot.myTurn && document.querySelector('.hand-tile.playable')")
        assert page.locator("#connection").is_hidden()
        version = page.evaluate("window.chickenfoot.socket.version")
    # The server is gone (its process killed): the page says so and takes no move.
    page.wait_for_selector("#connection:not([hidden])")
    assert page.inner_text("#connection .connection-text") == render(Code.CONNECTION_LOST, "en")
    assert page.inner_text("#status") == render(Code.CONNECTION_PAUSED, "en")
    assert not page.evaluate("window.chickenfoot.myTurn")
    assert page.locator(".hand-tile.playable").count() == 0 and page.locator("#draw").is_hidden()
    page.locator(".hand-tile").first.click()
    assert page.locator(".target").count() == 0
    assert page.locator("#room.offline").count() == 1
    # Attempts follow each other, each pause about twice the one before (±20%).
    page.wait_for_function(f"() => Object.keys(({DELAYS})()).length >= 3", polling=50, timeout=20_000)
    delays = page.evaluate(DELAYS)
    assert 800 <= delays["1"] <= 1200 and 1600 <= delays["2"] <= 2400 and 3200 <= delays["3"] <= 4800, delays
    attempt = page.evaluate("window.chickenfoot.socket.attempt")
    assert render(Code.CONNECTION_RETRY, "en", attempt=attempt, count=0).split(" in ")[0] in page.inner_text(
        "#connection"
    )
    # Back on the same port and database: "Retry now" reconnects at once, where the page left off.
    with served(port, database, pace=0.25, options=OPEN_LIMITS):
        page.click("#connection button")
        page.wait_for_function("() => !window.chickenfoot.socket.reconnecting", timeout=15_000)
        assert page.inner_text("#connection .connection-text") == render(Code.CONNECTION_BACK, "en")
        page.wait_for_selector("#connection", state="hidden")
        page.wait_for_function("() => window.chickenfoot.myTurn && document.querySelector('.hand-tile.playable')")
        assert page.evaluate("window.chickenfoot.socket.version") == version
        assert page.locator("#room.offline").count() == 0


def test_a_silent_connection_is_given_up_and_made_again(page: Page, tmp_path: Path) -> None:
    """A server that stops answering without closing (its process frozen): the page's heartbeat
    notices the silence (a ping after 20 s, given up 10 s later), reconnects, and is back once the
    server answers again. The page's clock is Playwright's, moved forward instead of waited."""
    port = free_port()
    server = f"http://127.0.0.1:{port}"
    with served(port, f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}", pace=0.25, options=OPEN_LIMITS) as process:
        page.clock.install()
        sit_down(page, server, new_table(server, ["Ann", "Bo", "Cy"]))
        page.wait_for_function("() => window.chickenfoot.myTurn && document.querySelector('.hand-tile.playable')")
        process.send_signal(signal.SIGSTOP)
        try:
            page.clock.fast_forward(21_000)  # quiet: a ping goes out, and no answer comes
            page.clock.fast_forward(10_000)
            page.wait_for_selector("#connection:not([hidden])")
            assert not page.evaluate("window.chickenfoot.myTurn")
            assert page.locator(".hand-tile.playable").count() == 0
        finally:
            process.send_signal(signal.SIGCONT)
        page.clock.fast_forward(15_000)  # past the attempt that reached the frozen server, if one did
        page.wait_for_function("() => !window.chickenfoot.socket.reconnecting", timeout=15_000)
        page.wait_for_function("() => window.chickenfoot.myTurn && document.querySelector('.hand-tile.playable')")

"""Your turn, noticed: the tab's title and icon say so; a notification while the tab is hidden comes
only once the player turned it on, and the choice is remembered (the turn's sound: test_sound.py).

The browser's own notifications cannot be seen headless: the test records the notifications made,
through a stand-in installed before the page loads, and says when the tab is hidden."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from chickenfoot.i18n import render
from chickenfoot.messages import Code

from .conftest import watch_errors
from .helpers import new_table, play_one, sit_down

STAND_INS = """
window.notes = [];
window.Notification = class { constructor(title, options) { window.notes.push([title, options.body]); }
  addEventListener() {} close() {} static permission = "granted"; static requestPermission = async () => "granted"; };
window.hiddenTab = false;
Object.defineProperty(document, "hidden", { get: () => window.hiddenTab });
window.turns = 0;  // the turns that began, seen from the tab's icon
document.addEventListener("DOMContentLoaded", () => {
  const icon = document.getElementById("favicon");
  let was = false;
  new MutationObserver(() => {
    const turn = icon.href.includes("circle");
    if (turn && !was) window.turns += 1;
    was = turn;
  }).observe(icon, { attributes: true });
});
"""
# A turn with a choice: it lasts until the player moves (a sole draw or pass the server makes).
TURN = "() => window.chickenfoot.myTurn && !window.chickenfoot.state.forced"


def move(page: Page) -> None:
    """Make this turn's move: a tile if one fits, else the draw."""
    if play_one(page) is None:
        page.click("#draw")


NOT_TURN = "() => !window.chickenfoot.myTurn"


def test_title_and_icon_show_the_turn_and_the_rest_is_off_until_asked(page: Page, server: str) -> None:
    page.add_init_script(STAND_INS)
    table = new_table(server, ["Ann", "Bo"])
    sit_down(page, server, table)
    code = table["code"]
    base = f"Chicken Foot · {code}"
    for _ in range(2):
        page.wait_for_function(TURN)
        assert page.title() == render(Code.NOTICE_TITLE, "en", title=base)
        turn_icon = page.get_attribute("#favicon", "href")
        assert turn_icon is not None and turn_icon.startswith("data:image/svg+xml") and "circle" in turn_icon
        move(page)
        page.wait_for_function(NOT_TURN)
        page.wait_for_function("base => document.title === base", arg=base)
        assert page.get_attribute("#favicon", "href") != turn_icon
    # Notifications were off: none made, nothing remembered.
    assert page.evaluate("window.notes.length") == 0
    assert not page.is_checked("#notice-notify")
    assert page.evaluate("localStorage.getItem('cf-notice-notify')") is None


def test_notification_once_turned_on(browser: Browser, server: str) -> None:
    context = browser.new_context()
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.add_init_script(STAND_INS)
        # Turned on at a table still waiting for a friend (no turn comes meanwhile).
        sit_down(page, server, new_table(server, ["Ann", "", "Cy"], ["human", "human", "easy"]))
        page.click(".notices summary")
        page.check("#notice-notify")
        assert page.evaluate("localStorage.getItem('cf-notice-notify')") == "on"
        # Remembered: at the next table it is on.
        table = new_table(server, ["Ann", "Bo"])
        sit_down(page, server, table)
        assert page.is_checked("#notice-notify")
        # The tab is hidden when the turn comes: a notification; visible: none.
        page.wait_for_function(TURN)
        # Counted from the move on: once the move is seen made, the next turn may already have begun.
        page.evaluate("window.hiddenTab = true; window.notes = []; window.turns = 0")
        move(page)
        page.wait_for_function(NOT_TURN)
        page.wait_for_function(TURN)
        # Every turn that began (a turn with nothing but a draw counts too) notified once.
        turns = page.evaluate("window.turns")
        assert turns >= 1
        note = ["Your turn", render(Code.NOTICE_BODY, "en", code=table["code"])]
        assert page.evaluate("window.notes") == [note] * turns
        page.evaluate("window.hiddenTab = false; window.notes = []; window.turns = 0")
        move(page)
        page.wait_for_function(NOT_TURN)
        page.wait_for_function(TURN)
        assert page.evaluate("window.turns") >= 1 and page.evaluate("window.notes.length") == 0
        assert not errors, errors
    finally:
        context.close()

"""Before the table starts and around it: who is still missing and how to invite them (no move is
offered until everyone is seated), a name asked for on the first visit and changed later, and the
lobby's creator never shown as "You (you)"."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.i18n import render
from chickenfoot.match import Match
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for

from .conftest import watch_errors
from .helpers import ARTIFACTS, new_table, open_lobby, sit_down, state

NO_MOVES = """() => !window.chickenfoot.myTurn && !document.querySelector('.hand-tile.playable')
  && document.querySelector('#draw').hidden && document.querySelector('#pass').hidden"""


def test_a_waiting_table_names_who_is_missing_and_offers_no_move(browser: Browser, page: Page, server: str) -> None:
    table = new_table(server, ["Ann", "", "", "Di"], ["human", "human", "human", "easy"])
    sit_down(page, server, table)
    page.wait_for_selector("#waiting:not([hidden])")
    missing = render(Code.WAITING_MISSING, "en", names="Player 2 and Player 3", count=2)
    assert page.inner_text("#waiting h2") == missing
    assert page.inner_text("#status") == render(Code.TABLE_STATUS_WAITING, "en")
    # The creator's invite links, one per missing seat, with the seat's name.
    links = page.locator("#waiting .invites a")
    assert [a.get_attribute("href") for a in links.all()] == [s["invite"] for s in table["seats"] if "invite" in s]
    assert page.locator("#waiting .invites strong").all_inner_texts() == ["Player 2", "Player 3"]
    # Whoever holds the first turn, nothing is offered, not even the forced draw of the hub's search.
    page.wait_for_function(NO_MOVES)
    assert page.locator(".player.turn").count() == 0
    assert page.locator('.player[data-seat="1"] .badge').inner_text().casefold() == "not joined yet"
    shot = ARTIFACTS / "waiting"
    shot.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot / "waiting-1280.png"))

    bo_context = browser.new_context(viewport={"width": 390, "height": 844})
    bo_context.set_default_timeout(30_000)
    try:
        bo = bo_context.new_page()
        errors = watch_errors(bo)
        bo.add_init_script("localStorage.setItem('cf-name', 'Bo')")
        bo.goto(f"{server}{table['seats'][1]['invite']}")
        bo.wait_for_function("() => window.chickenfoot?.state?.seat === 1")
        # Bo is seated under the name this browser remembers, and waits for Cy with everyone.
        page.wait_for_function("() => window.chickenfoot.state.names[1] === 'Bo'")
        for who in (page, bo):
            who.wait_for_function(
                "text => document.querySelector('#waiting h2')?.textContent === text",
                arg=render(Code.WAITING_MISSING, "en", names="Player 3", count=1),
            )
            who.wait_for_function(NO_MOVES)
        # A friend has no invite links: the page says who has them.
        assert bo.locator("#waiting .invites").count() == 0
        assert render(Code.WAITING_ASK_CREATOR, "en", name="Ann") in bo.inner_text("#waiting")
        bo.screenshot(path=str(shot / "waiting-390.png"))
        assert not errors, errors
    finally:
        bo_context.close()
    # The last friend arrives and the creator starts: the waiting panel goes, the table plays.
    cy = browser.new_context().new_page()
    cy.add_init_script("localStorage.setItem('cf-name', 'Cy')")
    cy.goto(f"{server}{table['seats'][2]['invite']}")
    page.wait_for_function("() => !window.chickenfoot.state.free_seats.length")
    # Everyone is seated; Bo went away before pressing Ready: the creator starts now.
    page.click("#waiting button.start-bots")
    page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
    page.wait_for_selector("#waiting", state="hidden")
    assert page.inner_text("#status") != render(Code.TABLE_STATUS_WAITING, "en")
    cy.context.close()


def test_a_name_is_asked_once_remembered_and_changed_from_the_players_card(
    browser: Browser, page: Page, server: str
) -> None:
    open_lobby(page, server)
    # No name, no table: the lobby asks for one (the field is required) instead of calling you "You".
    page.click("#create")
    assert page.evaluate("document.querySelector('#my-name').validity.valueMissing")
    assert page.url == f"{server}/"
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
    assert page.locator(".player.me .name").inner_text() == render(Code.NAME_YOU, "en", name="Ann")
    assert page.evaluate("localStorage.getItem('cf-name')") == "Ann"
    # Another browser watches: it hears of the change.
    watcher = browser.new_context().new_page()
    watcher.goto(page.url)
    watcher.wait_for_function("() => window.chickenfoot?.state?.names[0] === 'Ann'")
    page.click(".player.me .rename")
    page.wait_for_selector("#name-dialog[open]")
    assert page.input_value("#name-input") == "Ann"
    page.fill("#name-input", "Annie <i>")
    page.click("#name-dialog button[value=save]")
    watcher.wait_for_function("() => window.chickenfoot.state.names[0] === 'Annie <i>'")
    # Plain text: the page shows the name as typed, never as markup.
    assert watcher.locator('.player[data-seat="0"] .name').inner_text() == "Annie <i>"
    assert watcher.locator('.player[data-seat="0"] i').count() == 0
    assert watcher.inner_text("#toast") == render(Code.EVENT_RENAMED, "en", old="Ann", name="Annie <i>")
    assert page.evaluate("localStorage.getItem('cf-name')") == "Annie <i>"
    # Cancelling changes nothing.
    page.click(".player.me .rename")
    page.fill("#name-input", "Zed")
    page.click("#name-dialog button[value=cancel]")
    # A chat line said after it arrives after anything the dialog could have sent (one socket, in order).
    page.fill("#chat-text", "after the dialog")
    page.click("#chat-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('after the dialog')")
    assert state(page)["names"][0] == "Annie <i>"
    watcher.context.close()


@pytest.mark.parametrize("reason", ["domino", "blocked"])
def test_the_round_results_say_who_won_the_round(page: Page, server: str, reason: str) -> None:
    """Both endings: the one who went out, or on a blocked round whoever holds the fewest points."""
    names = ("Ann", "Bo", "Cy")
    for seed in range(500):
        match = Match(Rules(max_pip=6).replace(rounds=2), players=3, seed=seed)
        while not match.round.is_over():
            match.push(match.round.legal_moves()[-1])
        if match.round.end_reason == reason:
            break
    else:
        raise AssertionError(f"no seed ended a round {reason}")
    points = match.round.points()
    winners = [seat for seat in range(3) if points[seat] == min(points)]
    page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATE given here
    page.wait_for_function("() => window.chickenfoot")
    presence = Presence(names, ("human", "bot", "bot"), (True,) * 3, (False,) * 3, (None, "medium", "medium"))
    message = json.loads(json.dumps(state_for("DEMO42", "playing", match, match.round.view(0), presence)))
    page.evaluate("(state) => window.chickenfoot.onState(state, [])", message)
    page.wait_for_selector("#round-over:not([hidden])")
    won = " and ".join(names[seat] for seat in winners) if len(winners) < 3 else "Ann, Bo and Cy"
    assert page.inner_text(".round-winner") == render(Code.ROUND_WON, "en", names=won, count=len(winners))

"""The lobby's "Play now": two people, each in their own browser, end at one table. The first waits
and sees how many are waiting and for how long; screenshots of that wait at 1280 and 390 px are saved
with the test artifacts (``artifacts/quickplay/``; the ones in ``docs/images/quickplay/`` are copies)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from .conftest import watch_errors
from .helpers import open_lobby, shot, state

TABLE = re.compile(r".*/t/([A-Z0-9]+)$")


def play_now(page: Page, server: str, name: str) -> None:
    open_lobby(page, server)
    page.wait_for_selector("#quickplay-start")
    page.fill("#my-name", name)
    page.click("#quickplay-start")


def test_two_browsers_pressing_play_now_end_at_one_table(browser: Browser, page: Page, server: str) -> None:
    play_now(page, server, "Ann")
    waiting = page.locator("#quickplay-waiting")
    waiting.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('#quickplay-count').textContent === '1 player waiting'")
    page.wait_for_function(
        "() => /You have waited 0:0[1-9]/.test(document.querySelector('#quickplay-waited').textContent)"
    )
    assert page.locator("#quickplay-form").is_hidden()
    shot(page, "quickplay/waiting-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "quickplay/waiting-390")

    bo_context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    bo_context.set_default_timeout(30_000)
    try:
        bo = bo_context.new_page()
        bo_errors = watch_errors(bo)
        play_now(bo, server, "Bo")
        bo.wait_for_url(TABLE)
        page.wait_for_url(TABLE)  # Ann hears of it with her next heartbeat
        match = TABLE.match(page.url)
        assert match is not None and bo.url.endswith(f"/t/{match.group(1)}")
        for player in (page, bo):
            player.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
        assert {state(page)["seat"], state(bo)["seat"]} == {0, 1}
        # Both asked to play now: the first deal comes once both have taken their seats, with no
        # Ready to press (a Ready asked for would keep the table waiting and this wait would fail).
        for player in (page, bo):
            player.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
            assert player.locator("#waiting").is_hidden() and player.locator("#waiting button.ready").count() == 0
        assert state(page)["names"] == state(bo)["names"] and set(state(bo)["names"]) == {"Ann", "Bo"}
        assert not bo_errors, bo_errors
    finally:
        bo_context.close()


def test_leaving_the_queue_shows_the_choices_again(page: Page, server: str) -> None:
    play_now(page, server, "Cy")
    page.locator("#quickplay-waiting").wait_for(state="visible")
    page.click("#quickplay-leave")
    page.locator("#quickplay-form").wait_for(state="visible")
    assert page.locator("#quickplay-waiting").is_hidden()
    assert page.locator("input[name=qp-kind][value=rated]").is_disabled()  # a guest plays casual


def test_a_signed_in_player_plays_now_under_their_username_without_being_asked(page: Page, server: str) -> None:
    open_lobby(page, server)
    status = page.evaluate(
        """() => fetch('/api/account/signup', {method: 'POST', headers: {'content-type': 'application/json'},
             body: JSON.stringify({username: 'Quickly', password: 'tile hub toe chicken'})}).then((r) => r.status)"""
    )
    assert status == 201
    open_lobby(page, server)
    page.wait_for_selector("#quickplay-start")
    page.evaluate("() => localStorage.removeItem('cf-name')")  # no name kept from playing as a guest
    page.fill("#my-name", "")
    with page.expect_request(
        lambda r: r.url.endswith("/api/quickplay") and r.method == "POST", timeout=5_000
    ) as joined:
        page.click("#quickplay-start")
    page.locator("#quickplay-waiting").wait_for(state="visible")
    assert not page.locator("#name-dialog").evaluate("(dialog) => dialog.open")
    assert (joined.value.post_data_json or {}).get("name") == "Quickly"
    shot(page, "quickplay/signed-in-waiting-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "quickplay/signed-in-waiting-390")
    page.click("#quickplay-leave")


def test_a_partner_whose_page_died_in_the_queue_is_covered_by_a_bot(browser: Browser, page: Page, server: str) -> None:
    """Ann's page stops being heard while she waits (its heartbeats never arrive, as when a phone loses
    its connection); Bo is paired with her first, and then does not wait at a table without her forever:
    once her lease has run out a bot takes her seat and the match begins."""
    play_now(page, server, "Ann")
    page.locator("#quickplay-waiting").wait_for(state="visible")
    page.route("**/api/quickplay/**", lambda route: route.abort())  # nothing from Ann's page arrives any more
    bo_context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    bo_context.set_default_timeout(30_000)
    try:
        bo = bo_context.new_page()
        play_now(bo, server, "Bo")
        bo.wait_for_url(TABLE)
        bo.wait_for_function("() => window.chickenfoot && window.chickenfoot.state", timeout=20_000)
        assert state(bo)["status"] == "waiting"  # for Ann, who will not come
        # Ann's lease (15 s) runs out: her seat goes to a bot and Bo's match begins, with nobody else queued.
        bo.wait_for_function(
            "() => window.chickenfoot.state.status === 'playing' && window.chickenfoot.state.kinds.includes('bot')",
            timeout=60_000,
        )
        assert page.url.endswith("/") or "/t/" not in page.url  # Ann's page never heard of the table
    finally:
        bo_context.close()

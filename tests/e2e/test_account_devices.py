"""Two devices of one account and a guest, in Chromium against a real server (the defects of issue 38):
where signing in may lead, every seat action from every device the seat is open on, "continue on
another device" moving the device that asked, signing out forgetting the seats this browser kept, and
the small things a signed-in player met (the top bar at 390 px, the name in the lobby, the account page).

The site is opened as ``localhost`` (WebAuthn refuses an IP address as its relying party), by its own
server, as in test_accounts.py.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route

from chickenfoot.i18n import render, render_wire
from chickenfoot.messages import Code

from .conftest import Device
from .helpers import create_table, shot
from .test_accounts import (
    PASSWORD,
    handover_link,
    names,
    seat_of,
    sign_in_with_password,
    sign_up_with_password,
    signed_in_as,
)

HOSTILE_NEXT = ["/%09/evil.example/x", "/%0a/evil.example/x", "/%0d/evil.example/x"]
"""``?next=`` values a browser reads as ``//evil.example/x``: it drops tabs and line breaks from a URL."""


def never_leaves(page: Page) -> list[str]:
    """Every request of ``page`` to evil.example from now on (answered here, so none leaves the machine)."""
    left: list[str] = []

    def answer(route: Route) -> None:
        left.append(route.request.url)
        route.fulfill(status=200, body="evil")

    page.route(re.compile(r"^https?://evil\.example/.*"), answer)
    return left


def test_signing_in_never_leads_off_the_site(device: Device, site: str) -> None:
    page = device()
    left = never_leaves(page)
    username = next(names)
    # A signed-out victim signs up, then signs in, from a hostile link: each lands in the lobby.
    page.goto(f"{site}/signup?next={HOSTILE_NEXT[0]}")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_url(f"{site}/")
    assert signed_in_as(page) == username
    # Signed in, the sign-in and sign-up pages go straight on, to the site's own pages only.
    for mode in ("signin", "signup"):
        for hostile in HOSTILE_NEXT:
            page.goto(f"{site}/{mode}?next={hostile}")
            page.wait_for_url(f"{site}/")
    page.goto(f"{site}/signin?next=/account")
    page.wait_for_url(f"{site}/account")
    page.goto(f"{site}/")
    page.click("#account-menu summary")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("#account-menu a[href^='/signin']")
    page.goto(f"{site}/signin?next={HOSTILE_NEXT[1]}")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_url(f"{site}/")
    assert left == []


def acted(page: Page, action: Callable[[], object], condition: str | None = None) -> None:
    """Does ``action`` on ``page``: the seat's request it makes must be answered yes, then ``condition`` hold."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/api/tables/" in r.url) as answer:
        action()
    assert answer.value.ok, answer.value.text()
    if condition is not None:
        page.wait_for_function(f"() => {condition}")


def test_every_seat_action_works_from_the_accounts_second_device(device: Device, site: str) -> None:
    laptop, phone, tablet = device(), device(390), device()
    username = next(names)
    sign_up_with_password(laptop, site, username)
    code = create_table(laptop, site, ["human", "human"])  # the laptop keeps the seat's credential
    sign_in_with_password(phone, site, username, f"/t/{code}")
    assert seat_of(phone) == 0  # by the account's session: no credential on the phone
    # List the table in the lobby, say Ready: each from the phone.
    acted(phone, lambda: phone.check("#table-public"), "window.chickenfoot.state.public === true")
    acted(phone, lambda: phone.click("#waiting button.ready"), "window.chickenfoot.state.ready[0] === true")
    # The creator's invite links: the laptop has them; the phone makes new ones, which a guest claims.
    acted(phone, lambda: phone.click("#waiting .new-invites"))
    invite = phone.locator("#waiting .invites a").first
    invite.wait_for()
    href = invite.get_attribute("href")
    assert href and href.startswith(f"/t/{code}?invite=")
    tablet.goto(f"{site}{href}")
    assert seat_of(tablet) == 1
    # Start with bots is the creator's, from either device; nobody is missing, so it starts now.
    acted(phone, lambda: phone.click("#waiting .start-bots"), "window.chickenfoot.state.status === 'playing'")
    # Leave the table, from the phone.
    phone.click("#leave")
    acted(phone, lambda: phone.locator("#confirm-dialog button[value=yes]").click())
    phone.wait_for_url(f"{site}/")
    laptop.wait_for_function("() => window.chickenfoot.state.left?.[0] === true")


def test_continue_on_another_device_moves_the_device_that_asked(device: Device, site: str) -> None:
    """The laptop holds the seat's credential, the phone the account's session; the phone asks, a
    guest tablet takes the link: the tablet plays, and the phone and the laptop watch."""
    laptop, phone, tablet = device(), device(390), device()
    username = next(names)
    sign_up_with_password(laptop, site, username)
    code = create_table(laptop, site, ["human", "easy"])
    assert seat_of(laptop) == 0
    sign_in_with_password(phone, site, username, f"/t/{code}")
    assert seat_of(phone) == 0
    link = handover_link(phone)
    tablet.goto(link)
    assert seat_of(tablet) == 0
    elsewhere = """() => window.chickenfoot?.state?.seat === null
        && window.chickenfoot.state.watching?.reason === 'seat_elsewhere'"""
    for each in (phone, laptop):
        each.wait_for_function(elsewhere)
        assert each.locator("#handover").is_hidden()
    # Coming back changes nothing: the seat is open on the tablet alone.
    for each in (phone, laptop):
        each.reload()
        each.wait_for_function(elsewhere)
    tablet.wait_for_function("() => window.chickenfoot?.state?.seat === 0 && !window.chickenfoot.state.watching")


def test_signing_out_forgets_the_seats_this_browser_kept(device: Device, site: str) -> None:
    laptop = device()
    username = next(names)
    sign_up_with_password(laptop, site, username)
    code = create_table(laptop, site, ["human", "easy"])
    assert laptop.evaluate(f"() => localStorage.getItem('cf-token-{code}')")
    laptop.click("#account-menu summary")
    laptop.get_by_role("button", name="Sign out").click()
    laptop.wait_for_selector("#account-menu a[href^='/signin']")
    kept = laptop.evaluate("() => Object.keys(localStorage).filter((k) => /^cf-(token|invites)-/.test(k))")
    assert kept == []
    laptop.goto(f"{site}/t/{code}")
    assert seat_of(laptop) is None  # the next person at this computer watches
    # Signed in again, the seat is the account's as before.
    sign_in_with_password(laptop, site, username, f"/t/{code}")
    assert seat_of(laptop) == 0


def top_bar_fits(page: Page) -> dict[str, Any]:
    facts: dict[str, Any] = page.evaluate(
        """() => ({
            scroll: document.documentElement.scrollWidth,
            bar: document.querySelector('.topbar').scrollWidth,
            theme: document.querySelector('#theme').getBoundingClientRect().right,
        })"""
    )
    return facts


@pytest.mark.parametrize("language", ["en", "lt", "lv", "fy"])
def test_the_signed_in_table_and_lobby_at_390_px(device: Device, site: str, language: str) -> None:
    phone = device(390, language=language)
    username = next(names)
    sign_up_with_password(phone, site, username)
    phone.wait_for_function("() => document.querySelector('#my-name').value !== ''")
    assert phone.input_value("#my-name") == username  # "Your name" is the account's
    code = create_table(phone, site, ["human", "easy"])
    phone.wait_for_selector("#account-menu summary")
    for page_path in (f"/t/{code}", "/", "/account", "/leaderboard"):
        phone.goto(f"{site}{page_path}")
        phone.wait_for_selector("#account-menu summary")
        facts = top_bar_fits(phone)
        assert facts["scroll"] <= 390 and facts["bar"] <= 390 and facts["theme"] <= 390, (page_path, facts)
    phone.goto(f"{site}/t/{code}")
    phone.wait_for_selector("#account-menu summary")
    shot(phone, f"account-devices/table-signed-in-{language}-390")


def test_the_account_page_of_a_player(device: Device, site: str) -> None:
    page = device()
    sign_up_with_password(page, site, next(names), "/account")
    page.wait_for_selector("#account:not([hidden])")
    # A player is no bot account: no API tokens to speak of.
    assert page.locator("#tokens").is_hidden()
    assert page.get_by_role("heading", name=render(Code.TOKENS_TITLE, "en"), exact=True).count() == 0
    # A disabled button looks it (one session: nothing to sign out elsewhere).
    others, everywhere = page.locator("#sign-out-others"), page.locator("#sign-out-everywhere")
    assert others.is_disabled() and everywhere.is_enabled()
    look = "b => { const s = getComputedStyle(b); return [s.opacity, s.cursor, s.color, s.backgroundColor].join(' ') }"
    assert others.evaluate(look) != everywhere.evaluate(look)
    assert float(others.evaluate("b => getComputedStyle(b).opacity")) < 1


def test_sign_up_asks_for_the_username_once(device: Device, site: str) -> None:
    page = device()
    page.goto(f"{site}/signup")
    page.wait_for_selector("#signin:not([hidden])")
    assert page.get_by_label("Username").count() == 1
    page.goto(f"{site}/signin")
    page.wait_for_selector("#signin:not([hidden])")
    assert page.get_by_label("Username").count() == 1


def test_a_passkey_at_an_ip_address_says_what_to_do(device: Device, site: str) -> None:
    page = device(authenticator=True, language="lv")
    by_address = site.replace("localhost", "127.0.0.1")
    page.goto(f"{by_address}/signup")
    page.fill("#username", next(names))
    page.click("#passkey-go")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.locator("#error").inner_text() == render(Code.ACCOUNT_PASSKEY_NEEDS_NAME, "lv")


def signed_in_long_ago(database_url: str) -> None:
    """Every session of the site's database signed in an hour earlier than it did."""
    path = database_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE account_sessions SET created_at = datetime(created_at, '-1 hour')")


def test_a_new_password_long_after_signing_in_is_confirmed_first(device: Device, served_site: tuple[str, str]) -> None:
    site, database = served_site
    page = device(language="lt")
    sign_up_with_password(page, site, next(names), "/account")
    page.wait_for_selector("#account:not([hidden])")
    signed_in_long_ago(database)
    page.fill("#new-password", "a new tile hub")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#reauth-dialog[open]")
    assert page.inner_text("#reauth-note") == render_wire({"code": "account.confirm_needed", "count": 10}, "lt")
    page.fill("#reauth-password", "not the password")
    page.click("#reauth-with-password")
    page.wait_for_function("() => document.querySelector('#reauth-error').textContent !== ''")
    assert page.inner_text("#reauth-error") == render(Code.ACCOUNT_CONFIRM_FAILED, "lt")
    page.fill("#reauth-password", PASSWORD)
    page.click("#reauth-with-password")
    page.wait_for_selector("#reauth-dialog", state="hidden")
    page.wait_for_function("() => document.querySelector('#notice').textContent !== ''")
    assert page.inner_text("#notice") == render(Code.ACCOUNT_SAVED, "lt")
    # Not staying signed in here: the page says so, and forgets the seats this browser kept.
    page.uncheck("#keep-this-device")
    page.fill("#new-password", PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#gone:not([hidden])")
    assert page.inner_text("#gone-text") == render(Code.ACCOUNT_SIGNED_OUT, "lt")

"""The account pages in Chromium against a real server: passkeys through Chromium's virtual
authenticator (CDP ``WebAuthn``), two devices of one account, a guest who signs up mid-match, and
"continue on another device" by its link; each page scanned with axe-core and photographed at 390
and 1280 px in every language.

The site is opened as ``localhost``: WebAuthn refuses an IP address as its relying party. This
module runs its own server, so its sign-ins never meet the shared server's per-address limits.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import Device
from .helpers import ARTIFACTS, new_table, sit_down
from .test_accessibility import SCAN, SERIOUS

SHOTS = ARTIFACTS / "accounts"
PASSWORD = "tile hub toe chicken"
LANGUAGES = ["en", "fy", "lt", "lv"]
names = (f"player{n}" for n in itertools.count(1))


def signed_in_as(page: Page) -> str:
    """The name the header's account menu shows (waits for it)."""
    return page.locator("#account-menu summary").inner_text(timeout=30_000)


def sign_up_with_password(page: Page, site: str, username: str, next_path: str = "/") -> None:
    page.goto(f"{site}/signup?next={next_path}")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_url(f"{site}{next_path}")


def sign_in_with_password(page: Page, site: str, username: str, next_path: str = "/") -> None:
    page.goto(f"{site}/signin?next={next_path}")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_url(f"{site}{next_path}")


def seat_of(page: Page) -> Any:
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
    return page.evaluate("() => window.chickenfoot.state.seat")


def test_passkey_sign_up_then_sign_in(device: Device, site: str) -> None:
    page = device(authenticator=True)
    username = next(names)
    page.goto(f"{site}/signup?next=/account")
    page.fill("#username", username)
    page.click("#passkey-go")
    page.wait_for_url(f"{site}/account")
    page.wait_for_selector("#account:not([hidden])")
    assert page.locator("#username").inner_text() == username
    assert page.locator("#passkeys li").count() == 1
    assert page.locator("#passkeys button").is_disabled()  # the only way in cannot go
    # Signed out, the same authenticator signs in again: a resident key, no name typed.
    page.goto(f"{site}/")
    assert signed_in_as(page) == username
    page.click("#account-menu summary")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("#account-menu a[href^='/signin']")
    page.goto(f"{site}/signin")
    page.click("#passkey-go")
    page.wait_for_url(f"{site}/")
    assert signed_in_as(page) == username


def test_a_refused_sign_in_is_said_in_words(device: Device, site: str) -> None:
    page = device(language="lt")
    page.goto(f"{site}/signin")
    page.fill("#username", "nobody-here")
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.locator("#error").inner_text() == "Neteisingas naudotojo vardas arba slaptažodis"
    assert page.url == f"{site}/signin"


def test_two_devices_of_one_account_share_the_seat_until_signed_out_everywhere(device: Device, site: str) -> None:
    laptop, phone = device(), device(390)
    username = next(names)
    sign_up_with_password(laptop, site, username)
    table = laptop.evaluate(
        """async () => (await (await fetch('/api/tables', {
            method: 'POST', headers: {'content-type': 'application/json'},
            body: JSON.stringify({seats: [{kind: 'human'}, {kind: 'human'}]})})).json())"""
    )
    code = table["code"]
    laptop.goto(f"{site}/t/{code}")  # no seat credential kept: the account's seat
    assert seat_of(laptop) == 0
    sign_in_with_password(phone, site, username, f"/t/{code}")
    assert seat_of(phone) == 0
    assert signed_in_as(phone) == username
    # Both devices play the seat, and each says on its own card that the other is open too.
    elsewhere = "#players .player.me .badge.elsewhere"
    for each in (laptop, phone):
        each.wait_for_selector(elsewhere)
        assert each.text_content(elsewhere) == "also open on another device"
    phone.goto(f"{site}/")  # the phone leaves the table: the laptop is the seat's only device again
    laptop.wait_for_selector(elsewhere, state="detached")
    phone.goto(f"{site}/t/{code}")
    assert seat_of(phone) == 0
    # The laptop ends every session: the phone, seated by its session, drops to watching at once.
    laptop.goto(f"{site}/account")
    laptop.wait_for_selector("#account:not([hidden])")
    assert laptop.locator("#session-count").inner_text() == "Signed in on 2 devices"
    assert laptop.locator(".this-device").count() == 1
    laptop.click("#sign-out-everywhere")
    laptop.locator("#confirm-dialog button[value=yes]").click()
    laptop.wait_for_selector("#gone:not([hidden])")
    phone.wait_for_function("() => window.chickenfoot.state.seat === null")
    phone.wait_for_function("() => document.querySelector('#toast').textContent.includes('signed out')")
    phone.reload()
    assert seat_of(phone) is None
    phone.wait_for_selector("#account-menu a[href^='/signin']")


def test_a_guest_who_signs_up_mid_match_keeps_the_seat(device: Device, site: str) -> None:
    guest, other = device(), device()
    table = new_table(site, ["Ann", "Bo"])
    sit_down(guest, site, table)
    assert seat_of(guest) == 0
    guest.click("#account-menu a")  # "Sign in", coming back here after
    guest.wait_for_url(re.compile(r".*/signin\?next="))
    guest.click("#other-way")  # no account yet: create one
    username = next(names)
    guest.fill("#username", username)
    guest.fill("#password", PASSWORD)
    guest.click("#password-go")
    guest.wait_for_url(f"{site}/t/{table['code']}")
    assert seat_of(guest) == 0 and signed_in_as(guest) == username
    # The seat follows the account: another device of it, with no seat credential, sits there.
    sign_in_with_password(other, site, username, f"/t/{table['code']}")
    assert seat_of(other) == 0


def test_the_operators_reset_link_lands_on_the_account_page(device: Device, served_site: tuple[str, str]) -> None:
    site, database = served_site
    page = device(authenticator=True)
    username = next(names)
    sign_up_with_password(page, site, username)
    page.context.clear_cookies()
    command = [sys.executable, "-m", "chickenfoot", "account", "reset", username, "--database-url", database]
    printed = subprocess.run([*command, "--origin", site], capture_output=True, text=True, check=True).stdout.strip()
    assert printed.startswith(f"{site}/account#link=")
    page.goto(printed)
    page.wait_for_selector("#account:not([hidden])")
    assert page.url == f"{site}/account"  # the secret leaves the address
    assert page.locator("#notice").inner_text().startswith("You are signed in with your operator's link")
    assert page.locator("#password-state").inner_text() == "You have no password."
    page.click("#add-passkey button")
    page.wait_for_function("() => document.querySelectorAll('#passkeys li button').length === 1")
    # Spent: the same link on another device says so.
    again = device()
    again.goto(printed)
    again.wait_for_selector("#gone:not([hidden])")
    assert "expired or was used" in again.locator("#gone-text").inner_text()


def handover_link(page: Page) -> str:
    page.click("#handover-open")
    page.wait_for_selector("#handover-dialog[open]")
    page.wait_for_function("() => document.querySelector('#handover-qr').complete")
    return page.locator("#handover-link").input_value()


def test_continue_on_another_device_by_link(device: Device, site: str) -> None:
    laptop, phone, stranger = device(), device(390), device()
    table = new_table(site, ["Ann", "Bo"])
    sit_down(laptop, site, table)
    link = handover_link(laptop)
    assert link.startswith(f"{site}/t/{table['code']}#handover=")
    assert laptop.locator("#handover-qr").evaluate("img => img.naturalWidth") > 0
    phone.goto(link)
    assert seat_of(phone) == 0
    assert "#" not in phone.url  # the spent link leaves the address
    # The laptop is told, and watches, knowing why.
    laptop.wait_for_function(
        "() => window.chickenfoot.state.seat === null && window.chickenfoot.state.watching?.reason === 'seat_elsewhere'"
    )
    assert laptop.locator("#handover").is_hidden()
    # Single use: whoever opens the link again only watches, and is told why.
    stranger.goto(link)
    assert seat_of(stranger) is None
    stranger.wait_for_function("() => document.querySelector('#toast').textContent.includes('expired')")


def scan(page: Page, axe: Path, name: str) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(axe))
    violations: list[dict[str, Any]] = page.evaluate(SCAN)
    (SHOTS / f"{name}.axe.txt").write_text(
        "\n".join(f"{v['impact']}: {v['id']} ({v['help']}) {v['nodes']}" for v in violations) + "\n"
    )
    return [v for v in violations if v["impact"] in SERIOUS]


def photographed(page: Page, axe: Path, name: str) -> list[dict[str, Any]]:
    """A screenshot of the page as it is, then its serious axe findings (and any sideways scrolling)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, f"{name} is wider than the screen"
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    return scan(page, axe, name)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language(device: Device, site: str, axe_script: Path, language: str, width: int) -> None:
    page = device(width, language=language, bypass_csp=True)  # axe is injected as an inline script
    found: dict[str, list[dict[str, Any]]] = {}
    for mode in ("signup", "signin"):
        page.goto(f"{site}/{mode}")
        page.wait_for_selector("#signin:not([hidden])")
        found[mode] = photographed(page, axe_script, f"{mode}-{language}-{width}")
    table = new_table(site, ["Ann", "Bo"])
    sit_down(page, site, table)
    handover_link(page)
    found["handover"] = photographed(page, axe_script, f"handover-{language}-{width}")
    page.locator("#handover-close").click()
    page.goto(f"{site}/signup?next=/account")
    page.fill("#username", next(names))
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_selector("#account:not([hidden])")
    found["account"] = photographed(page, axe_script, f"account-{language}-{width}")
    page.goto(f"{site}/")
    page.click("#account-menu summary")
    found["menu"] = photographed(page, axe_script, f"menu-{language}-{width}")
    assert found == {name: [] for name in found}

"""The account page's tokens section (web/tokens.js): a bot account mints a token (shown once), lists
and revokes it; a new account turns itself into a bot account there, an account that has played cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from chickenfoot.testing.bot_accounts import PASSWORD
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import watch_errors
from .helpers import ARTIFACTS

SHOTS = ARTIFACTS / "bots"


def signed_up(page: Page, username: str) -> None:
    body = {"username": username, "password": PASSWORD}
    page.evaluate(
        """body => fetch("/api/account/signup", {method: "POST", headers: {"content-type": "application/json"},
            body: JSON.stringify(body)})""",
        body,
    )


def test_a_new_account_becomes_a_bot_account_on_its_page(browser: Browser, tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        for width in (390, 1280):
            context = browser.new_context(viewport={"width": width, "height": 900})
            context.set_default_timeout(30_000)
            page = context.new_page()
            errors = watch_errors(page)
            page.goto(server)
            signed_up(page, f"newbot{width}")
            page.goto(f"{server}/account")
            upgrade = page.locator("#bot-account")
            expect(upgrade).to_contain_text("never sits at a table in the browser")
            expect(page.locator("#tokens")).to_be_hidden()
            upgrade.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"bot-upgrade-{width}.png"))
            upgrade.get_by_role("button", name="Make this a bot account").click()
            page.locator("#confirm-dialog").get_by_role("button", name="Make this a bot account").click()
            expect(page.locator("#notice")).to_have_text("This is now a bot account: make its first API token below.")
            expect(upgrade).to_be_hidden()
            tokens = page.locator("#tokens")
            tokens.get_by_role("button", name="New token").click()
            expect(tokens.locator("code")).to_contain_text("cfb_")
            context.close()
            assert not errors, errors
        # A player who has sat at a table is told why the account stays theirs, and offered no button.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(server)
        signed_up(page, "person")
        page.evaluate("""() => fetch("/api/tables", {method: "POST", headers: {"content-type": "application/json"},
            body: JSON.stringify({seats: [{kind: "human"}, {kind: "bot"}]})})""")
        page.goto(f"{server}/account")
        expect(page.locator("#bot-account")).to_contain_text("create a new account for your bot")
        expect(page.get_by_role("button", name="Make this a bot account")).to_be_hidden()
        context.close()


def test_a_bot_account_mints_and_revokes_a_token(browser: Browser, tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server)
        signed_up(page, "tokenbot")
        command = [sys.executable, "-m", "chickenfoot", "account", "bot", "tokenbot", "--database-url", database_url]
        subprocess.run(command, check=True, capture_output=True)
        page.goto(f"{server}/account")  # the account page draws its tokens section
        tokens = page.locator("#tokens")
        expect(tokens.get_by_text("No token yet.")).to_be_visible()
        tokens.get_by_placeholder("Name of the new token").fill("laptop")
        tokens.get_by_role("button", name="New token").click()
        expect(tokens.locator("code")).to_contain_text("cfb_")
        expect(tokens.locator("li")).to_contain_text("laptop")
        tokens.get_by_role("button", name="Revoke").click()
        expect(tokens.get_by_text("No token yet.")).to_be_visible()
        context.close()
        assert not errors, errors

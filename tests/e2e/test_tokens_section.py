"""The account page's tokens section (web/tokens.js): a bot account mints a token (shown once), lists
and revokes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, expect

from chickenfoot.testing.bot_accounts import PASSWORD
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import watch_errors


def test_a_bot_account_mints_and_revokes_a_token(browser: Browser, tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server)
        body = {"username": "tokenbot", "password": PASSWORD}
        page.evaluate(
            """body => fetch("/api/account/signup", {method: "POST", headers: {"content-type": "application/json"},
                body: JSON.stringify(body)})""",
            body,
        )
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

"""The lobby's Bots section: a bot account listed with its BOT tag, and "Play" starting a table that invites it."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from .conftest import watch_errors
from .helpers import ARTIFACTS, serving_bot_account

SHOTS = ARTIFACTS / "bots"


def test_a_person_invites_a_bot_account_from_the_lobby(browser: Browser, tmp_path: Path) -> None:
    with serving_bot_account(tmp_path, "dominobot") as (server, token):
        for width, height in ((1280, 900), (390, 844)):
            context = browser.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(30_000)
            page = context.new_page()
            errors = watch_errors(page)
            page.goto(server)
            bots = page.locator("section", has=page.get_by_role("heading", name="Bots"))
            expect(bots.locator("li")).to_have_text("dominobotBOT2 players 1500? · 3–4 players 1500?Play")
            bots.scroll_into_view_if_needed()
            bots.screenshot(path=str(SHOTS / f"lobby-bots-{width}.png"))
            context.close()
            assert not errors, errors
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(server)
        page.locator("#my-name").fill("Ada")
        with httpx.stream(
            "GET", f"{server}/api/bot/stream", headers={"Authorization": f"Bearer {token}"}, timeout=30
        ) as events:
            lines = (json.loads(line) for line in events.iter_lines() if line)
            assert next(lines)["type"] == "hello"
            page.get_by_role("button", name="Play", exact=True).click()
            page.wait_for_url("**/t/*")
            invitation = next(lines)
        code = page.url.rsplit("/", 1)[1]
        assert invitation["type"] == "invitation" and invitation["table"] == code
        # "Ada" is only a name typed at the table, which anyone could type: the invitation names the
        # inviting account, and a guest has none.
        assert invitation["from"] is None and invitation["rated"] is False
        context.close()

"""Bot accounts in the browser, played by the example random client (a process of its own): a challenge
from a bot account's profile (the person lands at the new table, the bot takes its seat and plays), and
the BOT tag in the replay of a match it played."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import watch_errors
from .helpers import ARTIFACTS, AUTOPLAY, api, ready_all, serving_bot_account, sit_down

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHOTS = ARTIFACTS / "bots"
# A move of seat 1 that placed a tile: the bot's own choice (the server makes only forced draws and passes).
BOT_PLACED = """() => (window.chickenfoot.state?.log ?? []).some(
  (entry) => entry.seat === 1 && entry.move && entry.move !== 'draw' && entry.move !== 'pass')"""


@contextmanager
def random_bot(server: str, token: str) -> Iterator[None]:
    """examples/random_bot.py playing as the token's bot account; checks on leaving that it did not fail."""
    command = [sys.executable, str(EXAMPLES / "random_bot.py"), server, token]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as bot:
        try:
            yield
        finally:
            playing = bot.poll() is None
            bot.kill()
            _, complaints = bot.communicate(timeout=30)
    assert playing, complaints


def at_width(browser: Browser, width: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844})
    context.set_default_timeout(60_000)
    return context.new_page()


def test_a_person_challenges_a_bot_account_from_its_profile(browser: Browser, tmp_path: Path) -> None:
    with serving_bot_account(tmp_path, "dominobot") as (server, token), random_bot(server, token):
        page = at_width(browser, 1280)
        errors = watch_errors(page)
        page.add_init_script("localStorage.setItem('cf-name', 'Ada')")  # the name the lobby kept
        page.goto(f"{server}/u/dominobot")
        expect(page.locator("h1 .bot-tag")).to_have_text("BOT")
        page.locator("#challenge").click()
        page.wait_for_url("**/t/*")
        page.wait_for_function("() => window.chickenfoot?.state")
        ready_all(page)  # the bot accepted and sat down ready: the match begins with the person's Ready
        state = page.evaluate("() => window.chickenfoot.state")
        assert state["seat"] == 0 and state["bot_accounts"] == [False, True]
        assert state["names"] == ["Ada", "dominobot"]
        expect(page.locator(".player .bot-tag")).to_have_text("BOT")
        page.evaluate(AUTOPLAY)
        page.wait_for_function(BOT_PLACED)
        page.evaluate("() => clearInterval(window.autoplay)")
        page.context.close()
        assert not errors, errors


def test_a_replay_tags_the_bot_account_bot(browser: Browser, tmp_path: Path) -> None:
    with serving_bot_account(tmp_path, "dominobot") as (server, token), random_bot(server, token):
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "human"}]
        table = api(server, "POST", "/api/tables", {"seats": seats, "rounds": 1})
        invitation = {"token": table["token"], "bot": "dominobot"}
        api(server, "POST", f"/api/tables/{table['code']}/seats/1/invite", invitation)
        page = at_width(browser, 1280)
        sit_down(page, server, table, "Ada")
        ready_all(page)
        page.evaluate(AUTOPLAY)
        page.wait_for_function("() => window.chickenfoot.state.match_over")
        page.evaluate("() => clearInterval(window.autoplay)")
        page.context.close()
        for width in (1280, 390):
            page = at_width(browser, width)
            page.goto(f"{server}/r/{table['code']}")
            names = page.locator("#hands .player .name")
            expect(names).to_have_count(2)
            expect(names.nth(0)).to_have_text("Ada")  # a person: no tag
            expect(names.nth(1)).to_have_text("dominobotBOT")
            expect(names.nth(1).locator(".bot-tag")).to_have_text("BOT")
            page.screenshot(path=str(SHOTS / f"replay-bot-{width}.png"))
            page.context.close()

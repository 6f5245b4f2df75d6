"""A rated match against the fastest bot level, in a real server and browser: the Rated mark when
creating the table and at it, the rating change in the match-over results, and the leaderboard.
Screenshots of both at 390 and 1280 px go to artifacts/ratings/ (scripts/screenshots.sh copies those a page shows)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.clock import SYSTEM_CLOCK, SystemClock, utc
from chickenfoot.server.ratings.model import Family
from chickenfoot.server.ratings.rated import RatedMatch, RatedSeat
from chickenfoot.server.ratings.service import Ratings
from chickenfoot.server.storage import Storage
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .helpers import ARTIFACTS, AUTOPLAY, api, create_table, open_lobby

IMAGES = ARTIFACTS / "ratings"  # docs/images/ratings/ copies one: scripts/screenshots.sh
PASSWORD = "tile hub toe chicken"
BOT_ACCOUNT = "dominobot"


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server whose bots move at once (pace 0), and its database's URL."""
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('ratings') / 'games.sqlite3'}"
    with served(port, database, pace=0.0, options=OPEN_LIMITS):
        yield f"http://127.0.0.1:{port}", database


def sign_up(page: Page, username: str) -> None:
    status = page.evaluate(
        """([username, password]) => fetch('/api/account/signup', {method: 'POST',
             headers: {'content-type': 'application/json'}, body: JSON.stringify({username, password})})
           .then((r) => r.status)""",
        [username, PASSWORD],
    )
    assert status == 201


def seed_leaderboard(database: str) -> None:
    """Players with established ratings, written as finished rated matches would (in a thread of its
    own: Playwright's loop runs in this one); the last of them is a bot account."""

    async def seed() -> None:
        storage = Storage(database, SystemClock())
        store, ratings = AccountStore(storage), Ratings(storage, SYSTEM_CLOCK)
        ids = []
        for name in ("Aušra", "Jildou", "Mārtiņš", "Wietske", "Tomas", BOT_ACCOUNT):
            account = await store.create(name, f"handle-{name}", utc(SYSTEM_CLOCK))
            assert account is not None
            ids.append(account.id)
        assert await make_bot_account(database, BOT_ACCOUNT, mint=False, clock=SystemClock()) is True
        for n in range(24):
            for a, b in ((0, 1), (2, 3), (1, 4), (0, 2), (3, 4), (5, 1), (2, 5)):
                first, second = (a, b) if (n + a + b) % 5 else (b, a)
                await ratings.record(
                    RatedMatch(f"S{n:02}{a}{b}", Family.HEADS_UP, (RatedSeat(1, ids[first]), RatedSeat(2, ids[second])))
                )
        await storage.close()

    thread = threading.Thread(target=asyncio.run, args=(seed(),))
    thread.start()
    thread.join()


def sized(browser: Browser, width: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 860 if width > 500 else 844})
    context.set_default_timeout(60_000)
    return context.new_page()


def test_a_rated_match_ends_with_the_rating_change(browser: Browser, rated_server: tuple[str, str]) -> None:
    base, database = rated_server
    page = sized(browser, 1280)
    open_lobby(page, base)
    sign_up(page, "Ann")
    open_lobby(page, base)
    page.select_option("#seat-count", "2")
    # The lobby gives a signed-in player the account's name (typing while it does would add to it).
    page.wait_for_function("() => document.querySelector('#my-name').value === 'Ann'")
    page.locator("#seats li").nth(1).locator(".seat-bot").select_option("easy")
    assert page.locator("#rated-kind").inner_text().strip() == "CASUAL"  # text-transform: shown in capitals
    page.check("#rated-table")
    assert page.locator("#rated-kind .rated-mark").text_content() == "Rated"
    page.click("#create")
    page.wait_for_selector(".player")
    page.wait_for_selector(".topbar .rated-mark.rated")
    page.evaluate(AUTOPLAY)
    page.wait_for_function("() => window.chickenfoot.state?.match_over", timeout=240_000)
    line = page.locator("#ro-body .rating-change.mine")
    line.wait_for()
    text = line.inner_text()
    assert text.startswith("Ann: 1500 → ") and text.endswith(")"), text
    before, after = text.removeprefix("Ann: ").split(" (")[0].split(" → ")
    delta = text.split(" (")[1].rstrip(")").replace("\u2212", "-").replace("\u00b1", "")
    assert int(after.rstrip("?")) - int(before) == int(delta)
    won = page.evaluate("() => window.chickenfoot.state.match_over.winners.includes(0)")
    assert (int(delta) > 0) == won
    page.evaluate("() => clearInterval(window.autoplay)")
    page.screenshot(path=str(IMAGES / "match-over-1280.png"))
    code = page.evaluate("() => window.chickenfoot.code")
    small = sized(browser, 390)
    small.goto(f"{base}/t/{code}")  # someone watching on a narrow screen sees the same results
    small.wait_for_function("() => window.chickenfoot?.state?.match_over")
    small.locator("#ro-body .rating-change").wait_for()
    assert small.locator("#ro-body .rating-change").inner_text() == text
    small.screenshot(path=str(IMAGES / "match-over-390.png"))

    seed_leaderboard(database)
    for width, view in ((1280, page), (390, small)):
        view.goto(f"{base}/leaderboard")
        view.locator("#players tbody tr").first.wait_for()
        view.screenshot(path=str(IMAGES / f"leaderboard-{width}.png"), full_page=True)
    rows = page.locator("#players tbody tr")
    assert rows.count() == 6  # Ann is provisional after one match: not listed
    tagged = rows.filter(has=page.locator(".bot-tag"))  # the bot account's row, tagged as on the table's cards
    assert tagged.count() == 1 and tagged.locator("td").nth(1).inner_text() == f"{BOT_ACCOUNT}BOT"
    assert page.locator("#bots tbody tr").count() == 4
    # The profile shows the rating, the rank and the history: one dot per rated match.
    history = page.evaluate("() => fetch('/api/ratings/Aušra').then((r) => r.json())")["families"]["2"]["history"]
    assert len(history) == 48
    for width, view in ((1280, page), (390, small)):
        view.goto(f"{base}/u/Aušra")
        section = view.locator("section[aria-labelledby='rating-title-2']")
        section.wait_for()
        assert section.locator("svg.rating-history circle").count() == 48
        # The line starts where the first match started from: a point more than the matches.
        assert (section.locator("svg.rating-history polyline").get_attribute("points") or "").count(",") == 49
        assert f"{history[-1]['rating']}" in section.locator(".rating-now").inner_text()
        view.screenshot(path=str(IMAGES / f"profile-{width}.png"), full_page=True)
    page.context.close()
    small.context.close()


def test_the_rating_chart_starts_before_the_first_match(browser: Browser, rated_server: tuple[str, str]) -> None:
    """A newcomer's first rated match moves the rating most: the chart's line starts at 1500, before it."""
    base, database = rated_server

    async def seed() -> None:
        storage = Storage(database, SYSTEM_CLOCK)
        account = await AccountStore(storage).create("Newcomer", "handle-newcomer", utc(SYSTEM_CLOCK))
        assert account is not None
        ratings = Ratings(storage, SYSTEM_CLOCK)
        for n, rank in enumerate((2, 1, 2)):
            seats = (RatedSeat(rank, account.id), RatedSeat(3 - rank, level="medium"))
            await ratings.record(RatedMatch(f"NEW{n}", Family.HEADS_UP, seats))
        await storage.close()

    thread = threading.Thread(target=asyncio.run, args=(seed(),))
    thread.start()
    thread.join()
    history = [p["rating"] for p in api(base, "GET", "/api/ratings/Newcomer")["families"]["2"]["history"]]
    for width in (1280, 390):
        page = sized(browser, width)
        page.goto(f"{base}/u/Newcomer")
        chart = page.locator("section[aria-labelledby='rating-title-2'] svg.rating-history")
        chart.wait_for()
        points = (chart.locator("polyline").get_attribute("points") or "").split()
        assert len(points) == len(history) + 1 and chart.locator("circle").count() == len(history)
        assert "1500" in chart.locator("text.axis").all_text_contents()  # the top of the chart: where it began
        page.screenshot(path=str(ARTIFACTS / f"rating-chart-{width}.png"), full_page=True)
        page.context.close()


HINTS_OFFERED = "() => !document.querySelector('#hints').closest('label').hidden"


def test_a_rated_table_offers_no_hints_to_its_player_nor_to_a_spectator(
    browser: Browser, rated_server: tuple[str, str]
) -> None:
    base, _database = rated_server
    page = sized(browser, 1280)
    open_lobby(page, base)
    sign_up(page, "Hana")
    open_lobby(page, base)
    page.select_option("#seat-count", "2")
    page.locator("#seats li").nth(1).locator(".seat-bot").select_option("easy")
    page.check("#rated-table")
    page.click("#create")
    page.wait_for_selector(".topbar .rated-mark.rated")
    page.wait_for_function(f"() => !({HINTS_OFFERED})()")
    page.keyboard.press("h")  # the shortcut that turns hints on does nothing here
    assert not page.locator("#hints").is_checked()
    code = page.evaluate("() => window.chickenfoot.state.code")
    answer = page.evaluate(  # asked anyway, over the page's own socket: refused with its code
        """() => new Promise((resolve) => {
             const socket = new WebSocket(`ws://${location.host}/ws/${window.chickenfoot.state.code}`);
             socket.onopen = () => socket.send(JSON.stringify({type: 'hint'}));
             socket.onmessage = (event) => {
               const message = JSON.parse(event.data);
               if (message.type === 'error') resolve(message.code);
             };
           })"""
    )
    assert answer == "rating.no_hints"
    watcher = sized(browser, 390)  # another device, signed in as nobody: a spectator
    watcher.goto(f"{base}/t/{code}")
    watcher.wait_for_selector(".rated-mark.rated:visible")  # on a phone, beside the status line
    watcher.wait_for_function(f"() => !({HINTS_OFFERED})()")
    page.screenshot(path=str(IMAGES / "rated-no-hints-1280.png"))
    watcher.screenshot(path=str(IMAGES / "rated-no-hints-390.png"))
    casual = sized(browser, 1280)  # a casual table still offers them
    create_table(casual, base, ["human", "easy"])
    casual.wait_for_selector(".topbar .rated-mark.casual")
    assert casual.evaluate(HINTS_OFFERED)

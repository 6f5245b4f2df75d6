"""Turn-based tables in the browser: two accounts on two devices (browser contexts) play a match of two
and a match of four to the end over a fake clock that spans days, with the server restarted in the
middle; a player who lets their day run out has their move played by a bot; the table shows its pace,
the mover's deadline and a vacation; the top bar counts the tables that wait; screenshots at 390 and
1280 px in the four languages.

The server runs in a thread of this process, on a :class:`~chickenfoot.server.clock.FakeClock` the test
moves (a server in a child process could not be handed one); a restart stops it and starts another on
the same database, its clock going on where the other's stood.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page

from chickenfoot.server import Settings, create_app
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.edge.client import ConnectionLimits
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.table.config import DAY, HOUR, Timing
from chickenfoot.testing.launch import free_port
from chickenfoot.testing.waiting import until_now

from .conftest import watch_errors
from .helpers import AUTOPLAY, shot

TIMING = Timing(bot_delay=0, forced_delay=0, next_round_delay=0, grace=12, bot_seconds=0.05)
OPEN = AddressLimits("1000000/minute", "1000000/minute", cutoff=None, chat="1000000/minute")
LANGUAGES = ("en", "lt", "lv", "fy")


class ClockedServer:
    """A server on ``port`` over ``database_url``, in a thread of its own, on a fake clock."""

    def __init__(self, port: int, database_url: str, wall: float) -> None:
        self.port, self.clock = port, FakeClock(wall=wall)
        # The pages' own moves come faster than a person's: the limits have their own tests.
        limits = ConnectionLimits(rate_burst=10_000, rate_per_second=10_000.0, send_timeout=3600.0)
        settings = Settings(
            database_url=database_url, timing=TIMING, clock=self.clock, addresses=OPEN, connection=limits
        )
        app = create_app(settings)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=5)
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def _run(self) -> None:
        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve()

        asyncio.run(serve())

    def advance(self, seconds: float) -> None:
        """Move the server's clock on by ``seconds`` (its timers due meanwhile run)."""

        async def move() -> None:
            self.clock.advance(seconds)
            await asyncio.sleep(0)

        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(move(), self.loop).result(30)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)
        assert not self.thread.is_alive()


class Site:
    """The server of a test, and its restarts: the same port and database, the clock going on."""

    def __init__(self, tmp_path: Path) -> None:
        self.port, self.database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
        self.server = ClockedServer(self.port, self.database_url, time.time())
        self.base = f"http://127.0.0.1:{self.port}"

    def restart(self) -> None:
        wall = self.server.clock.now()
        self.server.stop()
        self.server = ClockedServer(self.port, self.database_url, wall)

    def hours(self) -> float:
        return self.server.clock.now() / HOUR


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    site = Site(tmp_path)
    yield site
    site.server.stop()


def device(browser: Browser, width: int = 1280, language: str = "en") -> Page:
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800})
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('cf-lang', '{language}')")
    return page


def signed_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/")
    answer = page.request.post(
        f"{base}/api/account/signup", data={"username": username, "password": "tile hub toe chicken"}
    )
    assert answer.status == 201, answer.text()


def post(page: Page, url: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = page.request.post(url, data=body)
    assert answer.ok, answer.text()
    return dict(answer.json())


def seated(page: Page, base: str, code: str, token: str, name: str) -> None:
    """The page opens the table with its seat's credential kept, as the lobby or an invite leaves it."""
    page.add_init_script(
        f"localStorage.setItem('cf-token-{code}', {json.dumps(token)});"
        f"localStorage.setItem('cf-name', {json.dumps(name)});"
    )
    page.goto(f"{base}/t/{code}")
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")


def turn_based_table(ann: Page, bo: Page, base: str, bots: int, rounds: int, rule: str = "move") -> str:
    """Ann makes a turn-based table (a day per move) with Bo invited and ``bots`` bots; both sit and are ready."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * bots
    body = {"seats": seats, "rounds": rounds, "pace": {"move_seconds": DAY, "on_timeout": rule}}
    table = post(ann, f"{base}/api/tables", body)
    code = table["code"]
    invite = table["seats"][1]["invite"].split("?invite=")[1]
    claimed = post(bo, f"{base}/api/tables/{code}/claim", {"invite": invite, "name": "Bo"})
    seated(ann, base, code, table["token"], "Ann")
    seated(bo, base, code, claimed["token"], "Bo")
    for page in (ann, bo):
        page.click("#waiting button.ready")
    for page in (ann, bo):
        page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
    return str(code)


def waited_for(players: list[Page], base: str) -> Page:
    """The player the table waits for, as the top bar reads it (``/api/turns``), once it waits for one of
    ``players``: a forced draw or pass is the server's to make, so the page's player to move may not be
    the one the table ends up waiting for (an opening can take a dozen forced draws)."""
    waited: list[Page] = []

    def one_waited_for() -> bool:
        waited[:] = [page for page in players if page.request.get(f"{base}/api/turns").json()["count"] > 0]
        return bool(waited)

    until_now(one_waited_for, 60, "the table waiting for one of these players")
    return waited[0]


def reading(page: Page, what: str) -> Any:
    return page.evaluate(f"() => window.chickenfoot.state.{what}")


def version(page: Page) -> int:
    return int(page.evaluate("() => window.chickenfoot.socket.version"))


def play_to_the_end(site: Site, players: list[Page], hours_per_move: float) -> float:
    """The players let their pages play their moves, each after ``hours_per_move`` of the fake clock:
    returns the hours the match took on it. Once some moves are made, the server restarts."""
    started = site.hours()
    restarted = False
    while reading(players[0], "status") != "finished":
        before = version(players[0])
        site.server.advance(hours_per_move * HOUR)
        for page in players:
            page.evaluate(AUTOPLAY)
        players[0].wait_for_function(
            "v => window.chickenfoot.socket.version > v || window.chickenfoot.state.status === 'finished'", arg=before
        )
        for page in players:
            page.evaluate("() => clearInterval(window.autoplay)")
        if not restarted and before > 6:
            site.restart()
            restarted = True
            for page in players:  # each page reconnects by itself, and is shown the table where it stood
                page.wait_for_function(
                    "v => !window.chickenfoot.socket.reconnecting && window.chickenfoot.socket.version >= v", arg=before
                )
    assert restarted
    return site.hours() - started


def test_a_match_of_two_played_over_days_with_a_restart(browser: Browser, site: Site) -> None:
    base = site.base
    ann, bo = device(browser), device(browser)
    errors = [watch_errors(ann), watch_errors(bo)]
    signed_up(ann, base, "ann")
    signed_up(bo, base, "bob")
    code = turn_based_table(ann, bo, base, bots=0, rounds=2)
    assert "a bot plays that one move" in ann.inner_text("#pace")
    # Whoever is to move is told so in the top bar of every page, and the link leads to the table.
    mover = waited_for([ann, bo], base)
    mover.goto(f"{mover.url.split('/t/')[0]}/matches")
    mover.wait_for_selector("#turns:not([hidden])")
    assert (
        mover.inner_text("#turns") == "1 table waits for you" and mover.get_attribute("#turns", "href") == f"/t/{code}"
    )
    mover.wait_for_selector("#waiting:not([hidden])")  # My matches: the tables waiting, the least time left first
    assert code in mover.inner_text("#waiting")
    mover.goto(f"{base}/t/{code}")
    mover.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
    # A day passes and the player to move does nothing: a bot plays that one move for them.
    seat, before = reading(ann, "to_move"), version(ann)
    site.server.advance(DAY + 1)
    ann.wait_for_function("v => window.chickenfoot.socket.version > v", arg=before)
    assert not reading(ann, "replaced")[seat] and reading(ann, "pace")["on_timeout"] == "move"
    hours = play_to_the_end(site, [ann, bo], hours_per_move=20)
    assert hours >= 48  # the match took days on its clock
    assert reading(bo, "status") == "finished" and reading(bo, "match_over") is not None
    for page in (ann, bo):
        page.context.close()
    assert errors == [[], []]


def test_a_match_of_four_with_two_bots_played_over_days_with_a_restart(browser: Browser, site: Site) -> None:
    base = site.base
    ann, bo = device(browser), device(browser, width=390)
    signed_up(ann, base, "ann")
    signed_up(bo, base, "bob")
    turn_based_table(ann, bo, base, bots=2, rounds=1, rule="replace")
    hours = play_to_the_end(site, [ann, bo], hours_per_move=10)
    assert hours >= 24
    assert reading(ann, "match_over") is not None and reading(bo, "match_over") is not None
    for page in (ann, bo):
        page.context.close()


def test_the_turn_based_table_in_four_languages(browser: Browser, site: Site) -> None:
    """Screenshots of the table at its own pace, at 390 and 1280 px, in every language (look at them)."""
    base = site.base
    ann, bo = device(browser), device(browser)
    signed_up(ann, base, "ann")
    signed_up(bo, base, "bob")
    code = turn_based_table(ann, bo, base, bots=0, rounds=2, rule="lose")
    away = bo.request.post(
        f"{base}/api/vacation",
        data={"days": 3},
        headers={"x-csrf-token": bo.request.get(f"{base}/api/account").json()["csrf"]},
    )
    assert away.ok, away.text()
    if waited_for([ann, bo], base) is bo:  # Bo moves first: he plays, and the table then waits for Ann
        bo.evaluate(AUTOPLAY)
        waited_for([ann], base)
        bo.evaluate("() => clearInterval(window.autoplay)")
    token = ann.evaluate(f"() => localStorage.getItem('cf-token-{code}')")
    for language in LANGUAGES:
        for width in (390, 1280):
            page = device(browser, width, language)
            page.context.add_cookies(
                [{"name": c["name"], "value": c["value"], "url": base} for c in ann.context.cookies()]
            )
            seated(page, base, code, token, "Ann")
            page.wait_for_selector("#pace:not([hidden])")
            page.wait_for_selector("#turns:not([hidden])")  # the top bar: the table waits for Ann
            page.wait_for_function(
                "() => document.querySelector('#pace').children.length >= 3"
            )  # the rule, the mover, the vacation
            shot(page, f"turn-based-{language}-{width}")
            page.context.close()
    # Ann lets her day run out: at a table of two whose rule says so, she has lost the match on time.
    site.server.advance(DAY + 1)
    for page in (ann, bo):
        page.wait_for_function("() => window.chickenfoot.state.status === 'finished'")
    assert ann.inner_text("#status") == "Ann ran out of time and lost the match"
    assert reading(bo, "lost_on_time") == reading(ann, "seat") and reading(bo, "match_over") is None
    # The table says so as of any finished match: its replay is a click away, and the same seats may play again.
    for page in (ann, bo):
        page.wait_for_selector(f"#share a.replay-link[href='/r/{code}']")
        page.wait_for_selector("#rematch-offer:visible")
    shot(bo, "turn-based-lost-on-time-1280")
    # The match is finished on every road: its replay ends where her time ran out and says so, and her
    # matches list it as lost, saying who ran out of time.
    late = bo.request.get(f"{base}/api/tables/{code}/replay").json()["lost_on_time"]
    assert late["seat"] == reading(ann, "seat")
    bo.goto(f"{base}/r/{code}#r{late['round']}m{late['move']}")
    bo.wait_for_selector(f"#replay[data-round='{late['round']}'][data-move='{late['move']}']")
    assert bo.inner_text("#status") == "Ann ran out of time and lost the match"
    shot(bo, "turn-based-lost-on-time-replay-1280")

    def listed() -> bool:
        matches = ann.request.get(f"{base}/api/matches").json()["matches"]
        return any(m["code"] == code and m["result"] for m in matches)

    until_now(listed, 60, "the match among Ann's matches, with its result")  # stored once the match is over
    ann.goto(f"{base}/matches")
    result = f"tr[data-code='{code}'] td.result.lost"
    ann.wait_for_selector(result)
    assert ann.get_attribute(result, "title") == "ann ran out of time and lost the match"

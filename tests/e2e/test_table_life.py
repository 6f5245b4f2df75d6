"""A table's life through real server processes: the ready step before the first deal (or the
creator's start with bots), a player who closed the page shown to the others as a countdown until
their bot takes over, and spectators told that they watch and why, counted for everyone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page

from chickenfoot.i18n import render
from chickenfoot.messages import Code

from .conftest import watch_errors
from .helpers import ARTIFACTS, new_table, sit_down, state

SHOTS = ARTIFACTS / "table-life"  # docs/images/table-life/ copies them: scripts/screenshots.sh


@contextmanager
def guest(browser: Browser, server: str, path: str, name: str, width: int = 390) -> Iterator[Page]:
    """Another browser (a phone by default) opening ``path`` with ``name`` remembered."""
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 800 else 800})
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    page.add_init_script(f"localStorage.setItem('cf-name', {name!r})")
    page.goto(f"{server}{path}")
    page.wait_for_function("() => window.chickenfoot?.state")
    try:
        yield page
        assert not errors, errors
    finally:
        context.close()


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def seat_text(page: Page, seat: int) -> str:
    return page.inner_text(f'#waiting .readiness li[data-seat="{seat}"]')


def test_the_first_deal_waits_for_every_player_to_be_ready(browser: Browser, page: Page, server: str) -> None:
    table = new_table(server, ["Ann", "", "Cy"], ["human", "human", "easy"])
    sit_down(page, server, table)
    page.wait_for_selector("#waiting .readiness")
    empty, joined, ready = (
        render(code, "en") for code in (Code.READY_SEAT_EMPTY, Code.READY_SEAT_JOINED, Code.READY_SEAT_READY)
    )
    assert seat_text(page, 0).endswith(joined) and seat_text(page, 1).endswith(empty)
    with guest(browser, server, table["seats"][1]["invite"], "Bo") as bo:
        bo.wait_for_function("() => window.chickenfoot.state.seat === 1")
        page.wait_for_function(
            "t => document.querySelector('#waiting .readiness li[data-seat=\"1\"]')?.textContent.endsWith(t)",
            arg=joined,
        )
        # Seated, not dealt: no clock runs behind the name dialog or the waiting card.
        assert state(bo)["status"] == "waiting" and state(bo)["turn_deadline"] is None
        bo.click("#waiting button.ready")
        page.wait_for_function(
            "t => document.querySelector('#waiting .readiness li[data-seat=\"1\"]')?.textContent.endsWith(t)", arg=ready
        )
        # Each page hears the state on its own socket: wait for Bo's too.
        bo.wait_for_function(
            "t => document.querySelector('#waiting')?.innerText.includes(t)", arg=render(Code.READY_YOU_ARE, "en")
        )
        shoot(bo, "ready-390")
        page.set_viewport_size({"width": 1280, "height": 800})
        shoot(page, "ready-1280")
        assert state(page)["status"] == "waiting"
        page.click("#waiting button.ready")
        for who in (page, bo):
            who.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
            who.wait_for_selector("#waiting", state="hidden")


def test_a_press_on_ready_counts_when_someone_joins_during_it(browser: Browser, page: Page, server: str) -> None:
    table = new_table(server, ["Ann", ""], ["human", "human"])
    sit_down(page, server, table)
    page.hover("#waiting button.ready")
    page.mouse.down()
    with guest(browser, server, table["seats"][1]["invite"], "Bo"):
        # Bo's arrival redraws Ann's card between her press and her release.
        page.wait_for_function("() => window.chickenfoot.state.free_seats.length === 0")
        page.mouse.up()
        page.wait_for_function("() => window.chickenfoot.state.ready[0] === true")


def test_the_creator_starts_with_bots_in_the_empty_seats(page: Page, server: str) -> None:
    table = new_table(server, ["Ann", ""], ["human", "human"])
    sit_down(page, server, table)
    page.click("#waiting button.start-bots")
    page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
    assert state(page)["kinds"] == ["human", "bot"]
    page.wait_for_selector("#waiting", state="hidden")


def test_a_player_who_left_is_shown_as_a_countdown_until_their_bot_or_their_return(
    browser: Browser, page: Page, server: str
) -> None:
    table = new_table(server, ["Ann", ""], ["human", "human"])
    sit_down(page, server, table)
    with guest(browser, server, table["seats"][1]["invite"], "Bo") as bo:
        bo.wait_for_function("() => window.chickenfoot.state.seat === 1")
        bo.click("#waiting button.ready")
        page.click("#waiting button.ready")
        page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
        page.wait_for_function("() => window.chickenfoot.state.connected[1]")
        token = bo.evaluate("code => localStorage.getItem(`cf-token-${code}`)", table["code"])
        bo.close()  # Bo closes the page
        page.wait_for_selector("#grace:not([hidden])")
        seen = state(page)
        assert seen["grace"][1] is not None
        assert seen["to_move"] != 1 or seen["turn_deadline"] is None  # Bo's clock stands while he is away
        text = page.inner_text("#grace")
        assert text.startswith("Bo left — a bot takes over in ") and text.endswith(" s")
        shoot(page, "grace-1280")
        back = bo.context.new_page()  # Bo comes back within the grace: the countdown goes
        back.add_init_script(f"localStorage.setItem('cf-token-{table['code']}', {token!r})")
        back.goto(f"{server}/t/{table['code']}")
        page.wait_for_selector("#grace", state="hidden")
        assert state(page)["grace"] == [None, None] and not state(page)["covered"][1]
        back.close()
        # Gone for good: the countdown runs out and the bot covers the seat.
        page.wait_for_selector("#grace:not([hidden])")
        page.wait_for_function("() => window.chickenfoot.state.covered[1]", timeout=60_000)
        page.wait_for_selector("#grace", state="hidden")


def test_the_countdown_on_a_phone(browser: Browser, server: str) -> None:
    table = new_table(server, ["Ann", ""], ["human", "human"])
    with guest(browser, server, table["seats"][1]["invite"], "Bo") as bo:
        bo.wait_for_function("() => window.chickenfoot.state.seat === 1")
        bo.click("#waiting button.ready")
        ann_context = browser.new_context(viewport={"width": 390, "height": 844})
        ann = ann_context.new_page()
        sit_down(ann, server, table)
        ann.click("#waiting button.ready")
        bo.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
        ann_context.close()  # Ann closes the page; Bo sees the countdown
        bo.wait_for_selector("#grace:not([hidden])")
        assert bo.inner_text("#grace").startswith("Ann left — a bot takes over in ")
        shoot(bo, "grace-390")


def test_a_spectator_knows_they_watch_and_everyone_sees_how_many(browser: Browser, page: Page, server: str) -> None:
    table = new_table(server, ["Ann", "Bo"], ["human", "easy"])
    sit_down(page, server, table)
    assert page.locator("#spectators").is_hidden()
    for width in (390, 1280):
        with guest(browser, server, f"/t/{table['code']}", "Eve", width) as eve:
            eve.wait_for_selector("#watching:not([hidden])")
            banner = eve.inner_text("#watching")
            assert render(Code.WATCHING_TITLE, "en") in banner and render(Code.WATCHING_NO_SEAT, "en") in banner
            # No hand controls for someone without a hand.
            assert eve.locator(".dock").is_hidden() and eve.locator("#hints").is_hidden()
            assert eve.locator("#sort").is_hidden() and eve.locator("#boneyard").is_hidden()
            page.wait_for_function("() => window.chickenfoot.state.spectators === 1")
            assert page.inner_text("#spectators") == render(Code.SPECTATORS, "en", count=1)
            assert page.locator("#watching").is_hidden()
            eve.wait_for_selector("#spectators:not([hidden])")
            shoot(eve, f"spectator-{width}")
    page.wait_for_function("() => window.chickenfoot.state.spectators === 0")
    page.wait_for_selector("#spectators", state="hidden")

"""A player's profile (/u/NAME) and "My matches" (/matches) on a real server, in each language and at
390 and 1280 px: nothing English left, nothing overflowing, no serious axe-core finding, the links
each match needs; an unknown name is a 404 page in the reader's language. Screenshots go with the
test artifacts (``artifacts/profiles/``; ``docs/images/accounts/profile.png`` is a copy of one)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.messages import Code
from chickenfoot.testing.waiting import until_now

from .conftest import watch_errors
from .helpers import ARTIFACTS
from .test_accessibility import SCAN, SERIOUS
from .test_howto import LOCALES
from .test_languages import measured
from .test_replay import play_to_the_end
from .test_replay_languages import SHOWN_TEXTS, english_left

SHOTS = ARTIFACTS / "profiles"
PASSWORD = "tile hub toe chicken"


@pytest.fixture(scope="module")
def player(browser: Browser, server: str) -> Iterator[Any]:
    """The player ``ruta``: signed up, two finished (and reviewed) one-round matches against bots, and
    an unfinished one with a friend who has not come yet. Returns the storage state of her browser."""
    context = browser.new_context()
    signed_up = context.request.post(f"{server}/api/account/signup", data={"username": "ruta", "password": PASSWORD})
    assert signed_up.status == 201, signed_up.text()
    codes = []
    for seats in (
        [{"kind": "human", "name": "Rūta"}, {"kind": "bot", "bot": "easy"}],
        [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "easy"}],
    ):
        table = context.request.post(f"{server}/api/tables", data={"rounds": 1, "seats": seats}).json()
        codes.append(play_to_the_end(server, table["code"], table["token"]))
    context.request.post(f"{server}/api/tables", data={"rounds": 1, "seats": [{"kind": "human"}, {"kind": "human"}]})

    def reviewed(code: str) -> bool:
        return bool(context.request.get(f"{server}/api/tables/{code}/review").json()["status"] == "done")

    for code in codes:
        until_now(partial(reviewed, code), 120, f"the review of {code}")
    profile = f"{server}/api/players/ruta"
    until_now(lambda: len(context.request.get(profile).json()["accuracy"]) == 2, 120, "two reviewed matches")
    state = context.storage_state()
    context.close()
    yield state


def opened(browser: Browser, state: Any, lang: str, width: int) -> tuple[BrowserContext, Page, list[str]]:
    context = browser.new_context(
        viewport={"width": width, "height": 844 if width < 600 else 800},
        locale=LOCALES[lang],
        storage_state=state,
        bypass_csp=True,  # axe-core is injected inline
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    return context, page, watch_errors(page)


def checked(page: Page, axe_script: Path, lang: str, name: str) -> None:
    """The page in ``lang``: no English left, nothing overflowing, no serious axe finding; a screenshot."""
    measured(page, lang)
    left = english_left(page.evaluate(SHOWN_TEXTS), lang) if lang != "en" else []
    assert left == [], left
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.add_script_tag(path=str(axe_script))
    serious = [v for v in page.evaluate(SCAN) if v["impact"] in SERIOUS]
    assert serious == [], serious


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_profile(browser: Browser, server: str, player: Any, axe_script: Path, lang: str, width: int) -> None:
    context, page, errors = opened(browser, player, lang, width)
    page.goto(f"{server}/u/ruta")
    expect(page.locator("#username")).to_have_text("ruta")
    rows = page.locator("table.history tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator(".accuracy-chart .dot")).to_have_count(2)
    expect(page.locator(".tally .total td").first).to_have_text("2")  # matches played
    first = rows.first
    code = first.get_attribute("data-code")
    assert first.locator(".links a").evaluate_all("links => links.map(a => a.getAttribute('href'))") == [
        f"/r/{code}",
        f"/r/{code}#review",
    ]
    expect(first.locator("a[href='/u/ruta']")).to_have_count(1)  # her seat names her account
    assert render(Code.PROFILE_TITLE, lang) in page.title()
    checked(page, axe_script, lang, f"profile-{lang}-{width}")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_my_matches(browser: Browser, server: str, player: Any, axe_script: Path, lang: str, width: int) -> None:
    context, page, errors = opened(browser, player, lang, width)
    page.goto(f"{server}/matches")
    rows = page.locator("table.history tbody tr")
    expect(rows).to_have_count(3)
    back = page.locator("a.return")
    expect(back).to_have_count(1)
    expect(back).to_have_text(render(Code.HISTORY_RETURN, lang))
    assert (back.get_attribute("href") or "").startswith("/t/")
    expect(page.locator("#profile-link")).to_have_attribute("href", "/u/ruta")
    checked(page, axe_script, lang, f"matches-{lang}-{width}")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_unknown_names_and_guests_are_told_in_their_language(browser: Browser, server: str, lang: str) -> None:
    context, page, errors = opened(browser, None, lang, 390)
    answer = page.goto(f"{server}/u/nobody-here")
    assert answer is not None and answer.status == 404
    expect(page.locator("#profile-error")).to_have_text(render(Code.PROFILE_UNKNOWN, lang, name="nobody-here"))
    page.goto(f"{server}/matches")
    expect(page.locator("#sign-in")).to_have_text(render(Code.MATCHES_SIGN_IN, lang))
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def deleted_players_match(browser: Browser, server: str) -> Iterator[str]:
    """A finished match of the account ``leaving`` against a bot, the account deleted since: its code."""
    context = browser.new_context()
    signed_up = context.request.post(f"{server}/api/account/signup", data={"username": "leaving", "password": PASSWORD})
    assert signed_up.status == 201, signed_up.text()
    seats = [{"kind": "human", "name": "Jonas Petraitis"}, {"kind": "bot", "bot": "easy"}]
    table = context.request.post(f"{server}/api/tables", data={"rounds": 1, "seats": seats}).json()
    code = play_to_the_end(server, table["code"], table["token"])
    csrf = context.request.get(f"{server}/api/account").json()["csrf"]
    assert context.request.delete(f"{server}/api/account", headers={"x-csrf-token": csrf}).status == 200
    context.close()
    yield code


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_replay_of_a_deleted_account_shows_a_deleted_player(
    browser: Browser, server: str, deleted_players_match: str, lang: str
) -> None:
    context, page, errors = opened(browser, None, lang, 1280)
    page.goto(f"{server}/r/{deleted_players_match}")
    expect(page.locator("#hands")).to_contain_text(render(Code.PLAYER_DELETED, lang))
    assert "Jonas" not in (page.locator("body").text_content() or "")
    context.close()
    assert not errors, errors

"""A table's life after its match: the rematch as a series (its score, the chat kept, a countdown
before the next match, the previous match one click away), a reopened seat that nobody took, a
table taken off the lobby's list, and the creator's invite card once an invite is used."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from chickenfoot.i18n import render
from chickenfoot.messages import Code

from .helpers import ARTIFACTS, create_table, open_lobby, ready_all, state
from .test_company import person, play_until_over, seated

IMAGES = ARTIFACTS / "table-life"
"""Screenshots of the series, the countdown and a used invite (those in ``docs/images/table-life/`` are copies)."""

ONE_ROUND = {"rules": {"max_pip": 6}, "rounds": 1, "turn_timer": None}


def made(server: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A one-round double-6 table made through the API; seat 0 is Ann's."""
    answer = httpx.post(f"{server}/api/tables", json=ONE_ROUND | {"seats": seats})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def sit_as_creator(page: Page, server: str, table: dict[str, Any]) -> None:
    code = table["code"]
    page.goto(f"{server}/")
    page.evaluate(
        "([c, t]) => { localStorage.setItem(`cf-token-${c}`, t); localStorage.setItem('cf-name', 'Ann'); }",
        [code, table["token"]],
    )
    seated(page, f"{server}/t/{code}")


def moved_on(page: Page, old: str) -> str:
    """Wait until the page plays at the rematch's table; its code."""
    page.wait_for_function("c => window.chickenfoot?.state && window.chickenfoot.state.code !== c", arg=old)
    code: str = state(page)["code"]
    return code


def test_a_reopened_seat_nobody_took_does_not_block_the_rematch(page: Page, server: str) -> None:
    table = made(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    code = table["code"]
    invite = table["seats"][1]["invite"].split("invite=")[1]
    claimed = httpx.post(f"{server}/api/tables/{code}/claim", json={"invite": invite, "name": "Bo"})
    assert claimed.status_code == 200  # Bo takes the seat, says he is ready and never comes: the match begins
    assert httpx.post(f"{server}/api/tables/{code}/ready", json={"token": claimed.json()["token"]}).status_code == 200
    sit_as_creator(page, server, table)
    ready_all(page)
    reopened = httpx.post(f"{server}/api/tables/{code}/seats/1/reopen", json={"token": table["token"]})
    assert reopened.status_code == 200, reopened.text
    play_until_over([page])  # a bot plays the free seat meanwhile
    page.click("#rematch-offer")
    go = page.get_by_role("link", name="Go now")  # no need to sit out the countdown
    go.click()
    new = moved_on(page, code)
    # Nobody holds an invite to the new table's seat 1: a bot takes it, and the new match is played.
    page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
    assert state(page)["kinds"][1] == "bot" and state(page)["seat"] == 0
    summary = httpx.get(f"{server}/api/tables/{new}").json()
    assert summary["status"] == "playing"


def test_unlisting_a_table_makes_it_invite_only(page: Page, server: str) -> None:
    table = made(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human"}])
    code = table["code"]
    sit_as_creator(page, server, table)
    page.check("#table-public")
    page.wait_for_function("() => window.chickenfoot.state.public && window.chickenfoot.state.open")
    page.uncheck("#table-public")
    page.wait_for_function("() => !window.chickenfoot.state.public")
    assert state(page)["open"] is False
    assert "Invite-only" in page.locator("#room-kind").inner_text()
    # Someone who saw the table listed cannot take a seat with the code any more.
    join = httpx.post(f"{server}/api/tables/{code}/join", json={"name": "Eve"})
    assert join.status_code == 403 and join.json()["code"] == "error.invite_only"
    lobby = httpx.get(f"{server}/api/lobby").json()
    assert code not in [listed["code"] for listed in lobby["tables"]]


def won_column(page: Page, box: str) -> list[int]:
    """The series table's "Matches won" per seat, as shown in ``box``."""
    cells = page.locator(f"{box} .series tbody tr td:nth-child(2)").all_inner_texts()
    return [int(cell) for cell in cells]


def test_a_rematch_plays_on_as_a_series(browser: Browser, page: Page, server: str) -> None:
    table = made(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    first = table["code"]
    sit_as_creator(page, server, table)
    with person(browser, "Bo", phone=True) as bo:
        seated(bo, f"{server}{table['seats'][1]['invite']}")
        ready_all(page, bo)
        page.fill("#chat-text", "good luck")
        page.press("#chat-text", "Enter")
        bo.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('good luck')")
        assert page.locator("#scores .series").inner_text() == ""  # a first match is no series yet
        play_until_over([page, bo])
        winners = state(page)["match_over"]["winners"]
        page.click("#rematch-offer")
        bo.click("#rematch-offer")
        # Both see a countdown before they move to the new table.
        for player in (page, bo):
            countdown = player.locator("#rematch-countdown")
            countdown.wait_for()
            assert re.fullmatch(r"The next match starts in [1-5] seconds?", countdown.inner_text())
        IMAGES.mkdir(parents=True, exist_ok=True)
        bo.screenshot(path=str(IMAGES / "countdown-390.png"))
        assert state(bo)["code"] == first
        second = moved_on(page, first)
        assert moved_on(bo, first) == second
        # Accepting the rematch was their Ready: the new table deals with no Ready to press.
        for player in (page, bo):
            player.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
            assert player.locator("#waiting button.ready").count() == 0
        # The new table tells its series: one match played, won by the first match's winners; the
        # chat goes on; the previous match is one click away.
        page.wait_for_selector("#scores .series h3")
        assert page.locator("#scores .series h3").inner_text() == "Series: 1 match played"
        assert won_column(page, "#scores") == [winners.count(seat) for seat in range(3)]
        assert page.locator("#scores .previous-match").get_attribute("href") == f"/r/{first}"
        bo.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('good luck')")
        play_until_over([page, bo])
        winners += state(page)["match_over"]["winners"]
        for player, size in ((page, 1280), (bo, 390)):
            player.wait_for_selector("#ro-body .series h3")
            assert player.locator("#ro-body .series h3").inner_text() == "Series: 2 matches played"
            assert won_column(player, "#ro-body") == [winners.count(seat) for seat in range(3)]
            assert player.locator("#ro-body .previous-match").get_attribute("href") == f"/r/{first}"
            player.screenshot(path=str(IMAGES / f"series-{size}.png"))
        page.click("#ro-body .previous-match")
        page.wait_for_url(f"{server}/r/{first}")
        page.wait_for_selector("#room")


def test_the_invite_card_shows_who_took_a_used_invite(browser: Browser, page: Page, server: str) -> None:
    code = create_table(page, server, ["human", "human", "human"])
    links = page.locator("#share .links a[href*='invite=']")
    assert links.count() == 2
    first = links.first.get_attribute("href")
    with person(browser, "Bo") as bo:
        seated(bo, f"{server}{first}")
        page.wait_for_selector("#share .invite-used")
        assert page.locator("#share .invite-used").inner_text() == "The invite for seat 2 was used: Bo took it."
        # Only the unused invite is still offered, and it is the one the copy button copies.
        assert links.count() == 1 and links.first.get_attribute("href") != first
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.locator("#share").screenshot(path=str(IMAGES / "invite-used-1280.png"))
    # "Join" with the code of this invite-only table says so before asking anyone for a name.
    with person(browser) as eve:
        open_lobby(eve, server)
        eve.fill("#join-code", code)
        eve.click("#join-form button[type=submit]")
        eve.wait_for_function("() => document.querySelector('#lobby-error').textContent.length > 0")
        assert eve.locator("#lobby-error").inner_text() == (
            f"{code} is invite-only: open your invite link to take your seat, or watch."
        )
        assert eve.locator("#name-dialog").is_hidden()
        assert eve.url == f"{server}/"


def test_a_company_refusal_is_shown_in_the_readers_language(page: Page, server: str) -> None:
    table = made(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    sit_as_creator(page, server, table)
    page.select_option("#language", "lt")
    page.wait_for_function("() => document.documentElement.lang === 'lt'")
    said = page.evaluate(
        """c => import('/net.js').then((net) => net.api('POST', `/api/tables/${c}/leave`, {token: 'nobody'}))
          .then(() => null, (err) => err.message)""",
        table["code"],
    )
    assert said == render(Code.ERROR_TOKEN_OPENS_NO_SEAT, "lt")

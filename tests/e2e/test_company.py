"""Company at the table, with two and three people in their own browser contexts: the chat (plain
text, reactions, spectators marked, mute, history after a reload), public tables in the lobby,
leaving and coming back, and the rematch. Screenshots of each go to the artifacts."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import watch_errors
from .helpers import ARTIFACTS, create_table, open_lobby, ready_all, shot, state

PLAYING = "() => window.chickenfoot && window.chickenfoot.state"
HUMAN = {"kind": "human"}


@contextmanager
def person(browser: Browser, name: str | None = None, phone: bool = False) -> Iterator[Page]:
    """Another person's browser: its own context (storage, cookies), failing on page errors and CSP
    violations; ``name``: the name this browser remembers (so no name is asked for)."""
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=size, has_touch=phone)
    if name is not None:
        context.add_init_script(f"localStorage.setItem('cf-name', {json.dumps(name)})")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def card(page: Page, selector: str, name: str) -> None:
    """A screenshot of the card holding ``selector`` (a test artifact)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(selector).locator("xpath=ancestor::*[contains(@class, 'card')][1]").screenshot(
        path=str(ARTIFACTS / f"{name}.png")
    )


def seated(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(PLAYING, timeout=20_000)


def chat_texts(page: Page) -> list[str]:
    """Each chat line's words, without the time it was said."""
    texts = page.locator("#chat-log li").evaluate_all(
        "items => items.map(item => { const time = item.querySelector('time');"
        " const text = item.innerText.trim();"
        " return time && text.startsWith(time.innerText) ? text.slice(time.innerText.length).trim() : text })"
    )
    return [str(text) for text in texts]


def test_chat_between_two_players_and_a_spectator(browser: Browser, page: Page, server: str) -> None:
    code = create_table(page, server, ["human", "human", "easy"])
    invite = page.locator("#share .links a").first.get_attribute("href")
    hostile = '<img src=x onerror="document.title=1">hello & <b>bye</b>'
    with person(browser, "Bo") as bo, person(browser, "Cy", phone=True) as cy:
        seated(bo, f"{server}{invite}")
        seated(cy, f"{server}/t/{code}")
        assert state(cy)["seat"] is None
        page.fill("#chat-text", hostile)
        page.click("#chat-form button[type=submit]")
        for reader in (page, bo, cy):
            reader.wait_for_function("t => document.querySelector('#chat-log').textContent.includes(t)", arg=hostile)
            assert reader.locator("#chat-log img, #chat-log b b").count() == 0  # shown as text, never markup
            assert chat_texts(reader)[-1] == f"Ann {hostile}"
        cy.click("#reactions [data-reaction=good_game]")
        page.wait_for_selector("#chat-log li.spectator.reaction")
        assert chat_texts(page)[-1] == "Spectator Good game"
        # Bo reads in Lithuanian: the reaction is a code, so it comes in Bo's words.
        bo.select_option("#language", "lt")
        bo.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('Gera partija')")
        bo.click("#reactions [data-reaction=chicken_foot]")
        page.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('Chicken foot!')")
        # Cy mutes: the lines are hidden and counted.
        cy.check("#chat-mute")
        assert cy.locator("#chat-log").is_hidden()
        page.fill("#chat-text", "anyone there?")
        page.press("#chat-text", "Enter")
        cy.wait_for_function("() => document.querySelector('#chat-muted').textContent.includes('1 new line')")
        cy.uncheck("#chat-mute")
        # A reload reads the table's recent lines back from the server.
        bo.reload()
        bo.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 4")
        assert "anyone there?" in chat_texts(bo)[-1]
        shot(page, "company-chat")
    # A flood from the page is refused by the server beyond its chat budget, with the reason shown.
    for i in range(8):
        page.evaluate("i => window.chickenfoot.socket.send({type: 'chat', text: `spam ${i}`})", i)
    page.wait_for_function("() => document.querySelector('#toast').textContent.includes('too fast')")


def test_public_tables_in_the_lobby_leaving_and_coming_back(browser: Browser, page: Page, server: str) -> None:
    open_lobby(page, server)
    page.select_option("#seat-count", "3")
    page.fill("#my-name", "Ann")
    page.locator("#seats li").nth(1).locator(".seat-kind").select_option("human")
    page.check("#public-table")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
    page.wait_for_function(PLAYING)
    code = state(page)["code"]
    assert state(page)["public"] is True and state(page)["open"] is True
    other = httpx.post(
        f"{server}/api/tables",
        json={
            "public": True,
            "seats": [{"kind": "human", "name": "Eve"}, HUMAN, HUMAN, {"kind": "bot", "bot": "hard"}],
        },
    )
    assert other.status_code == 201
    with person(browser) as bo, person(browser) as cy:
        open_lobby(bo, server)
        bo.fill("#my-name", "Bo")
        listed = bo.locator(f"#open-tables li[data-code='{code}']")
        listed.wait_for()
        assert "waiting for players" in listed.inner_text() and "1 seat free" in listed.inner_text()
        listed.get_by_role("button", name="Join").click()
        bo.wait_for_url(re.compile(rf".*/t/{code}$"))
        bo.wait_for_function(PLAYING)
        assert state(bo)["seat"] == 1
        # Every seat taken, nobody ready yet: a third person's lobby lists it as waiting, not in play.
        cy.goto(f"{server}/")
        cy.wait_for_function(
            'c => document.querySelector(`#open-tables li[data-code="${c}"] .status-waiting`)', arg=code
        )
        ready_all(page, bo)
        # Cy's lobby follows along: the table is now in play, to be watched.
        cy.wait_for_function(
            "c => document.querySelector(`#open-tables li[data-code=\"${c}\"]`)?.textContent.includes('in play')",
            arg=code,
        )
        card(cy, "#open-tables", "company-lobby")
        # Bo leaves: a bot plays the seat, and Ann sees it.
        bo.click("#leave")
        bo.click("#confirm-dialog button[value=yes]")  # the page's own "are you sure?"
        bo.wait_for_url(f"{server}/")
        page.wait_for_function("() => window.chickenfoot.state.left[1]")
        assert page.locator(".player[data-seat='1'] .badge").text_content() == "left"
        # Bo comes back from the lobby with the same credential.
        bo.get_by_role("link", name=f"Back to {code}").click()
        bo.wait_for_function(PLAYING)
        assert state(bo)["seat"] == 1
        page.wait_for_function("() => !window.chickenfoot.state.left[1]")
        # Ann unlists the table: it leaves Cy's lobby list.
        page.uncheck("#table-public")
        cy.wait_for_function(
            'c => !document.querySelector(`#open-tables li[data-code="${c}"]`)', arg=code, timeout=30_000
        )


def test_the_creator_reopens_an_absent_players_seat(browser: Browser, page: Page, server: str) -> None:
    code = create_table(page, server, ["human", "human", "easy"])
    invite = page.locator("#share .links a").first.get_attribute("href")
    with person(browser, "Bo") as bo:
        seated(bo, f"{server}{invite}")
        bo_token = bo.evaluate("c => localStorage.getItem(`cf-token-${c}`)", code)
    page.wait_for_function("() => !window.chickenfoot.state.connected[1]")
    assert page.locator("#share .invite-used").inner_text() == "The invite for seat 2 was used: Bo took it."
    page.click(".player[data-seat='1'] .reopen")
    page.click("#confirm-dialog button[value=yes]")
    # The seat's link comes back, replaced: the old invite opens nothing any more, and is never shown again.
    page.wait_for_selector("#share .links a[href*='invite=']")
    fresh = page.locator("#share .links a[href*='invite=']").first.get_attribute("href")
    assert fresh is not None and fresh != invite and "invite=" in fresh
    refused = httpx.post(f"{server}/api/tables/{code}/leave", json={"token": bo_token})
    assert refused.status_code == 403  # Bo's old credential opens nothing now
    assert refused.json()["code"] == "error.token_opens_no_seat"
    with person(browser) as dee:
        open_lobby(dee, server)
        dee.fill("#my-name", "Dee")
        dee.locator("#my-name").dispatch_event("change")
        dee.evaluate("() => localStorage.setItem('cf-name', 'Dee')")
        seated(dee, f"{server}{fresh}")
        assert state(dee)["seat"] == 1 and state(dee)["names"][1] == "Dee"


def play_until_over(pages: list[Page]) -> None:
    """Whoever is to move plays their first legal move (through the page's socket) until the match is over.

    Each turn starts from the first page's version, once every page has heard of it: a page a message
    behind would not see that it is its player's turn, and nobody would move."""
    for _ in range(2000):
        version = pages[0].evaluate("() => window.chickenfoot.socket.version")
        for p in pages:
            p.wait_for_function("v => window.chickenfoot.socket.version >= v", arg=version)
        if all(p.evaluate("() => !!window.chickenfoot.state.match_over") for p in pages):
            return
        for p in pages:
            p.evaluate(
                """() => { const s = window.chickenfoot.state;
                  if (s.seat === s.to_move && !s.round_over && s.legal.length && !s.forced) {
                    window.chickenfoot.socket.move(s.legal[0]); } }"""
            )
        # The table moves on (someone's move, a bot's, a forced one): the first page hears of it.
        pages[0].wait_for_function("v => window.chickenfoot.socket.version > v", arg=version)
    raise AssertionError("the match did not end")


def test_rematch_moves_the_seated_players_to_a_new_table(browser: Browser, page: Page, server: str) -> None:
    made = httpx.post(
        f"{server}/api/tables",
        json={
            "rules": {"max_pip": 6},
            "rounds": 1,
            "turn_timer": None,
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "human", "name": "Bo"},
                {"kind": "bot", "bot": "greedy"},
            ],
        },
    ).json()
    code = made["code"]
    page.goto(f"{server}/")
    page.evaluate(
        "([c, t]) => { localStorage.setItem(`cf-token-${c}`, t); localStorage.setItem('cf-name', 'Ann'); }",
        [code, made["token"]],
    )
    seated(page, f"{server}/t/{code}")
    invite = made["seats"][1]["invite"]
    with person(browser, "Bo") as bo, person(browser, "Cy", phone=True) as cy:
        seated(bo, f"{server}{invite}")
        seated(cy, f"{server}/t/{code}")
        ready_all(page, bo)
        play_until_over([page, bo])
        page.wait_for_selector("#rematch-offer:visible")
        assert cy.locator("#rematch-offer").is_hidden()  # a spectator has no seat to bring
        page.click("#rematch-offer")
        bo.wait_for_function("() => document.querySelector('#rematch-status').textContent.includes('Ann wants')")
        shot(bo, "company-rematch")
        bo.click("#rematch-offer")
        for player in (page, bo):
            player.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
            player.wait_for_function(f"c => window.chickenfoot?.state && window.chickenfoot.state.code !== '{code}'")
        new = state(page)["code"]
        assert state(bo)["code"] == new and state(page)["seat"] == 0 and state(bo)["seat"] == 1
        assert state(bo)["names"][:2] == ["Ann", "Bo"] and state(bo)["match_over"] is None
        assert state(page)["status"] == "playing" and state(page)["rules"]["max_pip"] == 6
        # The spectator is shown where the match went on.
        cy.wait_for_function("c => document.querySelector('#rematch-go').href.endsWith(`/t/${c}`)", arg=new)
        # Each player's new credential stays in their own browser only.
        assert page.evaluate("c => localStorage.getItem(`cf-token-${c}`)", new) != bo.evaluate(
            "c => localStorage.getItem(`cf-token-${c}`)", new
        )

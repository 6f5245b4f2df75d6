"""A table's life after its match: the rematch as a series (its score, the chat kept, a countdown
before the next match, the previous match one click away), a reopened seat that nobody took, a
table taken off the lobby's list, and the creator's invite card once an invite is used."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page

from .helpers import state
from .test_company import play_until_over, seated

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
    assert claimed.status_code == 200  # Bo takes the seat and never comes: the match begins
    sit_as_creator(page, server, table)
    reopened = httpx.post(f"{server}/api/tables/{code}/seats/1/reopen", json={"token": table["token"]})
    assert reopened.status_code == 200, reopened.text
    play_until_over([page])  # a bot plays the free seat meanwhile
    page.click("#rematch-offer")
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

"""Tournaments in Chromium against a real server: a player makes a duplicate Swiss from the tournaments
page, joins it on its page, three more join through the API, and its creator starts it from the page;
the page then follows the event by itself (pushed, never reloaded): the player's table appears, and
when both deals are played the standings, their tie-breaks and each deal compared seat by seat. The
event's page and the list are photographed at 390 and 1280 px in every language
(``artifacts/tournaments/``).

This module runs its own server, so its sign-ups never meet the shared server's per-address limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.waiting import until_now

from .conftest import REVIEW_BUDGET, Device
from .helpers import ARTIFACTS
from .test_accounts import LANGUAGES, PASSWORD, sign_in_with_password, sign_up_with_password

SHOTS = ARTIFACTS / "tournaments"
PLAYED = 120_000
"""Milliseconds a page may wait for a whole event of two deals (each table's absent players are covered
by a bot after the 12 s grace): a bound, not how long it takes."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('tournaments') / 'games.sqlite3'}"
    with served(port, database, pace=0, options=OPEN_LIMITS, review_budget=REVIEW_BUDGET):
        yield f"http://localhost:{port}"


def join_by_api(site: str, name: str, code: str) -> None:
    with httpx.Client(base_url=site, timeout=30) as client:
        answer = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        joined = client.post(f"/api/tournaments/{code}/join", headers={"x-csrf-token": answer.json()["csrf"]})
        assert joined.status_code == 200, joined.text


def test_a_duplicate_swiss_made_joined_started_and_followed_live(device: Device, site: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = device(1280)
    sign_up_with_password(page, site, "ann", "/tournaments")
    page.fill("#event-name", "Club night")
    page.select_option("#event-format", "swiss")
    page.fill("#event-rounds", "2")
    page.select_option("#event-duplicate", "matchpoints")
    page.select_option("#event-size", "2")
    page.fill("#event-match-rounds", "1")  # a match of one round at each table
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/tournaments/[a-z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    page.get_by_role("button", name="Join").click()
    page.wait_for_selector("#you:has-text('You are in')")
    for name in ("bodil", "cyril", "deena"):
        join_by_api(site, name, code)
    page.wait_for_selector("#event-facts:has-text('4 players')")  # told by the server, not reloaded
    page.get_by_role("button", name="Start now").click()
    page.wait_for_selector("#your-table:not([hidden]) a[href^='/t/']")
    page.wait_for_selector("#event-facts:has-text('Finished')", timeout=PLAYED)
    page.wait_for_selector("#deals-card:not([hidden]) table.deal >> nth=1")
    assert page.locator("#standings tbody tr").count() == 4
    assert page.locator("#tiebreaks").inner_text() == "Difference"
    for deal in (1, 2):
        assert page.locator(f"table.deal[data-deal='{deal}'] tbody tr").count() == 2  # two tables played it
        assert page.locator(f"table.deal[data-deal='{deal}'] thead th").count() == 3  # the tables, two seats
    # Each person's costliest move, as the review of their match marked it, links to it in the replay.
    tables = page.eval_on_selector_all("table.deal tbody tr", "rows => rows.map(r => r.dataset.table)")
    expected = decisive_moves(site, tables)
    assert expected, "no move of the event was judged worse than good"
    page.wait_for_function("n => document.querySelectorAll('table.deal a.decisive').length === n", arg=len(expected))
    shown = page.eval_on_selector_all(
        "table.deal a.decisive", "links => links.map(a => [a.getAttribute('href'), a.textContent])"
    )
    assert sorted(href for href, _ in shown) == sorted(expected)
    for href, text in shown:  # the mark's symbol, then the review's own line: "14. played → better (−3.2)"
        assert re.fullmatch(r"(\?\?|\?!|\?) \d+\. .+ → .+ \(−.+\)", text), text
        assert text.split(" ", 1)[0] == expected[href], (href, text)
    photograph(device, site, code)


def decisive_moves(site: str, tables: list[str]) -> dict[str, str]:
    """Each person's costliest move at each table, worse than good, as the reviews themselves say (read
    once every review is done): its replay link and its mark's symbol."""

    reviews: list[dict[str, Any]] = []

    def all_done() -> bool:
        answers = [httpx.get(f"{site}/api/tables/{table}/review", timeout=30).json() for table in tables]
        reviews[:] = [answer["review"] for answer in answers if answer["status"] == "done"]
        return len(reviews) == len(tables)

    until_now(all_done, 120, "the reviews of the event's tables")
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    links = {}
    for table, review in zip(tables, reviews, strict=True):
        summaries = [summary for round_ in review["rounds"] for summary in round_["summary"]]
        for seat in {summary["seat"] for summary in summaries}:
            costly = [c for summary in summaries if summary["seat"] == seat for c in summary["costliest"]]
            worst = max(costly, key=lambda c: c["loss"], default=None)
            if worst is not None and worst["mark"] != "good":
                links[f"/r/{table}#r{worst['round']}m{worst['ply'] + 1}"] = symbols[worst["mark"]]
    return links


def photograph(device: Device, site: str, code: str) -> None:
    """The event's page and the list, at both widths in every language, none wider than its window."""
    for language in LANGUAGES:
        for width in (1280, 390):
            page = device(width, language=language)
            sign_in_with_password(page, site, "ann", f"/tournaments/{code}")
            page.wait_for_selector("#deals-card:not([hidden]) table.deal a.decisive")
            assert page.evaluate("() => document.documentElement.lang") == language
            page.screenshot(path=str(SHOTS / f"event-{language}-{width}.png"), full_page=True)
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the page is wider than the window by {overflow} px ({language}, {width})"
            page.goto(f"{site}/tournaments")
            page.wait_for_selector(f"#mine a[href='/tournaments/{code}']")
            page.screenshot(path=str(SHOTS / f"list-{language}-{width}.png"), full_page=True)
            page.context.close()

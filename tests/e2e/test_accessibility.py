"""axe-core scans of the lobby, the table and the tournaments' pages: no violation of serious or critical impact.

axe-core (the npm package, installed by scripts/test-services.sh) is injected with Playwright's
``add_script_tag``; that is an inline script, which the server's Content-Security-Policy forbids,
so these pages are opened with ``bypass_csp`` (every other browser test fails on a CSP violation).
The table is scanned in both themes (contrast differs), seated and mid-round, while it waits for
friends, with the name dialog open and with a round's results up. The tournaments' list (with its form,
signed in) and an event's page (to come, then finished with its standings) are scanned on a server of
their own, so their sign-ups never meet the shared server's per-address limits.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import watch_errors
from .helpers import ARTIFACTS, api, new_table, open_lobby, sit_down

SERIOUS = ("serious", "critical")
RESULTS = ARTIFACTS / "axe"

SCAN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""


@pytest.fixture
def scanned(browser: Browser, axe_script: Path) -> Iterator[Any]:
    """Opens pages to scan (with a width and a theme); ``scan(page, name)`` returns the serious findings."""
    contexts = []

    def open_page(width: int = 1280, theme: str = "light") -> Page:
        context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800}, bypass_csp=True)
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('cf-theme', '{theme}')")
        page.errors = watch_errors(page)  # type: ignore[attr-defined]
        return page

    def scan(page: Page, name: str) -> list[dict[str, Any]]:
        page.add_script_tag(path=str(axe_script))
        violations: list[dict[str, Any]] = page.evaluate(SCAN)
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / f"{name}.txt").write_text(
            "\n".join(f"{v['impact']}: {v['id']} ({v['help']}) {v['nodes']}" for v in violations) + "\n"
        )
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        return [v for v in violations if v["impact"] in SERIOUS]

    yield open_page, scan
    for context in contexts:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_lobby(scanned: Any, server: str, width: int) -> None:
    open_page, scan = scanned
    page = open_page(width)
    open_lobby(page, server)
    assert scan(page, f"lobby-{width}") == []


@pytest.mark.parametrize(("width", "theme"), [(1280, "light"), (1280, "dark"), (390, "dark")])
def test_lobby_listing_a_table_that_waits(scanned: Any, server: str, width: int, theme: str) -> None:
    open_page, scan = scanned
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]
    api(server, "POST", "/api/tables", {"seats": seats, "public": True})
    page = open_page(width, theme)
    open_lobby(page, server)
    page.wait_for_selector("#open-tables .status-waiting")  # the badge in the theme's colours
    assert scan(page, f"lobby-open-{width}-{theme}") == []


@pytest.mark.parametrize(("width", "theme"), [(1280, "light"), (1280, "dark"), (390, "light")])
def test_table_mid_round(scanned: Any, server: str, width: int, theme: str) -> None:
    open_page, scan = scanned
    page = open_page(width, theme)
    sit_down(page, server, new_table(server, ["Ann", "Bo", "Cy", "Di"]))
    # Scanned on Ann's turn with a tile chosen, so the board shows where it may go.
    page.wait_for_function("() => window.chickenfoot.myTurn && document.querySelector('.hand-tile.playable')")
    if page.locator(".target").count() == 0:  # a freshly drawn tile comes chosen already
        page.locator(".hand-tile.playable").first.click()
    page.wait_for_selector(".target", state="attached")
    assert scan(page, f"table-{width}-{theme}") == []


def test_table_waiting_for_friends_and_the_name_dialog(scanned: Any, server: str) -> None:
    open_page, scan = scanned
    page = open_page()
    sit_down(page, server, new_table(server, ["Ann", "", "", "Di"], ["human", "human", "human", "easy"]))
    page.wait_for_selector("#waiting:not([hidden])")
    assert scan(page, "table-waiting") == []
    page.click(".player.me .rename")
    page.wait_for_selector("#name-dialog[open]")
    assert scan(page, "name-dialog") == []


def test_draw_and_pass_and_the_round_results(scanned: Any, server: str) -> None:
    open_page, scan = scanned
    page = open_page()
    page.goto(f"{server}/t/DEMO42")  # no such table: the page draws the STATEs given here
    page.wait_for_function("() => window.chickenfoot")
    presence = Presence(
        ("Ann", "Bo", "Cy"), ("human", "bot", "bot"), (True,) * 3, (False,) * 3, (None, "medium", "medium")
    )

    def show(match: Match) -> None:
        state = state_for("DEMO42", "playing", match, match.round.view(0), presence)
        page.evaluate("(state) => window.chickenfoot.onState(state, [])", state)

    match = Match(Rules().replace(rounds=2), players=3, seed=4)
    buttons: set[str] = set()
    while not match.round.is_over():
        legal = [str(move) for move in match.round.legal_moves()]
        offered = {"draw", "pass"} & set(legal) - buttons
        if match.round.to_move == 0 and offered:  # Ann may draw, or pass: the buttons are up
            show(match)
            button = offered.pop()
            page.wait_for_selector(f"#{button}:not([hidden])")
            assert scan(page, f"table-{button}") == []
            buttons.add(button)
        match.push(match.round.legal_moves()[0])
    assert buttons, "Ann never had to draw or pass"
    show(match)
    page.wait_for_selector("#round-over:not([hidden])")
    assert scan(page, "round-over") == []


@pytest.fixture(scope="module")
def events_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('events') / 'games.sqlite3'}"
    with served(port, database, pace=0, options=OPEN_LIMITS):
        yield f"http://localhost:{port}"


def signed_up(site: str, name: str) -> httpx.Client:
    """A player's own client, signed up and carrying their CSRF token."""
    from .test_accounts import PASSWORD  # imported here: test_accounts imports this module

    client = httpx.Client(base_url=site, timeout=30)
    answer = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["x-csrf-token"] = answer.json()["csrf"]
    return client


@pytest.mark.parametrize(("width", "theme"), [(1280, "light"), (390, "dark")])
def test_the_tournaments_list_and_its_form(scanned: Any, events_site: str, width: int, theme: str) -> None:
    from .test_accounts import sign_up_with_password  # imported here: test_accounts imports this module

    open_page, scan = scanned
    page = open_page(width, theme)
    sign_up_with_password(page, events_site, f"lister{width}", "/tournaments")
    page.wait_for_selector("#create-form")
    assert scan(page, f"tournaments-{width}-{theme}") == []


def test_a_tournament_page_to_come_and_finished(scanned: Any, events_site: str) -> None:
    from .test_tournaments import PLAYED  # imported here: through test_accounts, it imports this module

    open_page, scan = scanned
    ann, bob = signed_up(events_site, "annika"), signed_up(events_site, "bodo")
    made = ann.post(
        "/api/tournaments",
        json={
            "name": "Club night",
            "format": "swiss",
            "rounds": 1,
            "table_size": 2,
            "match_rounds": 1,
            "duplicate": "matchpoints",
        },
    )
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    for player in (ann, bob):
        assert player.post(f"/api/tournaments/{code}/join").status_code == 200
    page = open_page()
    page.goto(f"{events_site}/tournaments/{code}")
    page.wait_for_selector("#event-facts:has-text('2 players')")
    assert scan(page, "tournament-to-come") == []
    assert ann.post(f"/api/tournaments/{code}/start").status_code == 200
    page.wait_for_selector("#event-facts:has-text('Finished')", timeout=PLAYED)
    page.wait_for_selector("#standings tbody tr >> nth=1")
    page.wait_for_selector("#deals-card:not([hidden]) table.deal")  # the deal compared, in its scrolled group
    assert scan(page, "tournament-finished-1280-light") == []
    dark = open_page(390, "dark")
    dark.goto(f"{events_site}/tournaments/{code}")
    dark.wait_for_selector("#standings tbody tr >> nth=1")
    assert scan(dark, "tournament-finished-390-dark") == []
    for player in (ann, bob):
        player.close()

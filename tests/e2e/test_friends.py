"""Friends in Chromium against a real server: a player follows another from their profile, sees them
online and then at a table (with the way to watch it) on the friends page, and challenges them from
there; the challenged player accepts in the lobby, and both land at the new table, each in their own
seat, and play its round out; each follows the other from the match's results or its replay. A
challenge at one's own pace, sent from a profile, shows its pace in the lobby, and the table it makes
shows it too (photographed at 390 px, ``artifacts/friends/challenge-pace-*``; ``docs/images/friends/``
copies the form and the lobby). The friends page is photographed at 390 and 1280 px in every language
(``artifacts/friends/``) and scanned with axe-core.

This module runs its own server, so its sign-ups never meet the shared server's per-address limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import Device
from .helpers import ARTIFACTS, AUTOPLAY
from .test_accessibility import SCAN, SERIOUS
from .test_accounts import LANGUAGES, seat_of, sign_in_with_password, sign_up_with_password

SHOTS = ARTIFACTS / "friends"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('friends') / 'games.sqlite3'}"
    with served(port, database, pace=0.25, options=OPEN_LIMITS):
        yield f"http://localhost:{port}"


def fetch(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A request of the page's own, with its session and CSRF token (as the page's modules send them)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const csrf = (await (await fetch('/api/account')).json()).csrf;
            const response = await fetch(path, {method, headers: {'content-type': 'application/json',
                'x-csrf-token': csrf}, body: body === null ? undefined : JSON.stringify(body)});
            return await response.json();
        }""",
        [method, path, body],
    )


def sit_at_a_table(page: Page, site: str) -> str:
    """The player sits at a new table of their own against a bot; its code."""
    table = fetch(page, "POST", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
    page.goto(f"{site}/t/{table['code']}")  # no seat credential kept: the account's seat
    assert seat_of(page) == 0
    return str(table["code"])


def friend(name: str) -> str:
    return f".friend[data-name='{name}']"


def test_follow_see_them_at_a_table_challenge_accept_and_play(device: Device, site: str) -> None:
    ann, bob = device(), device(390)
    sign_up_with_password(ann, site, "annika")
    sign_up_with_password(bob, site, "bobby")
    # Ann follows Bob from his profile.
    ann.goto(f"{site}/u/bobby")
    ann.locator("#social").get_by_role("button", name="Follow", exact=True).click()
    ann.locator("#social").get_by_role("button", name="Unfollow").wait_for()
    # Bob has the lobby open: online on Ann's friends page.
    bob.goto(f"{site}/")
    ann.goto(f"{site}/friends")
    ann.wait_for_selector(f"{friend('bobby')} .presence.online")
    # Bob sits down at a table: Ann's page shows it (within its next look), with the way to watch.
    code = sit_at_a_table(bob, site)
    watch = ann.locator(f"{friend('bobby')} a.watch")
    watch.wait_for()
    assert watch.get_attribute("href") == f"/t/{code}"
    assert ann.locator(f"{friend('bobby')} .presence").inner_text() == "At a table"
    # Back in the lobby, Bob is challenged from Ann's friends page: a table for two, casual.
    bob.goto(f"{site}/")
    ann.locator(friend("bobby")).get_by_role("button", name="Challenge the player bobby").click()
    ann.select_option("#challenge-players", "2")
    ann.fill("#challenge-rounds", "1")
    ann.click("#challenge-dialog button[value=send]")
    ann.wait_for_selector("#friends-notice:has-text('Challenge sent')")
    sent = ann.locator("#news .news-line", has_text="Your challenge of bobby waits for an answer")
    sent.wait_for()
    # Bob's lobby shows the challenge; he accepts and sits down at the new table, its creator.
    challenged = bob.locator("#news .news-line", has_text="annika challenges you")
    challenged.wait_for()
    assert "2 players, casual" in challenged.inner_text()
    # Both say until when it stays open: a real-time challenge waits five minutes for its answer.
    expires = {line.locator("time").get_attribute("datetime") for line in (sent, challenged)}
    (until,) = expires
    assert until is not None and timedelta(minutes=4) < datetime.fromisoformat(until) - datetime.now(UTC) <= timedelta(
        minutes=5
    )
    assert challenged.locator("time").inner_text().startswith("Open until ")
    challenged.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
    new_code = bob.url.rsplit("/t/", 1)[1]
    assert new_code != code and seat_of(bob) == 0
    # Ann's friends page hears of the acceptance and takes her to her seat there.
    ann.wait_for_url(f"{site}/t/{new_code}")
    assert seat_of(ann) == 1
    for page in (bob, ann):
        page.click("#waiting button.ready")
    for page in (bob, ann):
        page.wait_for_function("() => window.chickenfoot.state.status === 'playing'")
        names = page.evaluate("() => window.chickenfoot.state.names")
        assert names == ["bobby", "annika"]
    # The match of one round played out: Bob, who does not follow Ann yet, follows her from the results.
    for page in (bob, ann):
        page.evaluate(AUTOPLAY)
    follow = bob.locator("#ro-body").get_by_role("button", name="Follow the player annika")
    follow.wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(SHOTS / "results-390.png"))
    follow.click()
    bob.wait_for_function("() => document.querySelector('#toast').textContent === 'You follow annika now.'")
    assert ann.locator("#ro-body").get_by_role("button", name="Follow the player bobby").count() == 0
    bob.goto(f"{site}/friends")
    bob.wait_for_selector(friend("annika"))
    # The match's replay offers the same to whoever does not follow its players yet.
    fetch(ann, "DELETE", "/api/social/follows/bobby")
    ann.goto(f"{site}/r/{new_code}")
    ann.locator("#follows").get_by_role("button", name="Follow the player bobby").click()
    ann.wait_for_selector("#follow-notice:has-text('You follow bobby now.')")


def test_a_challenge_at_ones_own_pace_makes_a_table_at_that_pace(device: Device, site: str) -> None:
    cyd, dora = device(390), device(390)
    sign_up_with_password(cyd, site, "cydonia")
    sign_up_with_password(dora, site, "dorota")
    # From Dora's profile Cyd challenges her to a match of two at her own pace: 12 hours a move, lost on time.
    cyd.goto(f"{site}/u/dorota")
    cyd.locator("#social").get_by_role("button", name="Challenge", exact=True).click()
    cyd.select_option("#challenge-players", "2")
    cyd.fill("#challenge-rounds", "1")
    assert cyd.locator("#challenge-pace-details").is_hidden()
    cyd.select_option("#challenge-pace-kind", "turn")
    assert "as long as one move's time" in cyd.locator("#challenge-pace-details").inner_text()
    cyd.select_option("#challenge-pace-time", "43200")
    cyd.select_option("#challenge-pace-rule", "lose")
    SHOTS.mkdir(parents=True, exist_ok=True)
    cyd.screenshot(path=str(SHOTS / "challenge-pace-form-390.png"))
    cyd.click("#challenge-dialog button[value=send]")
    cyd.wait_for_selector("#social-notice:has-text('Challenge sent')")
    # Dora's lobby says the pace; she accepts, and the table she lands at says it too.
    pace = "At your own pace: 12 hours per move; when time runs out, they lose the match (two players)"
    dora.goto(f"{site}/")
    challenged = dora.locator("#news .news-line", has_text="cydonia challenges you")
    challenged.wait_for()
    assert f"2 players, casual. {pace}" in challenged.inner_text()
    assert dora.locator("#pace-kind option").count() == 2  # the create form's own pace, of the same fields
    dora.screenshot(path=str(SHOTS / "challenge-pace-lobby-390.png"))
    challenged.get_by_role("button", name="Accept").click()
    dora.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
    code = dora.url.rsplit("/t/", 1)[1]
    assert fetch(dora, "GET", f"/api/tables/{code}")["pace"] == {"move_seconds": 43200, "on_timeout": "lose"}
    dora.wait_for_selector(f"#pace:has-text('{pace}')")
    dora.screenshot(path=str(SHOTS / "challenge-pace-table-390.png"))
    # Cyd's friends page takes him to his seat there, where the same pace is said.
    cyd.goto(f"{site}/friends")
    cyd.locator("#news .news-line", has_text="dorota accepted your challenge").get_by_role(
        "button", name="Go to the table"
    ).click()
    cyd.wait_for_url(f"{site}/t/{code}")
    cyd.wait_for_selector(f"#pace:has-text('{pace}')")
    assert seat_of(cyd) == 1


@pytest.fixture(scope="module")
def friends_of_ruta(browser: Browser, site: str) -> Iterator[None]:
    """Ruta's friends: Jonas online (his lobby open), Ilze at a table (her page open), Sjoerd offline,
    Marta who challenges her; Ruta's own challenge of Sjoerd waits for its answer, and she blocks a troll."""
    contexts = []

    def opened(name: str) -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        sign_up_with_password(page, site, name, "/account")  # a page that asks for no news: not online
        return page

    ruta = opened("ruta")
    others = {name: opened(name) for name in ("jonas", "ilze", "sjoerd", "marta", "troll")}
    for name in ("jonas", "ilze", "sjoerd", "marta"):
        fetch(ruta, "POST", "/api/social/follows", {"name": name})
    fetch(ruta, "POST", "/api/social/blocks", {"name": "troll"})
    fetch(ruta, "POST", "/api/social/challenges", {"to": "sjoerd", "players": 2})
    fetch(others["marta"], "POST", "/api/social/challenges", {"to": "ruta", "players": 4, "rated": True})
    others["jonas"].goto(f"{site}/")  # the lobby asks for news: online
    sit_at_a_table(others["ilze"], site)
    yield
    for context in contexts:
        context.close()


@pytest.mark.usefixtures("friends_of_ruta")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_friends_page_in_every_language(device: Device, site: str, language: str, axe_script: Path) -> None:
    """Photographed at both widths, and scanned by axe-core: no finding of serious or critical impact."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page = device(width, language=language, bypass_csp=True)
        sign_in_with_password(page, site, "ruta", "/friends")
        page.wait_for_selector(f"{friend('ilze')} a.watch")
        page.wait_for_selector(f"{friend('jonas')} .presence.online")
        page.wait_for_selector("#news .news-line >> nth=1")
        assert page.locator(".friend").count() == 4 and page.locator("#blocked li").count() == 1
        assert page.locator(f"{friend('sjoerd')} .presence.offline").count() == 1
        assert page.evaluate("() => document.documentElement.lang") == language
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is wider than the window by {overflow} px"
        page.screenshot(path=str(SHOTS / f"friends-{language}-{width}.png"), full_page=True)
        page.add_script_tag(path=str(axe_script))
        found: list[dict[str, Any]] = page.evaluate(SCAN)
        (SHOTS / f"friends-{language}-{width}.axe.txt").write_text("".join(f"{v}\n" for v in found))
        assert not [v for v in found if v["impact"] in SERIOUS], found

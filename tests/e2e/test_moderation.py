"""Moderation in Chromium against a real server: an operator (the role granted by ``chickenfoot account op``)
and a player, each in a browser context of their own. Every action is taken on the moderation page with a
reason (a player's report handled from the page too, on a server whose desk holds one), the player
meets it in their own page (a mute saying until when, as the table opens and when a line is refused, and
gone when it is lifted; the filter, a table ended, a
suspension, a new name, a closed account), and its line appears in the audit log. The page is photographed
at 390 and 1280 px (``artifacts/moderation/``; ``docs/images/moderation/`` copies them).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from chickenfoot.testing.launch import answering, free_port

from .conftest import Device
from .helpers import ARTIFACTS
from .test_accounts import PASSWORD, scan, sign_up_with_password

SHOTS = ARTIFACTS / "moderation"
NEW_TABLE = """() => fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({seats: [{kind: 'bot', bot: 'easy'}, {kind: 'human'}]})})
  .then(r => r.json()).then(t => t.code)"""


MUTE_NOTE = """() => { const note = document.querySelector('#chat-refused');
  return note && !note.hidden && note.textContent.includes('The operators muted you in chat until'); }"""
"""Under the chat form, the note that the operators muted the player and until when."""


def grant(database_url: str, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "account", "op", name, "--database-url", database_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{name} is an operator"


def at_table(page: Page, site: str) -> str:
    """A new table whose seat 1 follows the page's account, open in the page; its code."""
    code = str(page.evaluate(NEW_TABLE))
    page.goto(f"{site}/t/{code}")
    page.wait_for_function("() => window.chickenfoot?.state?.seat === 1")
    return code


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")


def told(page: Page, words: str) -> None:
    """The page's toast says ``words`` (then its text is cleared, for the next one)."""
    page.wait_for_function("w => document.querySelector('#toast')?.textContent.includes(w)", arg=words)
    page.evaluate("document.querySelector('#toast').textContent = ''")


def refused(page: Page, words: str) -> None:
    """Under the chat form (beside a toast) the page says why the moderation refused the line: ``words``
    (then the note is cleared, for the next refusal)."""
    page.wait_for_function("w => document.querySelector('#chat-refused')?.textContent.includes(w)", arg=words)
    page.evaluate("document.querySelector('#chat-refused').textContent = ''")


def audited(admin: Page, action: str, words: str, reason: str) -> None:
    """The audit log's newest line is ``action``, saying ``words``, with ``reason``."""
    row = admin.locator("#audit tbody tr").first
    admin.wait_for_function(
        "a => document.querySelector('#audit tbody tr')?.dataset.action === a", arg=action, timeout=30_000
    )
    assert words in row.locator(".what").inner_text()
    assert row.locator(".reason").inner_text() == reason
    assert row.locator(".who").inner_text() == "olga"


def act(admin: Page, action: str, reason: str) -> None:
    admin.fill("#reason", reason)
    admin.click(f"#player-actions button[data-action={action}]")


def look_up(admin: Page, name: str) -> None:
    admin.fill("#look-up-name", name)
    admin.click("#look-up button[type=submit]")
    admin.wait_for_function("n => document.querySelector('#player-name')?.textContent === n", arg=name)


def sign_in_refused(page: Page, site: str, name: str) -> str:
    page.goto(f"{site}/signin")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_function("() => document.querySelector('#error')?.textContent")
    return page.locator("#error").inner_text()


def test_each_moderation_action_end_to_end(device: Device, served_site: tuple[str, str]) -> None:
    site, database_url = served_site
    admin, player = device(), device()
    sign_up_with_password(admin, site, "olga")
    grant(database_url, "olga")
    sign_up_with_password(player, site, "kim")
    code = at_table(player, site)
    say(player, "hello everyone")
    player.wait_for_function("() => document.querySelector('#chat-log')?.textContent.includes('hello everyone')")

    admin.goto(f"{site}/admin")
    admin.wait_for_selector("#audit tbody tr[data-action=grant]")
    assert admin.locator("#audit tbody tr .who").first.inner_text() == "the command line"
    look_up(admin, "kim")
    assert "hello everyone" in admin.locator("#player-chat").inner_text()
    assert code in admin.locator("#player-tables").inner_text()

    # The filter: the shipped words in any spelling, and a word the operator adds.
    say(player, "f u c k")
    refused(player, "nobody saw it")
    admin.fill("#new-word", "zorbl*")
    admin.click("#add-word button[type=submit]")
    admin.wait_for_function("() => document.querySelector('#words')?.textContent.includes('zorbl*')")
    audited(admin, "word_add", "Word ‘zorbl*’ added to the filter", "")
    say(player, "ZORBLAX")
    refused(player, "nobody saw it")

    # Muted: the player is told until when; their line reaches nobody.
    act(admin, "mute", "insults in chat")
    audited(admin, "mute", "Muted in chat until", "insults in chat")
    assert "Muted in chat until" in admin.locator("#player-status").inner_text()
    # The open page says so at once, and so does the table opened again, before the player says anything.
    player.wait_for_function(MUTE_NOTE)
    player.reload()
    player.wait_for_function("() => window.chickenfoot?.state?.seat === 1")
    player.wait_for_function(MUTE_NOTE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    player.set_viewport_size({"width": 390, "height": 844})
    player.locator("#chat-refused").scroll_into_view_if_needed()
    player.screenshot(path=str(SHOTS / "muted-note-390.png"))
    player.set_viewport_size({"width": 1280, "height": 800})
    player.evaluate("document.querySelector('#chat-refused').textContent = ''")  # the refusal below says it again
    say(player, "you are all idiots")
    player.wait_for_function("() => document.querySelector('#chat-refused')?.textContent.includes('muted you')")
    player.screenshot(path=str(SHOTS / "muted-1280.png"))
    assert "The operators muted you in chat until" in player.locator("#chat-refused").inner_text()
    assert "idiots" not in player.locator("#chat-log").inner_text()
    # Screenshots of the page with a muted player, their chat and the audit log, on a desktop and a phone.
    admin.screenshot(path=str(SHOTS / "admin-1280.png"), full_page=True)
    admin.set_viewport_size({"width": 390, "height": 844})
    admin.screenshot(path=str(SHOTS / "admin-390.png"), full_page=True)
    admin.set_viewport_size({"width": 1280, "height": 800})

    act(admin, "unmute", "apologised")
    audited(admin, "unmute", "Mute lifted", "apologised")
    # Lifted: the note goes from the open page, and the player is told they may chat again.
    player.wait_for_function("() => document.querySelector('#chat-refused')?.hidden")
    told(player, "lifted your mute")

    # A table ended: its match stops, its people are told, the table is gone.
    admin.fill("#end-code", code)
    admin.fill("#end-reason", "abusive table name")
    admin.click("#end-table button[type=submit]")
    admin.click("#confirm-dialog button[value=yes]")
    audited(admin, "end_table", "Table ended", "abusive table name")
    assert f"Table {code}" in admin.locator("#audit tbody tr .whom").first.inner_text()
    told(player, "The operators ended this table")

    # A new, neutral name: the player's own pages show it.
    act(admin, "rename", "offensive name")
    audited(admin, "rename", "New name: player", "offensive name")
    admin.wait_for_function("() => document.querySelector('#player-name')?.textContent.startsWith('player')")
    new_name = admin.locator("#player-name").inner_text()
    assert len(new_name) == len("player") + 6
    player.goto(f"{site}/account")
    player.wait_for_function("n => document.querySelector('#username')?.textContent === n", arg=new_name)

    # Suspended: the player's sessions end at once, and signing in is refused, saying until when.
    act(admin, "suspend", "spam")
    audited(admin, "suspend", "Sign-in suspended until", "spam")
    player.goto(f"{site}/account")
    player.wait_for_url(f"{site}/signin**")
    refusal = sign_in_refused(player, site, new_name)
    assert "The operators suspended your account until" in refusal
    act(admin, "unsuspend", "served")
    audited(admin, "unsuspend", "Suspension lifted", "served")

    # Closed, after the operator confirms it: the account is gone, the log keeps what was done to it.
    act(admin, "close", "threats")
    admin.click("#confirm-dialog button[value=yes]")
    audited(admin, "close", "Account closed", "threats")
    assert "Closed account" in admin.locator("#player-status").inner_text()
    assert sign_in_refused(player, site, new_name) == "wrong username or password"
    admin.screenshot(path=str(SHOTS / "audit-1280.png"), full_page=True)


@pytest.fixture(scope="module")
def desk_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server whose players' reports desk holds one open report of "kim" (report_desk_server.py)."""
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('desk') / 'games.sqlite3'}"
    command = [sys.executable, str(Path(__file__).with_name("report_desk_server.py")), str(port), database, "kim"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, text=True)
    try:
        answering(process, port)
        yield f"http://127.0.0.1:{port}", database
    finally:
        process.kill()
        process.wait()


def test_a_report_is_handled_from_the_page(device: Device, desk_site: tuple[str, str], axe_script: Path) -> None:
    site, database_url = desk_site
    admin, player = device(bypass_csp=True), device()  # the scan's script is the page's only foreign one
    sign_up_with_password(player, site, "kim")
    sign_up_with_password(admin, site, "olga")
    grant(database_url, "olga")
    admin.goto(f"{site}/admin")
    report = admin.locator(".admin-report[data-report='1']")
    report.wait_for()
    assert "you play like an idiot" in report.inner_text() and "insults all match" in report.inner_text()
    assert admin.locator("#open-count").inner_text() == "1 open report"
    report.get_by_role("button", name="Look up").click()
    admin.wait_for_function("() => document.querySelector('#player-name')?.textContent === 'kim'")
    act(admin, "mute", "insults, reported")
    audited(admin, "mute", "Muted in chat until", "insults, reported")
    (ARTIFACTS / "accounts").mkdir(parents=True, exist_ok=True)  # where the scan keeps its findings
    assert scan(admin, axe_script, "admin-1280") == []  # axe-core: no serious or critical violation
    SHOTS.mkdir(parents=True, exist_ok=True)
    admin.locator("#reports").screenshot(path=str(SHOTS / "report-1280.png"))
    report.locator("input").fill("muted for a day")
    report.locator("button[data-outcome=actioned]").click()
    audited(admin, "report", "Report 1 handled: action taken", "muted for a day")
    assert admin.locator("#audit tbody tr .whom").first.inner_text() == "kim"
    admin.wait_for_function("() => document.querySelector('#reports')?.textContent === 'No reports here.'")
    admin.click("#show-handled")
    admin.wait_for_function("() => document.querySelector('#reports')?.textContent.includes('muted for a day')")

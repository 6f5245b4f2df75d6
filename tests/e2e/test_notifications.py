"""Notifications in Chromium against a real server: the bell's list and the account's notification
settings in every language at 390 and 1280 px (photographed and scanned with axe-core), a list read on
one device going unread-free live on another, and a push sent by the server, decrypted by a push service
on this machine, delivered to the page's service worker, shown, and tapped open to its table.

Notices are told through the notify port from the test's own process, on the server's database, as
another server process would tell them: the server's outbox sends their pushes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.service import Accounts, AccountSettings
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.http.limits import AddressLimits, RateLimiter
from chickenfoot.server.notices import Challenge, ChatLine, Invited, MatchOver, Notice, RematchOffered, YourTurn
from chickenfoot.server.notifications.outbox import OutboxSettings
from chickenfoot.server.notifications.service import Notifications, NotificationSettings
from chickenfoot.server.storage import Storage
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.mail import MailCatcher
from chickenfoot.testing.push import PushService

from .conftest import watch_errors
from .helpers import ARTIFACTS, api
from .test_accessibility import SCAN, SERIOUS

SHOTS = ARTIFACTS / "notifications"
PASSWORD = "tile hub toe chicken"
LANGUAGES = ["en", "fy", "lt", "lv"]
UNREAD_TEXT = {
    "en": "Your turn at table",
    "fy": "Do bist oan bar oan tafel",
    "lt": "Tavo ėjimas prie stalo",
    "lv": "Tavs gājiens pie galda",
}


@dataclasses.dataclass
class Site:
    base: str
    database: str
    catcher: MailCatcher
    push: PushService


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('notifications') / 'games.sqlite3'}"
    log = tmp_path_factory.mktemp("notifications-log") / "serve.log"
    with MailCatcher() as catcher, PushService() as push, log.open("w") as output:
        options = [*OPEN_LIMITS, "--smtp-url", catcher.url, "--public-origin", base, "--push-service", push.origin]
        with served(port, database, options=[*options, "--outbox-poll", "0.5"], output=output):
            yield Site(base, database, catcher, push)


def off_the_loop(work: Callable[[], Any]) -> Any:
    """Run ``work`` (a coroutine's maker) in a thread of its own: Playwright's loop holds this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(work())).result()


def tell(site: Site, username: str, *notices: Notice) -> None:
    """Tell ``username`` each notice through the notify port, from this process, on the site's database."""

    async def told() -> None:
        clock = SystemClock()
        storage = Storage(site.database, clock)
        accounts = Accounts(storage, clock, AccountSettings())
        settings = NotificationSettings(push_services=(site.push.origin,), outbox=OutboxSettings(background=False))
        notifications = Notifications(
            storage, accounts, RateLimiter(AddressLimits()), LocalBus(), clock, settings, None
        )
        try:
            await notifications.start()
            account = await accounts.store.by_skeleton(skeleton(normalised(username)))
            assert account is not None
            for notice in notices:
                await notifications.notify(account.id, notice)
        finally:
            await notifications.stop()
            await storage.close()

    off_the_loop(told)


def table_code(site: Site) -> str:
    return str(api(site.base, "POST", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]})["code"])


@pytest.fixture
def device(browser: Browser, site: Site) -> Iterator[Callable[..., Page]]:
    opened: list[tuple[Any, list[str]]] = []

    def open_device(width: int = 1280, language: str = "en", bypass_csp: bool = False) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": 844 if width < 600 else 800}, bypass_csp=bypass_csp, base_url=site.base
        )
        context.set_default_timeout(30_000)
        context.grant_permissions(["notifications"], origin=site.base)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('cf-lang', '{language}')")
        opened.append((context, watch_errors(page)))
        return page

    yield open_device
    for context, errors in opened:
        context.close()
        assert not errors, errors


def signed_in(page: Page, site: Site, name: str, *, new: bool = False) -> None:
    page.goto(f"{site.base}/{'signup' if new else 'signin'}")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#password-go")
    page.wait_for_url(f"{site.base}/")


def csrf(page: Page) -> str:
    return str(page.request.get("/api/account").json()["csrf"])


@pytest.fixture(scope="module")
def seeded(site: Site, browser: Browser) -> str:
    """An account with one notice of every kind (one of them read), a confirmed address and quiet hours."""
    context = browser.new_context(base_url=site.base)
    page = context.new_page()
    signed_in(page, site, "annika", new=True)
    token = csrf(page)
    first, second, third = (table_code(site) for _ in range(3))
    tell(
        site,
        "annika",
        MatchOver(third, won=True, rating_change=18),
        ChatLine(second, by="Bram", number=3),
        RematchOffered(third, by="Bram"),
        Challenge(second, challenger="Cyd", players=2),
        Invited(first, seat=1, inviter="Bram", players=4),
        YourTurn(second, turn=4),
        YourTurn(first, turn=7),
    )
    page.request.post("/api/notifications/read", data={"table": third}, headers={"x-csrf-token": token})
    page.request.put(
        "/api/notifications/settings",
        data={
            "choices": {"chat": ["in_app"]},
            "quiet_from": 22 * 60,
            "quiet_until": 7 * 60,
            "time_zone": "Europe/Riga",
        },
        headers={"x-csrf-token": token},
    )
    page.request.post(
        "/api/notifications/email", data={"address": "annika@example.org"}, headers={"x-csrf-token": token}
    )
    context.close()
    return "annika"


def scan(page: Page, axe: Path) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(axe))
    return [v for v in page.evaluate(SCAN) if v["impact"] in SERIOUS]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bell_and_the_settings_in_every_language(
    device: Callable[..., Page], site: Site, seeded: str, axe_script: Path, language: str, width: int
) -> None:
    page = device(width, language, bypass_csp=True)  # axe is injected as an inline script
    signed_in(page, site, seeded)
    badge = page.locator("#notices .badge-count")
    badge.wait_for()
    assert badge.inner_text() == "5"
    page.click("#notices summary")
    lines = page.locator(".notices-list li")
    assert lines.count() == 7 and page.locator(".notices-list li.unread").count() == 5
    assert UNREAD_TEXT[language] in lines.first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"list-{language}-{width}.png"))
    assert scan(page, axe_script) == []
    page.goto(f"{site.base}/account#notifications")
    page.wait_for_selector("#notifications .notify-choices")
    assert page.locator("#quiet-zone").input_value() == "Europe/Riga"
    assert page.locator("#email-pending").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("#notifications").scroll_into_view_if_needed()
    page.locator("#notifications").screenshot(path=str(SHOTS / f"settings-{language}-{width}.png"))
    assert scan(page, axe_script) == []


def test_read_on_one_device_is_read_on_the_other_at_once(device: Callable[..., Page], site: Site) -> None:
    phone, laptop = device(390), device(1280)
    signed_in(phone, site, "bertil", new=True)
    tell(site, "bertil", YourTurn(table_code(site), turn=1), YourTurn(table_code(site), turn=1))
    signed_in(laptop, site, "bertil")
    phone.reload()
    for page in (phone, laptop):
        page.locator("#notices .badge-count").wait_for()
        assert page.locator("#notices .badge-count").inner_text() == "2"
    phone.click("#notices summary")
    phone.click(".notices-head button")
    laptop.locator("#notices .badge-count").wait_for(state="hidden")  # heard live, not asked again by hand


def test_a_push_is_shown_by_the_service_worker_and_tapped_open_to_its_table(
    device: Callable[..., Page], site: Site
) -> None:
    page = device(390)
    signed_in(page, site, "cecilia", new=True)
    phone = site.push.device("cecilia-phone")
    added = page.request.post(
        "/api/notifications/subscriptions", data=phone.subscription(), headers={"x-csrf-token": csrf(page)}
    )
    assert added.status == 201, added.text()
    page.goto(f"{site.base}/account")
    page.evaluate("navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)")
    page.reload()  # now the worker controls the page
    assert page.evaluate("!!navigator.serviceWorker.controller")
    worker = page.context.service_workers[0]
    code = table_code(site)
    before = len(site.push.received)
    tell(site, "cecilia", YourTurn(code, turn=2))
    push = site.push.wait_for(before + 1)[-1]  # sent by the server's outbox, decrypted with the device's keys
    assert push.device == "cecilia-phone" and push.payload["url"] == f"/t/{code}"
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    while not registrations:
        page.wait_for_timeout(50)  # the event comes on the next turn of the protocol
    delivered = {"origin": site.base, "registrationId": registrations[0]["registrationId"], "data": push.raw.decode()}
    cdp.send("ServiceWorker.deliverPushMessage", delivered)
    shown = worker.evaluate(
        "async () => { for (;;) { const found = await self.registration.getNotifications();"
        " if (found.length) return found.map((n) => [n.title, n.body, n.tag, n.data.url]);"
        " await new Promise((wake) => setTimeout(wake, 50)); } }"
    )
    assert shown == [["Chicken Foot", f"Your turn at table {code}", f"your_turn:{code}", f"/t/{code}"]]
    worker.evaluate(
        "async () => { const [shown] = await self.registration.getNotifications();"
        " self.dispatchEvent(new NotificationEvent('notificationclick', { notification: shown })); }"
    )
    page.wait_for_url(f"{site.base}/t/{code}")  # tapped: the table opens
    page.locator('#notices summary[aria-label="Notifications"]').wait_for(
        state="attached"
    )  # the bell heard it was seen
    assert json.loads(page.request.get("/api/notifications").text())["unread"] == 0  # seen there

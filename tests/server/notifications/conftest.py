"""Fixtures of the notification tests: an app with a mail server and a push service of its own (both on
this machine), a fake clock to move, and people signed in as accounts."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.service import AccountSettings
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.limits import AccountLimits
from chickenfoot.server.http.security import SESSION_COOKIE
from chickenfoot.server.notices import Notice
from chickenfoot.server.notifications.mail import parse_smtp_url
from chickenfoot.server.notifications.outbox import OutboxSettings
from chickenfoot.server.notifications.service import Notifications, NotificationSettings
from chickenfoot.testing.mail import MailCatcher
from chickenfoot.testing.push import PushService

from ..accounts import conftest as accounts_fixtures
from ..accounts.conftest import GENEROUS, PASSWORD
from ..conftest import INSTANT

no_accounts_yet = accounts_fixtures.no_accounts_yet
ORIGIN = "http://chickenfoot.test"
DIGEST_SECONDS = 600.0
T = TypeVar("T")


@pytest.fixture
def catcher() -> Iterator[MailCatcher]:
    with MailCatcher() as mail:
        yield mail


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def push_service(clock: FakeClock) -> Iterator[PushService]:
    with PushService(clock.now) as service:
        yield service


def settings_for(catcher: MailCatcher, push_service: PushService, **changes: Any) -> NotificationSettings:
    settings = NotificationSettings(
        smtp=parse_smtp_url(catcher.url),
        push_services=(push_service.origin,),
        digest_seconds=DIGEST_SECONDS,
        outbox=OutboxSettings(retry_seconds=30.0, background=False),
    )
    return dataclasses.replace(settings, **changes)


@dataclass
class Person:
    """An account signed in on the test's client: its name, id, session and CSRF token."""

    app: App
    name: str
    id: int
    session: str
    csrf: str

    def call(self, method: str, url: str, **kwargs: Any) -> Any:
        client = self.app.client
        client.cookies.clear()
        client.cookies.set(SESSION_COOKIE, self.session)
        headers = {"x-csrf-token": self.csrf, **kwargs.pop("headers", {})}
        return client.request(method, url, headers=headers, **kwargs)

    def notices(self, lang: str = "en") -> dict[str, Any]:
        answer = self.call("GET", f"/api/notifications?lang={lang}")
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def subscribe(self, subscription: dict[str, Any]) -> None:
        answer = self.call("POST", "/api/notifications/subscriptions", json=subscription)
        assert answer.status_code == 201, answer.text

    def choose(self, **body: Any) -> dict[str, Any]:
        answer = self.call("PUT", "/api/notifications/settings", json=body)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


@dataclass
class App:
    client: TestClient
    clock: FakeClock
    catcher: MailCatcher
    push_service: PushService

    @property
    def notifications(self) -> Notifications:
        found: Notifications = self.client.app.state.notifications  # type: ignore[attr-defined]
        return found

    def run(self, work: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        """Run ``work`` on the app's event loop."""
        return self.client.portal.call(lambda: work(*args, **kwargs))  # type: ignore[union-attr]

    def advance(self, seconds: float) -> None:
        """Move the app's clock on (its timers run on the app's loop), then let the loop run."""
        self.client.portal.call(self.clock.advance, seconds)  # type: ignore[union-attr]
        self.settle()

    def settle(self) -> None:
        """Let the app's loop run what is ready: the outbox's worker, the tasks the hooks started."""
        self.run(self.notifications.settle)

    def send_due(self) -> int:
        """Have the outbox send what is due now (what its worker does on each wake)."""
        return self.run(self.notifications.outbox.run_once)

    def notify(self, person: Person, notice: Notice, sender: int | None = None) -> None:
        self.run(self.notifications.notify, person.id, notice, sender=sender)

    def sign_up(self, name: str) -> Person:
        self.client.cookies.clear()
        answer = self.client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        session = self.client.cookies[SESSION_COOKIE]
        store = AccountStore(self.client.app.state.storage)  # type: ignore[attr-defined]
        account = self.run(store.by_skeleton, skeleton(normalised(name)))
        assert account is not None
        return Person(self, name, account.id, session, answer.json()["csrf"])

    def table(self) -> str:
        """A new table's code (a notice names a table that exists)."""
        answer = self.client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert answer.status_code == 201, answer.text
        return str(answer.json()["code"])


@pytest.fixture
def make_app(
    make_client: Callable[..., TestClient],
    no_accounts_yet: None,
    catcher: MailCatcher,
    push_service: PushService,
    clock: FakeClock,
) -> Callable[..., App]:
    def make(**changes: Any) -> App:
        client = make_client(
            INSTANT,
            clock=clock,
            addresses=GENEROUS,
            account_limits=changes.pop("account_limits", AccountLimits("1000/hour", "1000/hour")),
            accounts=AccountSettings(origin=ORIGIN),
            notifications=settings_for(catcher, push_service, **changes),
        )
        return App(client, clock, catcher, push_service)

    return make


@pytest.fixture
def app(make_app: Callable[..., App]) -> App:
    return make_app()

"""Browser tests: a real ``chickenfoot serve`` on a free port with a temporary SQLite file, driven by
Debian's Chromium through Playwright."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip(
        "Chromium is not installed at /usr/bin/chromium (bash scripts/test-services.sh installs it)",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served  # noqa: E402

Device = Callable[..., Page]
"""Opens a device (:func:`device`): a page in a browser context of its own."""

REVIEW_BUDGET = 8
"""Sampled deals per move of the server's reviews: few, so a review is done in seconds."""


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server; bots and forced moves pause briefly (pace 0.25)."""
    port = free_port()
    database = tmp_path_factory.mktemp("e2e") / "games.sqlite3"
    with (
        (tmp_path_factory.mktemp("e2e-log") / "serve.log").open("w") as log,
        served(
            port,
            f"sqlite+aiosqlite:///{database}",
            pace=0.25,
            output=log,
            options=OPEN_LIMITS,
            review_budget=REVIEW_BUDGET,
        ),
    ):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    # Package scope: Playwright's sync API keeps an event loop running in this thread while it
    # lives, which would break every later test that starts its own loop (asyncio.run).
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    # Generous: a loaded machine slows the browser, the server and its bots alike.
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def watch_errors(page: Page) -> list[str]:
    """Errors the page throws, and every Content-Security-Policy violation it reports, from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None,
    )
    return errors


AXE_VERSION = "4.14.1"
"""The axe-core that scripts/test-services.sh installs (npm, into the user's cache)."""


@pytest.fixture(scope="package")
def axe_script() -> Path:
    """axe.min.js of the ``axe-core`` npm package (``CHICKENFOOT_AXE`` names another copy)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    path = Path(
        os.environ.get(
            "CHICKENFOOT_AXE", cache / f"chickenfoot/axe-core-{AXE_VERSION}/node_modules/axe-core/axe.min.js"
        )
    )
    if not path.is_file():
        message = f"axe-core is not installed at {path} (bash scripts/test-services.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


# A site of its own for a module (its sign-ins never meet the shared server's per-address limits), opened
# as ``localhost``: WebAuthn refuses an IP address as its relying party; and the devices that visit it.


@pytest.fixture(scope="module")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The site's address and its database's URL."""
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('accounts') / 'games.sqlite3'}"
    with served(port, database, pace=0.25, options=OPEN_LIMITS):
        yield f"http://localhost:{port}", database


@pytest.fixture
def site(served_site: tuple[str, str]) -> str:
    return served_site[0]


@pytest.fixture
def device(browser: Browser) -> Iterator[Device]:
    """Opens a device: a browser context of its own (cookies, storage), with a passkey authenticator
    when asked; every page error fails the test."""
    opened: list[tuple[Any, list[str]]] = []

    def open_device(
        width: int = 1280, authenticator: bool = False, language: str = "en", bypass_csp: bool = False
    ) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": 844 if width < 600 else 800}, bypass_csp=bypass_csp
        )
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('cf-lang', '{language}')")
        if authenticator:
            cdp = context.new_cdp_session(page)
            cdp.send("WebAuthn.enable")
            options = {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
            cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        opened.append((context, watch_errors(page)))
        return page

    yield open_device
    for context, _ in opened:
        context.close()
    assert not [error for _, errors in opened for error in errors]

"""Browser tests: a real ``chickenfoot serve`` on a free port with a temporary SQLite file, driven by
Debian's Chromium through Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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

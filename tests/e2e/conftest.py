"""Browser tests: a real ``chickenfoot serve`` on a free port with a temporary SQLite file, driven by
Debian's Chromium through Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server; bots and forced moves pause briefly (pace 0.25)."""
    port = _free_port()
    database = tmp_path_factory.mktemp("e2e") / "games.sqlite3"
    log = (tmp_path_factory.mktemp("e2e-log") / "serve.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chickenfoot",
            "serve",
            "--port",
            str(port),
            "--pace",
            "0.25",
            "--database-url",
            f"sqlite+aiosqlite:///{database}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/presets", timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"chickenfoot serve did not start (see {log.name})")
            time.sleep(0.2)
    yield base
    process.terminate()
    process.wait(10)
    log.close()


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
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"

"""What makes the site an app a phone installs (server/pages.py): the manifest in the reader's language,
its icons at their sizes, the colours of the site's themes, the service worker served at the root with
this version's build written in, and the catalogs a page opened offline reads."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from chickenfoot import __version__
from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.messages import Code
from chickenfoot.server import Settings, create_app
from chickenfoot.server.app import WEB_DIR
from chickenfoot.server.http.pages import BACKGROUND, OFFLINE_PAGES, THEME_COLOURS, service_worker


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("installable") / "games.db"
    with TestClient(create_app(Settings(database_url=f"sqlite+aiosqlite:///{database}"))) as client:
        yield client


def build_of(script: str) -> dict[str, Any]:
    """The build the server wrote into the service worker."""
    found = re.search(r"^const BUILD = (.*);$", script, re.MULTILINE)
    assert found is not None, "no build in the service worker"
    build: dict[str, Any] = json.loads(found.group(1))
    return build


def css_colour(block: str, name: str) -> str:
    found = re.search(rf"--{name}: (#[0-9a-f]{{6}})", block)
    assert found is not None, name
    return found.group(1)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_manifest_names_the_app_in_the_readers_language(client: TestClient, lang: str) -> None:
    for answer in (
        client.get(f"/manifest.webmanifest?lang={lang}"),
        client.get("/manifest.webmanifest", headers={"Accept-Language": f"{lang};q=0.9, de;q=1"}),
    ):
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/manifest+json"
        manifest = answer.json()
        assert manifest["name"] == manifest["short_name"] == render(Code.GAME_NAME, lang)
        assert manifest["lang"] == lang
        assert len(manifest["short_name"]) <= 12  # a launcher shows about twelve characters under an icon
        assert manifest["id"] == manifest["start_url"] == manifest["scope"] == "/"
        assert manifest["display"] == "standalone"


def test_an_unknown_language_gets_the_manifest_in_english(client: TestClient) -> None:
    assert client.get("/manifest.webmanifest?lang=xx").json()["name"] == "Chicken Foot"


def test_the_icons_are_there_at_their_sizes(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    purposes = {(icon["sizes"], icon["purpose"]) for icon in icons}
    # What Chromium asks of an installable app, and a maskable icon for the launchers that cut shapes.
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    shell = client.get("/").text
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', shell)
    assert touch is not None
    linked = [(icon["src"], icon["sizes"], icon["purpose"]) for icon in icons]
    for src, sizes, purpose in [*linked, (touch.group(1), "180x180", "full")]:
        answer = client.get(src)
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png", src
        image = Image.open(io.BytesIO(answer.content)).convert("RGBA")
        assert f"{image.width}x{image.height}" == sizes, src
        corner = image.getpixel((0, 0))
        assert isinstance(corner, tuple)
        # A maskable icon (and the iPhone's, which it rounds itself) fills its square; the other has
        # rounded corners of its own.
        assert corner[3] == (0 if purpose == "any" else 255), src


def test_the_colours_are_the_themes(client: TestClient) -> None:
    style = (WEB_DIR / "style.css").read_text()
    light = style[style.index(":root {") :]
    dark = style[style.index(':root[data-theme="dark"]') :]
    assert {"light": css_colour(light, "card"), "dark": css_colour(dark, "card")} == THEME_COLOURS
    assert css_colour(light, "bg") == BACKGROUND
    manifest = client.get("/manifest.webmanifest").json()
    assert (manifest["theme_color"], manifest["background_color"]) == (THEME_COLOURS["light"], BACKGROUND)
    shell = client.get("/howto.html").text
    for scheme, colour in THEME_COLOURS.items():
        meta = f'<meta name="theme-color" content="{colour}" media="(prefers-color-scheme: {scheme})">'
        assert shell.count(meta) == 1, meta
    assert shell.count('<link rel="manifest" id="manifest" href="/manifest.webmanifest">') == 1


def test_the_service_worker_carries_this_versions_build(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # a new version is seen at the next visit
    build = build_of(answer.text)
    assert re.fullmatch(rf"chickenfoot-{re.escape(__version__)}-[0-9a-f]{{16}}", build["cache"])
    assert build["pages"] == list(OFFLINE_PAGES) == ["/", "/howto.html", "/offline.html"]
    files = build["files"]
    static = {
        f"/{path.relative_to(WEB_DIR).as_posix()}"
        for path in WEB_DIR.rglob("*")
        if path.is_file() and path.parent.name != "pages" and path.name != "sw.js"
    }
    assert set(files) == static | {f"/i18n/{lang}.json" for lang in LANGUAGES}
    assert {"/style.css", "/app.js", "/icons/icon-192.png", "/offline.js"} <= set(files)
    # Nothing answered per player or per table, nothing of the API, no template as it is written.
    assert not [url for url in files if url.startswith(("/api/", "/ws/", "/t/", "/pages/"))]
    # Every address answers, so that the installation (all or nothing) succeeds.
    for url in [*build["pages"], *files]:
        assert client.get(url).status_code == 200, url


def test_the_cache_is_named_after_what_it_keeps(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    first = build_of(service_worker(web))["cache"]
    (web / "style.css").touch()
    assert build_of(service_worker(web))["cache"] == first  # the same files: the same cache
    (web / "style.css").write_text((web / "style.css").read_text() + "\n/* changed */\n")
    changed = build_of(service_worker(web))["cache"]
    assert changed != first
    (web / "pages" / "_shell.html").write_text((web / "pages" / "_shell.html").read_text() + "\n")
    assert build_of(service_worker(web))["cache"] not in (first, changed)  # a page's shell is kept too


def test_a_worker_without_its_build_line_is_refused(tmp_path: Path) -> None:
    shutil.copytree(WEB_DIR, tmp_path / "web")
    (tmp_path / "web" / "sw.js").write_text("// @ts-check\n")
    with pytest.raises(ValueError, match="not one"):
        service_worker(tmp_path / "web")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_catalog_has_an_address_of_its_own(client: TestClient, lang: str) -> None:
    kept = client.get(f"/i18n/{lang}.json")
    assert kept.status_code == 200 and kept.headers["content-language"] == lang
    assert kept.content == client.get(f"/api/i18n?languages={lang}").content


def test_a_language_the_game_has_not_is_a_404(client: TestClient) -> None:
    answer = client.get("/i18n/de.json")
    assert answer.status_code == 404 and answer.json()["code"] == Code.ERROR_PAGE_MISSING.id

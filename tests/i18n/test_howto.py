"""How to play: the structure, its drawings checked by the engine, the terminal text, the page's route."""

from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_file
from fastapi import FastAPI
from fastapi.testclient import TestClient

from chickenfoot.errors import PositionError
from chickenfoot.howto import SECTIONS, figure_round, structure
from chickenfoot.i18n import LANGUAGES, catalog_json, render
from chickenfoot.layout import Phase
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.server.app import WEB_DIR
from chickenfoot.server.i18n_routes import MAX_PREFERENCES, router
from chickenfoot.tui.howto import howto_text


def test_every_howto_message_is_in_a_section() -> None:
    used = [code for s in SECTIONS for code in (s.title, *s.paragraphs, s.figure and s.figure.caption) if code]
    howto = [code for code in Code if code.id.startswith("howto.")]
    assert sorted(used, key=lambda c: c.id) == sorted(howto, key=lambda c: c.id)


def test_drawings_are_legal_and_show_what_they_say() -> None:
    hub, foot = (s.figure for s in SECTIONS if s.figure is not None)
    assert hub is not None and foot is not None
    assert figure_round(hub.layout).view(0).phase is Phase.OPEN
    view = figure_round(foot.layout).view(0)
    assert view.phase is Phase.OPEN and len(view.open_ends) == 6  # three arms and three toes
    with pytest.raises(PositionError):
        figure_round((*foot.layout[:-1], ("5-5", "4-4")))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_terminal_howto(lang: str) -> None:
    text = howto_text(lang, width=60)
    for section in SECTIONS:
        if section.title is not None:
            assert f"\n{render(section.title, lang)}\n" in text
        for code in section.paragraphs:
            assert " ".join(render(code, lang).split()) in " ".join(text.split())
    assert all(len(line) <= 60 for line in text.splitlines())
    assert "[4|4]" in text


def test_route_negotiates_and_serves_catalog_and_sections() -> None:
    app = FastAPI()
    app.include_router(router)
    client = TestClient(app)
    answer = client.get("/api/i18n", params={"languages": "de-DE,lv-LV,lt"})
    assert answer.status_code == 200 and answer.headers["content-language"] == "lv"
    data = answer.json()
    assert data["messages"] == catalog_json("lv")["messages"]
    assert data["howto"] == structure()
    assert data["languages"] == dict(LANGUAGES)
    header = client.get("/api/i18n", headers={"accept-language": "fy-NL,nl;q=0.9"})
    assert header.json()["lang"] == "fy"
    flood = client.get("/api/i18n", params={"languages": "x," * MAX_PREFERENCES + "lt"})
    assert flood.json()["lang"] == "en"


def test_codes_named_by_the_page_exist() -> None:
    """Every t("code") in the page's modules (found by Babel's JavaScript extractor) is in the code list."""
    known = {code.id for code in Code}
    named: set[str] = set()
    for path in sorted(WEB_DIR.glob("*.js")):
        named |= {str(text) for _, text, _, _ in extract_from_file("javascript", path, keywords={"t": None})}
    for path in sorted(WEB_DIR.rglob("*.html")):
        named |= set(re.findall(r'data-t(?:-[a-z-]+)?="([^"]+)"', path.read_text()))
    assert named, "the page names no codes"
    assert named <= known, sorted(named - known)


def test_no_message_call_hides_in_a_template_literal() -> None:
    """Babel's extractor does not look inside `${...}`: a code named there would go unchecked."""
    for path in sorted(WEB_DIR.glob("*.js")):
        assert "${t(" not in path.read_text(), path.name


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_howto_numbers_are_the_engines(lang: str) -> None:
    """The numbers How to play quotes are those of the default rules (docs/rules.md)."""
    rules = Rules()
    first, second = (f"{d}-{d}" for d in rules.start_doubles()[:2])
    assert str(rules.tile_count) in render(Code.HOWTO_SETUP, lang)
    assert str(rules.max_pip) in render(Code.HOWTO_SETUP, lang)
    assert [rules.hand_size_for(p) for p in (4, 7, 8)] == [7, 7, 6]  # "seven with four to seven, six with eight"
    assert all(t in render(Code.HOWTO_HUB, lang) for t in (first, second, "0-0"))
    assert str(rules.double_blank_points) in render(Code.HOWTO_SCORE, lang)
    assert (rules.hub_arms, rules.toes) == (4, 3)  # "four arms", "three toes" in every language

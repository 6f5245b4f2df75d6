"""Choosing a language, rendering codes with plurals and placeholders, the English fallback, the JSON export."""

from __future__ import annotations

import gettext
import io
from typing import get_args

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot import i18n
from chickenfoot.i18n import LANGUAGES, PLURAL_SAMPLES, catalog_json, choose_language, negotiate, render, template
from chickenfoot.messages import Code, EventKind

from .test_catalogs import placeholders, po_path


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("en", 1, "1 tile"),
        ("en", 2, "2 tiles"),
        ("lt", 1, "1 kauliukas"),
        ("lt", 3, "3 kauliukai"),
        ("lt", 10, "10 kauliukų"),
        ("lt", 21, "21 kauliukas"),
        ("lt", 12, "12 kauliukų"),
        ("lv", 0, "0 kauliņu"),
        ("lv", 1, "1 kauliņš"),
        ("lv", 2, "2 kauliņi"),
        ("lv", 11, "11 kauliņu"),
        ("lv", 21, "21 kauliņš"),
        ("fy", 1, "1 stien"),
        ("fy", 2, "2 stiennen"),
    ],
)
def test_plural_forms_by_number(lang: str, count: int, text: str) -> None:
    assert render(Code.TILE_COUNT, lang, count=count) == text


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_code_renders_in_every_language(lang: str) -> None:
    """Each code renders with its own placeholders filled in, and never shows the code itself."""
    for code in Code:
        shown = placeholders(code.value.plural or code.value.english)
        params: dict[str, object] = {name: f"<{name}>" for name in shown}
        if code.value.plural is not None:
            params["count"] = 3
        text = render(code, lang, **params)
        assert code.id not in text
        assert "{" not in text
        assert all(str(params[name]) in text for name in shown), (code.id, text)


def test_render_takes_wire_codes_and_refuses_unknown_ones() -> None:
    assert render("illegal.not_in_hand", "lt", tile="9-4", name="Ona") == "Ona neturi kauliuko 9-4"
    with pytest.raises(ValueError, match="unknown message code"):
        render("no.such.code", "en")
    with pytest.raises(ValueError, match="unknown language"):
        render(Code.PASS, "de")
    with pytest.raises(ValueError, match="needs a count"):
        template(Code.TILE_COUNT, "lv")


def _catalog_without(lang: str, *codes: str) -> gettext.GNUTranslations:
    with po_path(lang).open("rb") as file:
        catalog = read_po(file, locale=lang)
    for message in list(catalog):
        if message.context in codes:
            catalog.delete(message.id, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def test_a_missing_string_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = _catalog_without("lt", "event.hub", "ui.tile_count")
    monkeypatch.setattr(i18n, "translations", lambda lang: missing)
    assert render(Code.EVENT_HUB, "lt", name="Ona", tile="9-9") == "Ona placed the hub 9-9"
    assert render(Code.TILE_COUNT, "lt", count=1) == "1 tile"
    assert render(Code.TILE_COUNT, "lt", count=10) == "10 tiles"
    assert render(Code.EVENT_PASS, "lt", name="Ona") == "Ona praleido ėjimą"
    exported = catalog_json("lt")["messages"]
    assert exported["event.hub"] == "{name} placed the hub {tile}"
    assert exported["ui.tile_count"] == ["{count} tile", "{count} tiles", "{count} tiles"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_catalog_json_has_every_code_and_every_plural_form(lang: str) -> None:
    exported = catalog_json(lang)
    assert exported["lang"] == lang
    assert exported["plural_categories"] == list(PLURAL_SAMPLES[lang])
    assert exported["plural_forms"].startswith(f"nplurals={len(PLURAL_SAMPLES[lang])};")
    assert list(exported["messages"]) == [code.id for code in Code]
    for code in Code:
        value = exported["messages"][code.id]
        if code.value.plural is None:
            assert value == template(code, lang)
        else:
            assert value == [template(code, lang, n) for n in PLURAL_SAMPLES[lang].values()]


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "lt_LT.UTF-8"}, "lt"),
        ({"LC_MESSAGES": "fy_NL.UTF-8", "LANG": "lv_LV.UTF-8"}, "fy"),
        ({"LC_ALL": "C", "LANG": "lv_LV.UTF-8"}, "en"),
        ({"LANGUAGE": "de:lv", "LANG": "lt_LT.UTF-8"}, "lv"),
        ({"LANGUAGE": "de", "LANG": "lt_LT.UTF-8"}, "lt"),
        ({}, "en"),
    ],
)
def test_terminal_language_follows_the_environment(environ: dict[str, str], lang: str) -> None:
    assert choose_language(environ=environ) == lang


def test_explicit_language_wins_and_unknown_is_refused() -> None:
    assert choose_language("LV", {"LANG": "lt_LT.UTF-8"}) == "lv"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        choose_language("xx")


def test_browser_language_by_quality() -> None:
    assert negotiate("de-DE,de;q=0.9,lt;q=0.5,lv;q=0.7") == "lv"
    assert negotiate(["nl-NL", "fy", "en"]) == "fy"
    assert negotiate("de;q=x, *") == "en"


@given(st.one_of(st.text(max_size=200), st.lists(st.text(max_size=20), max_size=40)))
def test_negotiate_always_answers_a_game_language(preferences: str | list[str]) -> None:
    assert negotiate(preferences) in LANGUAGES


def test_every_event_kind_has_its_words() -> None:
    ids = [code.id for code in Code]
    for kind in get_args(EventKind):
        assert any(i == f"event.{kind}" or i.startswith((f"event.{kind}.", f"event.{kind}_")) for i in ids), kind

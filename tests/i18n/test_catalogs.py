"""The catalogs: complete in every language, consistent with the English, compiled, and plural-correct."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from chickenfoot import messages
from chickenfoot.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, PLURAL_SAMPLES
from chickenfoot.messages import Code

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# The pybabel keywords of scripts/i18n.sh: msg(code, english), nmsg(code, singular, plural).
KEYWORDS = {"msg": ((1, "c"), 2), "nmsg": ((1, "c"), 2, 3)}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(lang: str) -> Catalog:
    with po_path(lang).open("rb") as file:
        return read_po(file, locale=lang)


def forms(message: Message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, (tuple, list)) else (str(string or ""),)


def english(code: Code) -> tuple[str, ...]:
    text = code.value
    return (text.english,) if text.plural is None else (text.english, text.plural)


def placeholders(text: str) -> list[str]:
    return sorted(field for _, field, _, _ in string.Formatter().parse(text) if field is not None)


def markup(text: str) -> list[str]:
    return sorted(re.findall(r"</?[a-z]+[^>]*>", text)) + ["\n"] * text.count("\n")


def test_extraction_finds_every_code_once() -> None:
    """pybabel sees exactly the code list: no message is built where the extractor cannot see it."""
    found = [str(context) for _, _, context, _ in _extract()]
    assert sorted(found) == sorted(code.id for code in Code)
    assert len(set(found)) == len(found)


def _extract() -> list[tuple[int, str | tuple[str, ...], str | None, list[str]]]:
    return [
        (line, text, context, comments)
        for line, text, comments, context in extract_from_file("python", messages.__file__, keywords=KEYWORDS)
    ]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_catalog_holds_every_code_with_the_current_english(lang: str) -> None:
    catalog = load(lang)
    by_code = {message.context: message for message in catalog if message.id}
    assert set(by_code) == {code.id for code in Code}, "run scripts/i18n.sh to update the catalogs"
    for code in Code:
        message = by_code[code.id]
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        assert ids == english(code), f"{lang} {code.id}: the English changed; run scripts/i18n.sh"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    catalog = load(lang)
    by_code = {message.context: message for message in catalog if message.id}
    problems = []
    for code in Code:
        message = by_code[code.id]
        source = english(code)
        if message.fuzzy:
            problems.append(f"{code.id}: fuzzy")
        translated = forms(message)
        expected_forms = 1 if code.value.plural is None else catalog.num_plurals
        if len(translated) != expected_forms or not all(t.strip() for t in translated):
            problems.append(f"{code.id}: untranslated or missing plural forms")
            continue
        for text in translated:
            if placeholders(text) != placeholders(source[-1]):
                problems.append(f"{code.id}: placeholders {placeholders(text)} != {placeholders(source[-1])}")
            if markup(text) != markup(source[-1]):
                problems.append(f"{code.id}: markup or line breaks differ from the English")
    assert not problems, f"{lang}: " + "; ".join(problems)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_compiled_catalog_matches_its_po_file(lang: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, load(lang))
    committed = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    assert committed == buffer.getvalue(), f"{lang}: the .mo is older than the .po; run scripts/i18n.sh compile"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_plural_forms_follow_cldr(lang: str) -> None:
    """The header's Plural-Forms picks, for every whole number, the form of its CLDR category."""
    catalog = load(lang)
    samples = PLURAL_SAMPLES[lang]
    categories = list(samples)
    assert catalog.num_plurals == len(categories)
    choose = gettext.c2py(catalog.plural_expr)
    locale = Locale.parse(lang)
    for n in range(1001):
        assert categories[choose(n)] == locale.plural_form(n), f"{lang}: {n}"
    for category, n in samples.items():
        assert locale.plural_form(n) == category


def test_english_is_the_source() -> None:
    """The English catalog adds no wording of its own: every English sentence lives in the code list."""
    assert all(not any(forms(message)) for message in load("en") if message.id)

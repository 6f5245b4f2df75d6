"""Faults a machine can see in a translation (docs/translating.md): each check names the message and why.

The catalogs read are the ``.po`` files; ``I18N_PO_DIR`` points the checks at another copy of the
``locales`` folder (``<dir>/<lang>/LC_MESSAGES/chickenfoot.po``), e.g. an older version to compare.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from chickenfoot.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from chickenfoot.messages import Code

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PO_DIR = Path(os.environ.get("I18N_PO_DIR") or LOCALE_DIR)

NAMES = r"\{(?:name|names|old|player|tied)\}"
"""The placeholders that hold a player's name: always in the nominative (it cannot decline)."""

# A preposition or postposition governs a case a name cannot take ("už Jonas", "Jānis vietā"):
# the name goes after a noun in that case ("vietoje žaidėjo {name}", "spēlētāja {name} vietā").
PREPOSITIONS = {
    "lt": "už|prie|su|be|iš|į|pas|apie|per|nuo|po|ant|dėl|iki|link|tarp|virš|prieš|vietoje|vietoj",
    # Not "līdz": it is also the conjunction "until" ("Līdz {name} atgriezīsies").
    "lv": "ar|bez|pie|par|pēc|no|uz|pret|aiz|zem|virs|starp|caur|gar|pa|priekš|pār|ap",
}
POSTPOSITIONS = {"lt": "dėka|labui|atžvilgiu", "lv": "vietā|dēļ|labā|labad"}
HEAD_NOUNS = {"lt": r"žaidėj\w*|robot\w*", "lv": r"spēlētāj\w*|robot\w*"}
"""Nouns a name may stand beside in apposition: the noun takes the case, the name stays as it is."""

UNITS = r"s|%|tšk\.|simb\.|elem\.|min\."
"""Units written after a number (seconds, per cent, Lithuanian points, characters, items, minutes)."""


def catalog(lang: str) -> dict[str, tuple[str, ...]]:
    """Each message code of ``lang`` with all its forms (English: the code list's own text)."""
    if lang == "en":
        return {code.id: tuple(t for t in (code.value.english, code.value.plural) if t) for code in Code}
    with (PO_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        messages = read_po(file, locale=lang)
    out = {}
    for message in messages:
        if message.id:
            text = message.string
            out[str(message.context)] = tuple(text) if isinstance(text, (tuple, list)) else (str(text),)
    return out


def faults(lang: str, check: Callable[[str], Iterator[str]]) -> list[str]:
    return [
        f"{code}: {why} in {text!r}" for code, texts in catalog(lang).items() for text in texts for why in check(text)
    ]


def cardinal_before_ordinal_word(text: str) -> Iterator[str]:
    """lt: "{round} raundas" reads "three rounds"; the ordinal is "Raundas {round}" (only a count precedes)."""
    for match in re.finditer(r"\{(?!count\})\w+\}\s+(?:raund|ėjim)\w*", text, re.IGNORECASE):
        yield f"{match.group()!r} reads as a count"


def name_after_preposition(lang: str) -> Callable[[str], Iterator[str]]:
    def check(text: str) -> Iterator[str]:
        for match in re.finditer(rf"(?<!\w)(?:{PREPOSITIONS[lang]})\s+{NAMES}", text, re.IGNORECASE):
            yield f"{match.group()!r} needs a case a name cannot take"
        for match in re.finditer(rf"{NAMES}\s+(?:{POSTPOSITIONS[lang]})(?!\w)", text, re.IGNORECASE):
            before = text[: match.start()].rstrip()
            if not re.search(rf"(?<!\w)(?:{HEAD_NOUNS[lang]})$", before, re.IGNORECASE):
                yield f"{match.group()!r} needs a case a name cannot take"

    return check


def adjacent_placeholders(text: str) -> Iterator[str]:
    """Two values side by side ("5 60 s") read as one number or a list: a word or a sign goes between."""
    for match in re.finditer(r"\{\w+\}\s*\{\w+\}", text):
        yield f"{match.group()!r} puts two values side by side"


def unit_without_no_break_space(text: str) -> Iterator[str]:
    """A number and its unit, or "Nr." and its number, stay on one line: a no-break space joins them."""
    for match in re.finditer(rf"(?:\{{\w+\}}|\d)[ \t](?:{UNITS})(?=$|[\s.,;:)!?])|\bNr\.[ \t](?:\{{|\d)", text):
        yield f"{match.group()!r} may break between the number and its unit"


def dash_style(text: str) -> Iterator[str]:
    """One dash per language: the spaced en dash ("a – b"); never an em dash or a hyphen between spaces."""
    for match in re.finditer(r"—| - ", text):
        yield f"{match.group()!r} is not the spaced en dash"


@pytest.mark.parametrize("lang", ["lt"])
def test_round_and_move_numbers_are_ordinals(lang: str) -> None:
    found = faults(lang, cardinal_before_ordinal_word)
    assert not found, found


@pytest.mark.parametrize("lang", ["lt", "lv"])
def test_names_stay_in_the_nominative(lang: str) -> None:
    found = faults(lang, name_after_preposition(lang))
    assert not found, found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_two_placeholders_side_by_side(lang: str) -> None:
    found = faults(lang, adjacent_placeholders)
    assert not found, found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_numbers_and_units_do_not_break(lang: str) -> None:
    found = faults(lang, unit_without_no_break_space)
    assert not found, found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_dash_style(lang: str) -> None:
    found = faults(lang, dash_style)
    assert not found, found


@pytest.mark.parametrize(
    ("check", "bad", "good"),
    [
        (cardinal_before_ordinal_word, "{round} raundas baigtas", "Raundas {round} baigtas; {count} raundų"),
        (name_after_preposition("lt"), "Už {name} žaidžia robotas", "Vietoje žaidėjo {name} žaidžia robotas"),
        (name_after_preposition("lv"), "Robots spēlē {name} vietā", "Robots spēlē spēlētāja {name} vietā"),
        (name_after_preposition("lv"), "Pie {name} nav vietas", "Līdz {name} atgriezīsies, spēlē robots"),
        (adjacent_placeholders, "ne vairāk kā {limit} {window} s laikā", "{window} s laikā ne vairāk kā {limit}"),
        (unit_without_no_break_space, "pēc {seconds} s", "pēc {seconds}\u00a0s"),
        (unit_without_no_break_space, "Bandymas Nr. {attempt}", "Bandymas Nr.\u00a0{attempt}; {count} sekundžių"),
        (dash_style, "Tavo ėjimas — užbaik", "Tavo ėjimas – užbaik; 9-4"),
    ],
)
def test_each_check_tells_a_fault_from_its_fix(check: Callable[[str], Iterator[str]], bad: str, good: str) -> None:
    assert list(check(bad)) and not list(check(good))

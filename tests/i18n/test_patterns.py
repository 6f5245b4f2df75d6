"""Faults a machine can see in a translation (docs/translating.md): each check names the message and why.

The catalogs read are the ``.po`` files; ``I18N_PO_DIR`` points the checks at another copy of the
``locales`` folder (``<dir>/<lang>/LC_MESSAGES/chickenfoot.po``), e.g. an older version to compare.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from chickenfoot.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, join_names, render
from chickenfoot.messages import Code, Param, Said
from chickenfoot.rules import Rules
from chickenfoot.tui.session import YOU_WORDING, Session

from .test_catalogs import placeholders

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


def matches(pattern: str, why: str, flags: int = re.IGNORECASE) -> Callable[[str], Iterator[str]]:
    """A check naming every match of ``pattern`` in a text, and why it is a fault."""

    def check(text: str) -> Iterator[str]:
        for match in re.finditer(pattern, text, flags):
            yield f"{match.group()!r} {why}"

    return check


def number_before_round_word(text: str) -> Iterator[str]:
    """lt: a bare number before "raundas" or "ėjimas" ("3 raundas") is the ordinal as people say it, not as
    they write it ("3-iasis raundas"), and at 1, 21, 31… it is a count ("21 raundas"): a round's or a move's
    number is a label after the word, "Raundas {round}", and only ``{count}`` stands before the noun it counts.
    """
    for match in re.finditer(r"\{(?!count\})\w+\}\s+(?:raund|ėjim)\w*", text, re.IGNORECASE):
        yield f"{match.group()!r} is a spoken ordinal (or a count at 1, 21…), not a label"


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
def test_round_and_move_numbers_are_labels(lang: str) -> None:
    found = faults(lang, number_before_round_word)
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


# --- One word per concept (docs/glossary.md): a message whose English names the concept uses the
# language's word for it, and never the other word readers found for the same thing.


@dataclass(frozen=True)
class Concept:
    english: str
    """A pattern on a message's English that names the concept."""
    word: Mapping[str, str]
    """The stem (a pattern) every translation of such a message contains."""
    never: Mapping[str, str] = field(default_factory=dict)
    """A pattern no translation of such a message may contain: the second word for the same thing."""


CONCEPTS = {
    "casual": Concept(
        r"\bcasual\b",
        {"lt": "be reitingo", "lv": "bez reitinga", "fy": "sûnder rating"},
        {"lt": "draugišk", "lv": "draudzīg", "fy": r"\bfrij\b"},
    ),
    "rated": Concept(
        r"\brated (?:tables?|match(?:es)?|games?)\b|^Rated\b",
        {"lt": "su reitingu", "lv": "ar reitingu", "fy": "mei rating"},
        {"lt": "reitingin", "lv": r"reitinga (?:gald|spēl|partij)"},
    ),
    "rating": Concept(r"\bratings?\b", {"lt": "reiting", "lv": "reiting", "fy": r"\brating"}, {"fy": "wurdearr"}),
    # A match, and a game in the sense of one match played ("Good game"); not "does not match".
    "match": Concept(
        r"(?<!\bnot )(?<!\bit )\bmatch(?:es)?\b|\b(?:rated|casual|good) games?\b|^Game(?: log)?$",
        {"lt": "partij", "lv": "partij", "fy": "partij"},
        {"lt": "žaidim", "lv": r"\bspēl(?:e|es|ei|i)\b", "fy": r"\bspul(?:len)?\b"},
    ),
    "chat line": Concept(
        r"\bchat lines?\b|\bnew lines?\b|^the line\b",
        {"lt": "žinu[tč]", "lv": "ziņ", "fy": "berjocht"},
        {
            "lt": r"pokalbio eilut|nauj\w* eilut",
            "lv": r"tērzēšanas rind|jaun\w* rind",
            "fy": r"petearrigel|nij\w* rigel",
        },
    ),
    "sign in": Concept(
        r"\bsign(?:ed|s)?[- ]in\b", {"lt": "prisijun", "lv": "pierakst", "fy": "meld"}, {"lv": "piesak|pieteik|pieteic"}
    ),
    "sign out": Concept(r"\bsign(?:ed|s)? out\b", {"lt": "jung", "lv": "izrakst", "fy": "ôfmeld"}),
    "creator": Concept(
        r"\bcreat(?:or|ed the table)\b", {"lt": "kūrėj", "lv": "izveidotāj", "fy": "makke"}, {"lv": r"\bveidotāj"}
    ),
    # One scale of strength for the levels and the bots' names: a light or a heavy bot is no weak or strong one.
    "easy bot": Concept(
        r"\beasy\b(?! to)", {"lt": "silpn", "lv": "vāj", "fy": "maklik"}, {"lt": "lengv", "lv": "viegl"}
    ),
    "hard bot": Concept(
        r"\bhard\b", {"lt": "stipr", "lv": "stipr", "fy": "dreech|drege"}, {"lt": "sunk", "lv": "grūt"}
    ),
    "try again shortly": Concept(
        r"try again shortly",
        {"lt": "netrukus bandyk dar kartą", "lv": "mēģini vēlreiz pēc brīža", "fy": "besykje it aanst nochris"},
        {"lv": "drīz mēģini"},
    ),
    "seed": Concept(r"\bseed\b", {"lt": "sėkl", "lv": "sēkl", "fy": "startgetal"}, {"fy": r"\bsied\b"}),
    # Not the plain mode's command "undo", typed as it is in every language.
    "undo": Concept(r"\bundo\b(?!,)", {"lt": "atšauk", "lv": "atsauk", "fy": r"werom\s*(?:te\s+)?nim"}),
}


def concept_faults(lang: str, concept: Concept) -> list[str]:
    texts = catalog(lang)
    found = []
    for code in Code:
        english = re.sub(r"\{\w+\}", "", " ".join(t for t in (code.value.english, code.value.plural) if t)).strip()
        if not re.search(concept.english, english, re.IGNORECASE):
            continue
        for text in texts.get(code.id, ()):
            if not re.search(concept.word[lang], text, re.IGNORECASE):
                found.append(f"{code.id}: {text!r} lacks {concept.word[lang]!r}")
            never = concept.never.get(lang)
            if never and re.search(never, text, re.IGNORECASE):
                found.append(f"{code.id}: {text!r} uses {never!r}")
    return found


@pytest.mark.parametrize("concept", list(CONCEPTS))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_word_per_concept(lang: str, concept: str) -> None:
    found = concept_faults(lang, CONCEPTS[concept])
    assert not found, found


def test_each_concept_names_messages_in_every_language() -> None:
    """A concept's English pattern finds messages, so its check cannot pass by finding none."""
    for name, concept in CONCEPTS.items():
        assert any(re.search(concept.english, code.value.english, re.IGNORECASE) for code in Code), name
        assert set(concept.word) == set(TRANSLATED), name


# --- The reader has no gender either: the player is "tu"/"do", and nothing said to them may agree with
# a gender (lt "kai būsi pasiruošęs", "tu pats"; lv "esi gatavs", "Tu esi pieteicies"). A participle after
# "esi", "būsi"…, the pronoun "pats", a masculine half-participle (lt "-damas") or a gendered title
# ("Narys", "Dalībnieks") is a fault; reword ("kai tau bus patogu", "Kur prisijungta prie paskyros").
GENDERED = {
    "lt": r"\b(?:esi|būsi|buvai|tapai|tapsi)\s+(?:\w+\s+)?\w+(?:ęs|usi)\b|\btu\s+pat[si]\b|\b\w+(?<!e)dam(?:as|a)\b"
    r"|\bpasi(?:ruoš|reng)(?:ęs|usi)\b|\bnar(?:ys|ė)\b",
    "lv": r"\b(?:esi|būsi|biji|kļuvi|kļūsi)\s+(?:\w+\s+)?(?:\w+(?:ies|ts|ta|is|usi)|gatav[sa])\b|\btu\s+pat[si]\b"
    r"|\bdalībnie(?:k|c)\w*",
}


def gendered(lang: str) -> Callable[[str], Iterator[str]]:
    return matches(GENDERED[lang], "has a gender")


# --- A name cannot be a verb's object either: an imperative or an infinitive governs the accusative
# ("pakviesk {name}", "uzaicini {name}"); a noun in that case goes before it ("pakviesk robotą {name}").
VERBS_BEFORE_NAME = {
    "lt": r"\w+(?:k|kite|kime|ti)",
    # The infinitive ends in -t ("iet" is also the third person: "Iet {name}"); the imperative has no one
    # ending, so the verbs that take a person as their object are named.
    "lv": r"\w+(?<!ie)t|\w*(?:aicin|ielūdz|gaid|aizstāj|aizvieto|nomain|sveic)\w*",
}


def name_as_object(lang: str) -> Callable[[str], Iterator[str]]:
    return matches(rf"(?<!\w)(?:{VERBS_BEFORE_NAME[lang]})\s+{NAMES}", "makes the name the verb's object")


# --- A refusal starts with a capital, as every message shown on its own line does; only the fragments
# shown inside another line start in lower case.
REFUSAL_FAMILIES = ("error.", "botapi.", "account.", "rating.", "quickplay.", "profile.", "social.")
FRAGMENTS = {
    "account.passkey_used",
    "account.passkey_unused",
    "account.this_device",
    "account.session_seen",
    "quickplay.bots_never",
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_refusals_start_with_a_capital(lang: str) -> None:
    english = {code.id: code.value.english for code in Code}
    found = [
        f"{code}: {text!r}"
        for code, texts in catalog(lang).items()
        if code.startswith(REFUSAL_FAMILIES) and code not in FRAGMENTS and not english.get(code, "{").startswith("{")
        for text in texts
        if text[:1].islower()
    ]
    assert not found, found


# --- A number that is not a count cannot agree with a noun: "Tev atlikušas {seconds} s" is wrong at 1,
# 21, 31…, which a countdown passes every turn, as "ap {own} punktiem" or "{limit} raktų" are. The number
# stands alone ("Tev vēl {seconds} s", "rakstzīmju skaits: vismaz {min}") or with its unit.
QUANTITIES = r"seconds|own|theirs|next_own|next_theirs|best_own|min|max|limit|window|total|loss|gap|value|rate|burst"
AGREEING = {
    "lt": (r"\blik(?:ę|usios|usi|ęs)", r"ir|arba|iš|per|iki|po|nuo"),
    "lv": (
        r"\b(?:atlik|palik)(?:uš\w*|usi|is)|\b(?:atlicis|palicis)",
        r"un|vai|no|līdz|pēc|pie|pret|ir|nav|sekundē|sliktāk",
    ),
}
"""Per language: a participle that would agree with the number before it, and the words (not nouns) that
may follow a number after a plain space (a unit follows after a no-break space)."""


def number_agreement(lang: str) -> Callable[[str], Iterator[str]]:
    before, after = AGREEING[lang]
    number = rf"\{{(?:{QUANTITIES})\}}"
    pattern = rf"(?:{before})\s+{number}|{number} (?!(?:{after})\b)[^\W\d_]+"
    return matches(pattern, "makes a number that is no count agree with a word", 0)


# A seat's number after a noun in the genitive and before another noun reads as a count ("Vietas 2
# spēlētājs"): lv makes it an ordinal ("2. vietas spēlētājs"), lt a label after its noun ("Žaidėjas vietoje 2").
seat_before_noun = matches(r"\bviet(?:os|as)\s+\{(?:seat|number)\}\s+[^\W\d_]", "reads as a count")


# A line that says what is happening is no order (translating.md, "Statuses are not commands"): the
# imperatives readers took for orders, at the start of a status.
ORDERS = {"lv": r"^(?:Meklē|Analizē|Atskaņo|Ielādē|Savieno|Gaidi)\b", "fy": r"^(?:Wachtsje|Sykje|Ferbyn)\b"}


def status_as_order(lang: str) -> Callable[[str], Iterator[str]]:
    def check(text: str) -> Iterator[str]:
        if text.endswith("…") and (match := re.search(ORDERS[lang], text)):
            yield f"{match.group()!r} reads as an order"

    return check


# --- Quotation marks, one pair per language: lt „…“, lv „…”, fy ‘…’; never the ASCII quote.
QUOTES = {"lt": ("„", "“"), "lv": ("„", "”"), "fy": ("‘", "’")}


def quotation_marks(lang: str) -> Callable[[str], Iterator[str]]:
    opening, closing = QUOTES[lang]
    # Frisian writes the apostrophe of "'e" and "wa't" as the ASCII one; Lithuanian and Latvian have none.
    others = "".join(q for q in '„“”‘’"' + ("" if lang == "fy" else "'") if q not in (opening, closing))

    def check(text: str) -> Iterator[str]:
        for match in re.finditer(rf"[{re.escape(others)}]", text):
            yield f"{match.group()!r} is not the language's quotation mark"
        depth = 0
        for char in text:
            if char == opening and opening != closing:
                depth += 1
            elif char == closing:
                depth -= 1
            if depth not in (0, 1):
                yield f"unpaired {opening}{closing}"
                return
        if depth:
            yield f"unpaired {opening}{closing}"

    return check


# --- Frisian spelling. ôf- and ûn- keep their circumflex, capitalised too ("Ôfmelde", "Ûnbekende"); a
# pronoun "ien" with a particle needs "der" ("Meitsje der ien oan"); -ing nouns have one plural, -ings;
# and the slips and word-for-word calques readers found.
FY_CIRCUMFLEX = r"\b[Oo]f(?!f)[a-zâêôûú]|\b[Uu]n(?!do\b)[a-zâêôûú]"
FY_PLURAL_INGEN = r"\b(?!dingen\b)\w+ingen\b"
FY_SLIPS = r"\bsa lang't|\bienige\b|\b(?:wurdt|waard|is) útsetten\b|\bkrigen:|\bsied\b|tsjin de tafel\b|\bwurdearr"
# Main-clause order inside a subordinate clause: "as de pot leech is en do kinst neat lizze".
FY_CLAUSE_ORDER = (
    r"\b(?:as|oant|omdat|wannear't|salang't)\b[^,;:.]*?\ben\s+(?:do|hy|se|immen|nimmen)\s+"
    r"(?:kinst|kin|moatst|moat|meist|mei|hast|hat|bist|is)\s+\w"
)


def frisian_spelling(text: str) -> Iterator[str]:
    for pattern, why in (
        (FY_CIRCUMFLEX, "lacks its circumflex"),
        (FY_PLURAL_INGEN, "is the -ingen plural (the catalog's is -ings)"),
        (FY_SLIPS, "is a slip or a calque readers found"),
        (FY_CLAUSE_ORDER, "puts a subordinate clause in main-clause order"),
    ):
        for match in re.finditer(pattern, text, re.IGNORECASE if pattern != FY_CIRCUMFLEX else 0):
            yield f"{match.group()!r} {why}"
    for clause in re.split(r"[.,;:!?–(]", text):
        if re.search(r"\bien\s+(?:oan|yn|út|op|ta|ôf|werom)?\s*$", clause) and not re.search(r"\bder\b", clause):
            yield f"{clause.strip()!r}: the pronoun 'ien' needs 'der'"


RULES: dict[str, dict[str, Callable[[str], Iterator[str]]]] = {
    "gendered forms said to the reader": {lang: gendered(lang) for lang in ("lt", "lv")},
    "a name as a verb's object": {lang: name_as_object(lang) for lang in ("lt", "lv")},
    "a number that is no count agreeing with a word": {lang: number_agreement(lang) for lang in ("lt", "lv")},
    "a seat's number before a noun": {lang: seat_before_noun for lang in ("lt", "lv")},
    "a status read as an order": {lang: status_as_order(lang) for lang in ORDERS},
    "one pair of quotation marks": {lang: quotation_marks(lang) for lang in TRANSLATED},
    "Frisian spelling": {"fy": frisian_spelling},
}
"""The checks of the patterns readers found, each for the languages it concerns."""


@pytest.mark.parametrize(("rule", "lang"), [(rule, lang) for rule, checks in RULES.items() for lang in checks])
def test_the_catalog_follows_the_rule(rule: str, lang: str) -> None:
    found = faults(lang, RULES[rule][lang])
    assert not found, found


@pytest.mark.parametrize(
    ("check", "bad", "good"),
    [
        (number_before_round_word, "{round} raundas baigtas", "Raundas {round} baigtas; {count} raundų"),
        (name_after_preposition("lt"), "Už {name} žaidžia robotas", "Vietoje žaidėjo {name} žaidžia robotas"),
        (name_after_preposition("lv"), "Robots spēlē {name} vietā", "Robots spēlē spēlētāja {name} vietā"),
        (name_after_preposition("lv"), "Pie {name} nav vietas", "Līdz {name} atgriezīsies, spēlē robots"),
        (adjacent_placeholders, "ne vairāk kā {limit} {window} s laikā", "{window} s laikā ne vairāk kā {limit}"),
        (unit_without_no_break_space, "pēc {seconds} s", "pēc {seconds}\u00a0s"),
        (unit_without_no_break_space, "Bandymas Nr. {attempt}", "Bandymas Nr.\u00a0{attempt}; {count} sekundžių"),
        (dash_style, "Tavo ėjimas — užbaik", "Tavo ėjimas – užbaik; 9-4"),
        (gendered("lt"), "bandyk dar kartą, kai būsi pasiruošęs", "bandyk dar kartą, kai tau bus patogu"),
        (gendered("lt"), "Kauliukus dedi, sutapdindamas skaičius", "Kauliukai dedami taip, kad sutaptų skaičiai"),
        (gendered("lv"), "Tu esi pieteicies ar saiti", "Pierakstīšanās notika ar saiti; tu izliki 9-4"),
        (gendered("lv"), "mēģini vēlreiz, kad esi gatavs", "mēģini vēlreiz, kad tev būs ērti"),
        (
            name_as_object("lt"),
            "Sukurk stalą ir pakviesk {name}",
            "Sukurk stalą ir pakviesk robotą {name}; Eina {name}",
        ),
        (
            name_as_object("lv"),
            "Izveido galdu un uzaicini {name}",
            "Izveido galdu un uzaicini robotu {name}; Iet {name}",
        ),
        (number_agreement("lv"), "Tev atlikušas {seconds}\u00a0s", "Tev vēl {seconds}\u00a0s"),
        (number_agreement("lv"), "tev būs ap {own} punktiem", "tavs rezultāts būs aptuveni {own}, par {gap} sliktāk"),
        (number_agreement("lt"), "ne daugiau kaip {limit} raktų", "Raktų gali būti ne daugiau kaip {limit}"),
        (seat_before_noun, "Vietas {seat} spēlētājs", "{seat}. vietas spēlētājs; Vieta {number} nav brīva"),
        (status_as_order("lv"), "Meklē spēlētājus…", "Meklējam spēlētājus…"),
        (quotation_marks("lv"), "izvēlies „Spēlēt tūlīt“", "izvēlies „Spēlēt tūlīt”"),
        (quotation_marks("lt"), "Stalo '{table}' nėra", "Stalo „{table}“ nėra"),
        (frisian_spelling, "Alle oare apparaten ofmelde", "Alle oare apparaten ôfmelde, of net"),
        (frisian_spelling, "Unbekende browser", "Ûnbekende browser"),
        (frisian_spelling, "Noch gjin akkount? Meitsje ien oan", "Noch gjin akkount? Meitsje der ien oan"),
        (frisian_spelling, "Te folle werhellingen", "Te folle werhellings en dingen"),
        (frisian_spelling, "De server wurdt útsetten", "De server wurdt útset; klik om se út te setten"),
        (frisian_spelling, "As de pot leech is en do kinst neat lizze", "As de pot leech is en do neat lizze kinst"),
    ],
)
def test_each_check_tells_a_fault_from_its_fix(check: Callable[[str], Iterator[str]], bad: str, good: str) -> None:
    assert list(check(bad)) and not list(check(good))


def test_each_concept_tells_a_fault_from_its_fix() -> None:
    """A concept check fails a message whose translation lacks the word or uses the other one."""
    casual = CONCEPTS["casual"]
    assert re.search(casual.never["lt"], "Draugiškas", re.I) and not re.search(casual.word["lt"], "Draugiškas", re.I)
    assert re.search(casual.word["lt"], "Be reitingo", re.I) and not re.search(casual.never["lt"], "Be reitingo", re.I)
    match = CONCEPTS["match"]
    assert re.search(match.english, "the match is over") and not re.search(match.english, "does not match the open")


# --- The terminal calls the player at the keyboard "you", and a sentence about them alone has its own
# wording (YOU_WORDING). In a list of players ({names}, {tied}) a bare "you" would take the verb of the
# third person that follows the list ("Tu ir Vieta 2 surinko"): the terminal names the player there
# "Player 1 (you)", a name like any other, and every message with a list agrees with it.
LIST_CODES = [code for code in Code if re.search(r"\{(?:names|tied)\}", code.value.plural or code.value.english)]


def list_message(code: Code, seats: tuple[int, ...], you: int) -> Said:
    """``code`` about the players of ``seats``, "you" the winner where a message names one."""
    params: dict[str, Param] = {"count": len(seats)} if code.value.plural is not None else {}
    for placeholder in placeholders(code.value.plural or code.value.english):
        if placeholder in ("names", "tied"):
            params[placeholder] = seats
        elif placeholder == "name":
            params["seat"] = you
        elif placeholder != "count":
            params[placeholder] = 7
    return Said.of(code, **params)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_terminals_you_in_a_list_takes_the_third_person(lang: str) -> None:
    session = Session.new(Rules(), ["human", "medium", "medium"], seed=1, lang=lang)
    you = session.you
    assert you is not None and LIST_CODES
    bare_you = re.escape(render(Code.YOU, lang))
    beside_a_list = rf"(?i:\b{bare_you}\s+(?:{render(Code.LIST_AND, lang, head='', last='').strip()})\b|\b{bare_you},)"
    for code in LIST_CODES:
        for seats in ((you, 1), (you, 1, 2), (1, you)):
            said = list_message(code, seats, you)
            text = session.say(said)
            assert not re.search(beside_a_list, text), (code.id, text)
            listed = join_names([session.name(seat) for seat in seats], lang)
            assert listed in text, (code.id, text)
            assert render(Code.NAME_YOU, lang, name=session.seat_name(you)) in listed
            if said.code in YOU_WORDING and "seat" in dict(said.params):
                # "You" won among the tied: its own wording says "you win", the list names you as a player.
                assert session.addressed(said).code is YOU_WORDING[said.code], code.id

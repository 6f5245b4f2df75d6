"""The game in the player's language: choose a language, render a message code, export a catalog.

Catalogs are gettext ``.mo`` files compiled from ``locales/<lang>/LC_MESSAGES/chickenfoot.po`` and
read with the standard library's :mod:`gettext`, so neither the engine nor the terminal game needs
Babel at run time. Each message's ``msgctxt`` is its code and its ``msgid`` the English of
:mod:`chickenfoot.messages`: a string a catalog lacks is shown in English, never as its code.

>>> render("illegal.not_in_hand", "en", tile="9-4", name="Ann")
'9-4 is not in the hand of Ann'
>>> render(Code.TILE_COUNT, "lt", count=3), render(Code.TILE_COUNT, "lt", count=10)
('3 kauliukai', '10 kauliukų')
>>> negotiate("fy-NL, nl;q=0.8, en;q=0.5"), negotiate(["de-DE", "lv"]), negotiate([])
('fy', 'lv', 'en')
"""

from __future__ import annotations

import errno
import gettext
import os
import re
import string
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any, Final

from chickenfoot.errors import UnreadableFile
from chickenfoot.messages import Code, Said

DOMAIN: Final = "chickenfoot"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"
DEFAULT: Final = "en"

LANGUAGES: Final[Mapping[str, str]] = {"en": "English", "lt": "Lietuvių", "lv": "Latviešu", "fy": "Frysk"}
"""The languages of the game, each by its own name (for a language switcher)."""

PLURAL_SAMPLES: Final[Mapping[str, Mapping[str, int]]] = {
    "en": {"one": 1, "other": 2},
    "lt": {"one": 1, "few": 2, "other": 10},
    "lv": {"zero": 0, "one": 1, "other": 2},
    "fy": {"one": 1, "other": 2},
}
"""The CLDR plural category of each gettext plural form, in the catalog's order, with a number of it.

The page picks a form with ``Intl.PluralRules`` (no ``eval`` of the ``Plural-Forms`` expression
under a strict content security policy); the tests check these against the catalogs' headers.
"""


def parse_language(tag: str) -> str | None:
    """The game language of a locale or language tag (``lt_LT.UTF-8``, ``fy-NL``), or ``None``.

    >>> parse_language("lt_LT.UTF-8"), parse_language("FY-nl"), parse_language("de"), parse_language("C")
    ('lt', 'fy', None, None)
    """
    primary = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
    return primary if primary in LANGUAGES else None


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``explicit`` (``--lang``), else ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

    Raises :class:`ValueError` with a one-line message for an explicit language the game lacks.

    >>> choose_language(environ={"LANG": "lv_LV.UTF-8"}), choose_language("fy", {"LANG": "lt_LT"})
    ('lv', 'fy')
    >>> choose_language(environ={"LANGUAGE": "de:lt", "LANG": "de_DE.UTF-8"})
    'lt'
    """
    if explicit is not None:
        lang = parse_language(explicit)
        if lang is None:
            raise ValueError(f"unknown language {explicit[:20]!r} (choose from {', '.join(LANGUAGES)})")
        return lang
    env = os.environ if environ is None else environ
    # gettext's own order: the first variable set decides; LANGUAGE may list several.
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for tag in value.split(":"):
            lang = parse_language(tag)
            if lang is not None:
                return lang
        if variable != "LANGUAGE":
            break
    return DEFAULT


def negotiate(preferences: str | Sequence[str]) -> str:
    """The browser's language: the first game language of ``navigator.languages`` or an ``Accept-Language`` header."""
    if isinstance(preferences, str):
        ranked: list[tuple[float, int, str]] = []
        for index, part in enumerate(preferences.split(",")[:32]):
            tag, _, rest = part.partition(";")
            match = re.search(r"q=([0-9.]+)", rest)
            try:
                quality = float(match.group(1)) if match else 1.0
            except ValueError:
                quality = 0.0
            ranked.append((-quality, index, tag))
        tags = [tag for quality, _, tag in sorted(ranked) if quality < 0]
    else:
        tags = list(preferences[:32])
    for tag in tags:
        lang = parse_language(tag)
        if lang is not None:
            return lang
    return DEFAULT


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English when the catalog lacks a string)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang[:20]!r} (choose from {', '.join(LANGUAGES)})")
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def _code(code: Code | str) -> Code:
    return code if isinstance(code, Code) else Code.parse(code)


def template(code: Code | str, lang: str, count: int | None = None) -> str:
    """The message of ``code`` in ``lang`` with its placeholders; a plural message needs ``count``."""
    text = _code(code).value
    catalog = translations(lang)
    if text.plural is None:
        return catalog.pgettext(text.code, text.english)
    if count is None:
        raise ValueError(f"message {text.code} needs a count")
    return catalog.npgettext(text.code, text.english, text.plural, count)


def render(code: Code | str, lang: str, /, **params: object) -> str:
    """The message of ``code`` in ``lang`` with ``params`` filled in (``count`` picks a plural form)."""
    count = params.get("count")
    return template(code, lang, count if isinstance(count, int) else None).format_map(params)


def seat_name(seat: int, name: str | None, bot: str | None, lang: str) -> str:
    """A seat's name: the one its player chose, else "Player 2" or, for a bot, "Easy bot 3" in ``lang``.

    The server stores only names people chose, so every reader sees the others in their own language.

    >>> seat_name(1, None, None, "lt"), seat_name(2, None, "easy", "lv"), seat_name(0, "Ann", None, "fy")
    ('Žaidėjas 2', 'Vājš robots 3', 'Ann')
    """
    if name is not None:
        return name
    if bot is None:
        return render(Code.SEAT_DEFAULT, lang, number=seat + 1)
    code = _BOT_DEFAULTS.get(bot, Code.BOT_DEFAULT)
    return render(code, lang, number=seat + 1)


_BOT_DEFAULTS: Final[Mapping[str, Code]] = {
    code.id.removeprefix("bot.default."): code for code in Code if code.id.startswith("bot.default.")
}
"""The default name of a bot of each level that has one (``bot.default.easy``...); other bots are "Bot 3"."""


def seat_names(names: Sequence[str | None], bots: Sequence[str | None], lang: str) -> list[str]:
    """Every seat's name as :func:`seat_name` gives it (``bots``: each seat's bot level, ``None`` for a person)."""
    return [seat_name(seat, name, bot, lang) for seat, (name, bot) in enumerate(zip(names, bots, strict=True))]


def join_names(names: Sequence[str], lang: str) -> str:
    """``Ann, Bo and Cy`` in ``lang``.

    >>> join_names(["Ann", "Bo", "Cy"], "lv"), join_names(["Ann"], "fy")
    ('Ann, Bo un Cy', 'Ann')
    """
    if len(names) < 2:
        return "".join(names)
    return render(Code.LIST_AND, lang, head=", ".join(names[:-1]), last=names[-1])


def one_decimal(value: float) -> str:
    """``value`` as the page shows it (JSON cannot tell ``3.0`` from ``3``): a whole number as such,
    else to one decimal as ``toFixed(1)`` rounds, ties of the exact binary value away from zero
    (Python's own formatting rounds them to even), so both clients say the same.

    >>> one_decimal(59.25), f"{59.25:.1f}", one_decimal(-0.25), one_decimal(1.05), one_decimal(3.0)
    ('59.3', '59.2', '-0.3', '1.1', '3')
    """
    if value.is_integer():
        return str(int(value))
    return str(Decimal(value).quantize(Decimal("0.1"), ROUND_HALF_UP))


MOMENT: Final = "moment"
"""A parameter of this name is an instant (ISO 8601): each client shows it as its reader's clock reads it."""


def shown_moment(value: str) -> str:
    """An instant (a ``moment``) where no reader's time zone is known: in UTC, to the minute.

    >>> shown_moment("2031-05-04T13:05+03:00"), shown_moment("soon")
    ('2031-05-04 10:05 UTC', 'soon')
    """
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        return value
    return (at if at.tzinfo is None else at.astimezone(UTC)).strftime("%Y-%m-%d %H:%M UTC")


def say(said: Said, lang: str, names: Sequence[str] | None = None) -> str:
    """``said`` in ``lang``; ``names`` name the seats (else "Player 2" in ``lang``, as :func:`seat_name`).

    >>> say(Said.of(Code.EVENT_PLAY, seat=1, tile="9-4", target="9-9"), "lv", ["Ann", "Bo"])
    'Bo pielika 9-4 pie 9-9'
    """

    return render(said.code, lang, **_filled(said, lang, names))


def _filled(said: Said, lang: str, names: Sequence[str] | None) -> dict[str, object]:
    """The parameters of ``said`` as :func:`say` shows them, ``name`` added for a ``seat``."""

    def name(seat: int) -> str:
        return names[seat] if names is not None and 0 <= seat < len(names) else seat_name(seat, None, None, lang)

    params: dict[str, object] = {}
    for key, value in said.params:
        if isinstance(value, Said):
            params[key] = say(value, lang, names)
        elif isinstance(value, tuple):
            params[key] = join_names([name(seat) for seat in value], lang)
        elif isinstance(value, float):
            params[key] = one_decimal(value).replace(".", render(Code.DECIMAL_SIGN, lang))
        elif key == MOMENT and isinstance(value, str):
            params[key] = shown_moment(value)
        else:
            params[key] = value
    seat = params.get("seat")
    if isinstance(seat, int) and "name" not in params:
        params["name"] = name(seat)
    return params


_BREAK: Final = "\0"
_CLAUSE_END: Final = tuple(".,:;!?—–")


def phrases(said: Said, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """``said`` as :func:`say` words it, cut where a narrow line may break.

    A placeholder's value (a name, a tile, a number of points) is never cut, and keeps the word just
    before it ("on 9-9") unless that word ends a clause; a count, or a number with no word before it,
    keeps the word after it ("3 toes", "1 raundas").
    Joined with spaces, the phrases are :func:`say`'s text.

    >>> phrases(Said.of(Code.EVENT_PLAY, seat=1, tile="9-4", target="9-9"), "en")
    ['Player 2', 'played 9-4', 'on 9-9']
    """
    params = _filled(said, lang, names)
    count = params.get("count")
    text = template(said.code, lang, count if isinstance(count, int) else None)
    formatter = string.Formatter()
    out = ""
    glue_next = False
    for literal, field, spec, conversion in formatter.parse(text):
        piece = literal.replace(" ", _BREAK)
        if glue_next and piece.split(_BREAK, 1)[0] in ("", "."):  # "3 toes", and Latvian's "1. kārta"
            piece = piece.replace(_BREAK, " ", 1)
        glue_next = False
        if field is None:
            out += piece
            continue
        head, space, _ = piece.rpartition(_BREAK)
        word_before = bool(space and piece.endswith(_BREAK) and head.rpartition(_BREAK)[2])
        if word_before and not head.endswith(_CLAUSE_END):
            piece = head + " "
        else:
            word_before = False
        value = formatter.format_field(formatter.convert_field(params[field], conversion), spec or "")
        out += piece + value
        # A number keeps the word it counts ("3 toes", "1 raundas") when it has no word before it.
        glue_next = field == "count" or (isinstance(params.get(field), int) and not word_before)
    return [phrase for phrase in out.split(_BREAK) if phrase]


def render_wire(data: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    """A message of the protocol (``{"code": "illegal.not_in_hand", "tile": "9-4", "seat": 0}``) in ``lang``."""
    return say(Said.from_wire(data), lang, names)


def english(said: Said, names: Sequence[str] | None = None) -> str:
    """``said`` in English, seats named ``seat 2`` unless ``names`` are given: the library's own wording."""
    return say(said, DEFAULT, names if names is not None else [f"seat {seat}" for seat in range(64)])


_FILE_PROBLEMS: Final[Mapping[int, Code]] = {
    errno.ENOENT: Code.FILE_NOT_FOUND,
    errno.ENOTDIR: Code.FILE_NOT_FOUND,
    errno.EACCES: Code.FILE_DENIED,
    errno.EPERM: Code.FILE_DENIED,
    errno.EROFS: Code.FILE_DENIED,
    errno.EISDIR: Code.FILE_IS_FOLDER,
    errno.ENOSPC: Code.FILE_NO_SPACE,
}


def file_problem(error: OSError) -> Said:
    """Why the system refused a file, as a message (the system's own text is in its language, not the reader's).

    >>> say(file_problem(FileNotFoundError(errno.ENOENT, "No such file")), "lt")
    'tokio failo ar aplanko nėra'
    """
    return Said.of(_FILE_PROBLEMS.get(error.errno or 0, Code.FILE_OTHER))


def unreadable(error: UnreadableFile, lang: str) -> str:
    """A file the system would not read, in ``lang``: its name and why."""
    return say(Said.of(Code.FILE_READ_FAILED, file=error.name, reason=file_problem(error.error)), lang)


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` for the page: ``{"lang", "plural_forms", "plural_categories", "messages"}``.

    ``messages`` maps every code to its text, or for a plural message to its forms in the order of
    ``plural_categories``; a string the catalog lacks is given in English.
    """
    catalog = translations(lang)
    samples = PLURAL_SAMPLES[lang]
    messages: dict[str, str | list[str]] = {}
    for code in Code:
        text = code.value
        if text.plural is None:
            messages[text.code] = catalog.pgettext(text.code, text.english)
        else:
            messages[text.code] = [catalog.npgettext(text.code, text.english, text.plural, n) for n in samples.values()]
    return {
        "lang": lang,
        "plural_forms": catalog.info()["plural-forms"],
        "plural_categories": list(samples),
        "messages": messages,
    }

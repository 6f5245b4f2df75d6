"""The errors the library raises for bad input: each carries a one-line message for the user."""

from __future__ import annotations

import json
from collections.abc import Mapping
from itertools import islice


class ChickenfootError(ValueError):
    """Base of every user-facing error of the library."""


class NotationError(ChickenfootError):
    """A tile or move that does not parse."""


class RulesError(ChickenfootError):
    """A rules configuration that cannot be played."""


class PositionError(ChickenfootError):
    """An inconsistent or malformed position or match record."""


class IllegalMoveError(ChickenfootError):
    """A move that is not legal in the current position."""


class TournamentError(ChickenfootError):
    """A tournament's input that cannot be paired or scored: a player seated twice, a deal replayed by the
    same player, a table of the wrong size."""


class UnreadableFile(PositionError):
    """A file the system would not read: ``name`` and the system's ``error`` (games word it in their language)."""

    def __init__(self, name: str, error: OSError) -> None:
        super().__init__(f"cannot read {name}: {error.strerror or error}")
        self.name = name
        self.error = error


QUOTED = 60
"""The longest input an error message repeats whole."""


def quoted(text: str) -> str:
    """Text a person typed, as the parameter of a message: escaped, cut only if absurdly long.

    The message puts it in quotation marks, each language its own („…“ in Lithuanian, „…” in
    Latvian), so the value carries no quotes and no English: a control character is shown as its
    escape, and a cut ends with "…".

    >>> print(quoted("9-4@9-9x"), quoted("ŠĀ\\x00"), quoted("x" * 100)[-3:])
    9-4@9-9x ŠĀ\\x00 xx…
    """
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:QUOTED])
    return shown + ("…" if len(text) > QUOTED else "")


def quoted_english(text: str) -> str:
    """Text a person typed, for the library's own English errors: quoted, escaped, its length told if cut.

    >>> quoted_english("9-4@9-9x"), quoted_english("x" * 100)[-20:]
    ("'9-4@9-9x'", "x'… (100 characters)")
    """
    return repr(text) if len(text) <= QUOTED else f"{text[:QUOTED]!r}… ({len(text)} characters)"


MAX_DIGITS = 40
"""The longest number a document may hold: more than any seed or count, far below Python's own limit."""
_SHOWN = 40


def shown(value: object) -> str:
    """A value as a short piece of JSON for an error message (long values are cut, deep ones elided)."""
    text = _short(value, 2)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _short(value: object, depth: int) -> str:
    # Never more than a few elements at two levels: a huge or deeply nested value costs nothing to name.
    if isinstance(value, list):
        if depth == 0:
            return "[…]" if value else "[]"
        items = [_short(item, depth - 1) for item in value[:4]]
        return "[" + ", ".join(items) + (", …]" if len(value) > 4 else "]")
    if isinstance(value, Mapping):
        if depth == 0:
            return "{…}" if value else "{}"
        pairs = [f"{_short(str(k), 0)}: {_short(v, depth - 1)}" for k, v in islice(value.items(), 4)]
        return "{" + ", ".join(pairs) + (", …}" if len(value) > 4 else "}")
    if isinstance(value, str):
        return json.dumps(value[:_SHOWN], ensure_ascii=True) + ("…" if len(value) > _SHOWN else "")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"  # str() may refuse it
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)
    return repr(value)[:_SHOWN]

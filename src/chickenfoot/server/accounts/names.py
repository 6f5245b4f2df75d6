"""Usernames: what a name may be, and its confusable skeleton (UTS #39).

A name is NFC-normalised, 3 to 20 characters: letters (with their accents), digits, ``-``, ``_`` and
``.``, starting with a letter or a digit. Two names whose skeletons are equal look alike (``alice``,
``ALICE``, ``аlice`` with a Cyrillic ``а``, ``a1ice``...): only one of them can exist. The skeleton maps
each character of the case-folded name to one representative of its class in Unicode's confusables
data (shipped by the ``confusable-homoglyphs`` package), as UTS #39's ``skeleton()`` does with its
prototypes. Folding the case first makes names that differ only in case one name, but reads a
capital that looks like another script's capital (Cyrillic ``В``, Latin ``B``) by its own small
letter (``в``, unlike ``b``), and a small letter by itself though its capital looks like another
(``o``, ``O`` like ``0``). So a name has several *keys* (:func:`keys`): its skeleton, and the skeletons
of its characters' representatives as written and as capitals; two names sharing a key look alike.
Multi-character look-alikes (``rn`` for ``m``) are not folded.

>>> skeleton("Alice") == skeleton("аlice") == skeleton("ALICE")
True
>>> skeleton("a1ice") == skeleton("alice") != skeleton("Iris")
True
>>> skeleton("ВОВ") == skeleton("bob"), look_alike(keys("ВОВ"), keys("bob"))
(False, True)
>>> skeleton("bob") == skeleton("rob")
False
>>> problem("ab"), problem("-x-y"), problem("admin"), problem("Expert"), problem("Ėglė")
('length', 'characters', 'reserved', 'reserved', None)
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files
from typing import Literal

from chickenfoot.bots import LEVELS

MIN_LENGTH = 3
MAX_LENGTH = 20
PUNCTUATION = frozenset("-_.")
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "moderator",
        "support",
        "chickenfoot",
        "guest",
        "bot",
        "bots",
        "anonymous",
        "deleted",
        "api",
        "account",
        "me",
        "null",
        "none",
        *LEVELS,
    }
)
"""Names nobody may take, nor anything that looks like them: the site's own words and the bot levels."""

Problem = Literal["length", "characters", "reserved"]


def normalised(name: str) -> str:
    """The name as stored and shown: NFC, without surrounding spaces."""
    return unicodedata.normalize("NFC", name.strip())


def problem(name: str) -> Problem | None:
    """Why a (normalised) name cannot be a username, or ``None``."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return "length"
    if not name[0].isalnum() or not all(_allowed(c) for c in name):
        return "characters"
    if look_alike(keys(name), _reserved_keys()):
        return "reserved"
    return None


def _allowed(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] == "L" or category in ("Nd", "Mn", "Mc") or character in PUNCTUATION


def skeleton(name: str) -> str:
    """The name as it looks: equal for names a reader could take for one another."""
    classes = _classes()
    folded = unicodedata.normalize("NFD", name.casefold())
    return unicodedata.normalize("NFD", "".join(classes.get(c, c) for c in folded))


def keys(name: str) -> frozenset[str]:
    """The name's skeleton, and those of its look as written and as capitals."""
    classes = _classes()

    def look(text: str) -> str:
        return skeleton("".join(classes.get(c, c) for c in unicodedata.normalize("NFD", text)))

    return frozenset({skeleton(name), look(name), look(name.upper())})


def look_alike(first: frozenset[str], second: frozenset[str]) -> bool:
    return not first.isdisjoint(second)


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset().union(*(keys(name) for name in RESERVED))


@cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative: the smallest code point of its class (union-find)."""
    data = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for character, homoglyphs in data.items():
        for glyph in homoglyphs:
            other = glyph["c"]
            if len(character) == 1 and len(other) == 1:
                a, b = root(character), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: root(c) for c in parent}

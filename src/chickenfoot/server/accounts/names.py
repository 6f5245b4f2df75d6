"""Usernames: what a name may be, and its confusable skeleton (UTS #39).

A name is NFC-normalised, 3 to 20 characters: letters (with their accents), digits, ``-``, ``_`` and
``.``, starting with a letter or a digit. Two names whose skeletons are equal look alike (``alice``,
``ALICE``, ``аlice`` with a Cyrillic ``а``, ``a1ice``, ``rnary`` and ``mary``...): only one of them can
exist. The skeleton is UTS #39's ``skeleton()`` of the case-folded name: each character replaced by
its prototype in Unicode's confusables data (``data/confusables.txt``, shipped as it is published;
``scripts/refresh-confusables.sh`` fetches a newer one), a prototype being one character or several
(``m`` → ``rn``), plus the few Latin look-alikes Unicode does not list (``data/confusables-extra.txt``:
``w`` → ``vv``, ``d`` → ``cl``). Folding the case first makes names that differ only in case one name,
but reads a capital that looks like another script's capital (Cyrillic ``В``, Latin ``B``) by its own
small letter (``в``, unlike ``b``), and a small letter by itself though its capital looks like another
(``o``, ``O`` like ``0``). So a name has several *keys* (:func:`keys`): its skeleton, and the skeletons
of its characters' prototypes as written and as capitals; two names sharing a key look alike.

>>> skeleton("Alice") == skeleton("аlice") == skeleton("ALICE")
True
>>> skeleton("a1ice") == skeleton("alice") != skeleton("Iris")
True
>>> skeleton("ВОВ") == skeleton("bob"), look_alike(keys("ВОВ"), keys("bob"))
(False, True)
>>> skeleton("bob") == skeleton("rob")
False
>>> skeleton("mary") == skeleton("rnary"), skeleton("walt") == skeleton("vvalt"), skeleton("dave") == skeleton("clave")
(True, True, True)
>>> problem("ab"), problem("-x-y"), problem("admin"), problem("Expert"), problem("Ėglė"), problem("rnedium")
('length', 'characters', 'reserved', 'reserved', None, 'reserved')
"""

from __future__ import annotations

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
    return _look(name.casefold())


def keys(name: str) -> frozenset[str]:
    """The name's skeleton, and those of its look as written and as capitals."""
    return frozenset({skeleton(name), skeleton(_look(name)), skeleton(_look(name.upper()))})


def look_alike(first: frozenset[str], second: frozenset[str]) -> bool:
    return not first.isdisjoint(second)


def _look(text: str) -> str:
    """``text`` with each character replaced by its prototype, in NFD (UTS #39's skeleton without folding)."""
    prototypes = _prototypes()
    return _nfd("".join(prototypes.get(c, c) for c in _nfd(text)))


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset().union(*(keys(name) for name in RESERVED))


DATA = ("confusables.txt", "confusables-extra.txt")
"""Unicode's confusables data and the project's additions (read in order: a later line wins)."""


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (one character or several), as a fixed point.

    A line reads ``source ; prototype ; type # comment``, code points in hexadecimal. The data's
    prototypes are their own prototypes; the additions may map a character that is one of them
    (``w`` → ``vv``), so prototypes are mapped again until nothing changes.
    """
    prototypes: dict[str, str] = {}
    folder = files("chickenfoot.server.accounts").joinpath("data")
    for name in DATA:
        for line in folder.joinpath(name).read_text("utf-8-sig").splitlines():
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2:
                continue
            source, target = ("".join(chr(int(h, 16)) for h in f.split()) for f in fields[:2])
            prototypes[source] = _nfd(target)
    for _ in range(len(DATA) + 1):
        prototypes = {c: _nfd("".join(prototypes.get(t, t) for t in target)) for c, target in prototypes.items()}
    return prototypes

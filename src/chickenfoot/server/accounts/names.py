"""Usernames: what a name may be, and its confusable skeleton (UTS #39).

A name is NFC-normalised, 3 to 20 characters: letters (with their accents), digits, ``-``, ``_`` and
``.``, starting with a letter or a digit. Two names whose skeletons are equal look alike (``alice``,
``ALICE``, ``аlice`` with a Cyrillic ``а``, ``a1ice``, ``rnary`` and ``mary``, ``tester2`` and the
full-width ``ｔｅｓｔｅｒ２``...): only one of them can exist. The skeleton is UTS #39's ``skeleton()`` of
the name *folded*: NFKC (full-width forms, ligatures, superscripts become the characters they stand for)
and case-folded. Each character is then replaced by its prototype in Unicode's confusables data
(``data/confusables.txt``, shipped as it is published; ``scripts/refresh-confusables.sh`` fetches a newer
one), a prototype being one character or several (``m`` → ``rn``), plus the few Latin look-alikes Unicode
does not list (``data/confusables-extra.txt``: ``w`` → ``vv``, ``d`` → ``cl``). Folding the case first
makes names that differ only in case one name, but reads a capital that looks like another script's capital
(Cyrillic ``В``, Latin ``B``) by its own small letter (``в``, unlike ``b``), and a small letter by itself
though its capital looks like another (``o``, ``O`` like ``0``). So a name has several *keys*
(:func:`keys`): its skeleton, and the skeletons of its characters' prototypes as written and as capitals;
two names sharing a key look alike.

A reserved word (:data:`RESERVED`) blocks every name that looks like it once its separators, or its
separators and digits, are taken out (``admin1``, ``a.d.m.i.n``, ``r00t``, ``deleted.player``); a word
of the site's own voice (:data:`STAFF`) also blocks every name that has it as one of its words, words
being split at separators, digits and a small letter followed by a capital (``Support.Team``,
``AdminJoe``, ``my_bot``).

>>> skeleton("Alice") == skeleton("аlice") == skeleton("ALICE")
True
>>> skeleton("a1ice") == skeleton("alice") != skeleton("Iris")
True
>>> skeleton("tester2") == skeleton("tester２") == skeleton("ｔｅｓｔｅｒ２")
True
>>> skeleton("ВОВ") == skeleton("bob"), look_alike(keys("ВОВ"), keys("bob"))
(False, True)
>>> skeleton("bob") == skeleton("rob")
False
>>> skeleton("mary") == skeleton("rnary"), skeleton("walt") == skeleton("vvalt"), skeleton("dave") == skeleton("clave")
(True, True, True)
>>> problem("ab"), problem("-x-y"), problem("admin"), problem("Expert"), problem("Ėglė"), problem("rnedium")
('length', 'characters', 'reserved', 'reserved', None, 'reserved')
>>> problem("admin1"), problem("deleted.player"), problem("Support.Team"), problem("Mediumwell")
('reserved', 'reserved', 'reserved', None)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import timedelta
from functools import cache
from importlib.resources import files
from typing import Literal

from chickenfoot.bots import LEVELS
from chickenfoot.i18n import LANGUAGES, render
from chickenfoot.messages import Code

MIN_LENGTH = 3
MAX_LENGTH = 20
PUNCTUATION = frozenset("-_.")
STAFF = frozenset(
    {
        "admin",
        "administrator",
        "moderator",
        "support",
        "staff",
        "official",
        "system",
        "root",
        "chickenfoot",
        "deleted",
        "bot",
        "bots",
    }
)
"""Words of the site's own voice: no name may have one of them among its words."""
RESERVED = STAFF | {"guest", "anonymous", "api", "account", "me", "null", "none", *LEVELS}
"""Names nobody may take, nor anything that looks like them, with or without digits and separators:
the site's own words and the bot levels (and what the pages call a deleted account, in every language:
:func:`_reserved_keys`)."""
NAME_HELD = timedelta(days=90)
"""A deleted account's name (and its look-alikes) is free to take again only this long after the deletion:
longer than a session lives (60 days) and than the leaderboards remember (30), so nobody takes over a
name that people saw playing lately, or links to it still point at."""

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
    if reserved(name):
        return "reserved"
    return None


def reserved(name: str) -> bool:
    """Whether the name looks like a reserved word once its separators (and digits) are taken out, or has a
    word of the site's own voice among its words."""
    compatible = unicodedata.normalize("NFKC", name)
    joined = "".join(c for c in compatible if c not in PUNCTUATION)
    letters = "".join(c for c in joined if not c.isdigit())
    if any(look_alike(keys(whole), _reserved_keys()) for whole in (compatible, joined, letters) if whole):
        return True
    return any(look_alike(keys(word), _staff_keys()) for word in _words(compatible))


def _words(name: str) -> set[str]:
    """The name's words: split at separators and where a small letter is followed by a capital, each with
    its digits (``adm1n`` reads as ``admin``) and split at them too (``admin2joe``)."""
    cased = "".join(f" {c}" if i and c.isupper() and name[i - 1].islower() else c for i, c in enumerate(name))
    words = [word for word in re.split(r"[-_. ]+", cased) if word]
    return {part for word in words for part in (word, *re.split(r"\d+", word)) if part and not part.isdigit()}


def _allowed(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] == "L" or category in ("Nd", "Mn", "Mc") or character in PUNCTUATION


def folded(name: str) -> str:
    """NFKC and case-folded (NFKC again after folding, as Unicode's ``NFKC_Casefold``): full-width forms,
    ligatures, superscripts and case make no difference."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """The name as it looks: equal for names a reader could take for one another."""
    return _look(folded(name))


def keys(name: str) -> frozenset[str]:
    """The name's skeleton, and those of its look as written and as capitals."""
    compatible = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(name), skeleton(_look(compatible)), skeleton(_look(compatible.upper()))})


def look_alike(first: frozenset[str], second: frozenset[str]) -> bool:
    return not first.isdisjoint(second)


def claims(named: Iterable[tuple[int, str]]) -> tuple[dict[int, str], dict[str, int]]:
    """Existing names read by today's rules (a migration's job when the rules change), oldest account
    first: each account's skeleton unless an older one has it, and which account holds each key. Of two
    names that only now look alike the newer keeps no skeleton (its name no longer finds it: it signs in
    with its passkeys) and only the keys nobody holds, as if it had been refused at sign-up.

    >>> claims([(1, "mary"), (2, "rnary")])[0]
    {1: 'rnary'}
    """
    skeletons: dict[int, str] = {}
    holders: dict[str, int] = {}
    for account_id, username in named:
        new = skeleton(username)
        if new not in skeletons.values():
            skeletons[account_id] = new
        for key in keys(username):
            holders.setdefault(key, account_id)
    return skeletons, holders


def _look(text: str) -> str:
    """``text`` with each character replaced by its prototype, in NFD (UTS #39's skeleton without folding)."""
    prototypes = _prototypes()
    return _nfd("".join(prototypes.get(c, c) for c in _nfd(text)))


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


@cache
def _reserved_keys() -> frozenset[str]:
    deleted = {"".join(render(Code.PLAYER_DELETED, lang).split()) for lang in LANGUAGES}
    return frozenset().union(*(keys(name) for name in RESERVED | deleted))


@cache
def _staff_keys() -> frozenset[str]:
    return frozenset().union(*(keys(name) for name in STAFF))


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

"""The chat filter: the worst words of each language, and each chat line's words matched against them
after folding, so that a look-alike spelling is the same word.

Folding is the usernames' (:func:`~chickenfoot.server.accounts.names.keys`: NFKC, case folded, each
look-alike character as its prototype in Unicode's confusables data, as written and as capitals), then
case folded again (a prototype may be a capital: ``0`` is ``O``), without accents (``fúck``), with the digits and signs
written for letters read as those letters (``4`` and ``@`` as ``a``, ``3`` as ``e``, ``1``, ``!``,
``|`` and ``l`` as one letter with ``i``, ``0`` as ``o``, ``5`` and ``$`` as ``s``, ``7`` and ``+``
as ``t``). A line's words are its runs of letters, each read as written and as capitals (a Cyrillic
``к`` looks like no Latin letter, its capital ``К`` like ``K``), and with a letter written three times
or more read as once and as twice (``fuuuck``, ``niggger``); single letters in a row make one word too
(``f u c k``, ``p.i.z.d.e.c``).

A word list has one entry a line (``#`` starts a comment), folded as the lines are:

- ``word``: a word of the line that is this word;
- ``stem*``: a word that starts with it (the inflected forms of Lithuanian and Latvian);
- ``*part*``: a word that contains it; ``*end``: a word that ends with it;
- ``two words``: these words in a row.

The lists shipped (``data/words-en.txt``, ``-lt``, ``-lv``, ``-fy``) hold the worst words only: slurs and
the strongest obscenities, written so that no everyday word folds into one of them (``hoer`` and its
forms, never ``hoer*``: that would be ``hoera``). The operators add their own (a file given to
``chickenfoot serve --chat-words``, and the moderation page). Every line is judged against every list,
whatever its writer's language: the people at a table read each other's.

>>> words = Words.parse(["fuck*", "*shit*", "kurv*", "kill yourself"])
>>> [words.match(line) for line in ("What the FUCK", "ｆｕｃｋ", "f.u.c.k off", "fuuuuck", "bull5h1t", "кURVOS")]
['fuck*', 'fuck*', 'fuck*', 'fuck*', '*shit*', 'kurv*']
>>> words.match("fսck"), words.match("Kill   your$elf!")
('fuck*', 'kill yourself')
>>> words.match("Good game, well played"), words.match("kurmis"), words.match("skill yourself")
(None, None, None)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

from chickenfoot.server.accounts.names import keys, skeleton

LANGUAGE_LISTS = ("en", "lt", "lv", "fy")
"""The lists shipped, one per language of the game: ``data/words-<lang>.txt``."""
MAX_ENTRY = 64
"""Characters of one entry (the moderation page's words are stored as they are typed)."""
RUN = 3
"""Single letters in a row that are read as one word (``f u c k``); two are still two words (``a b``)."""
LETTERS_FOR = str.maketrans({"l": "i", "1": "i", "!": "i", "|": "i", "3": "e", "4": "a", "@": "a", "0": "o"}) | (
    str.maketrans({"5": "s", "$": "s", "7": "t", "+": "t"})
)
"""Digits and signs written for letters, and ``l``, which ``1``, ``|`` and ``I`` fold into, one with ``i``."""
PIECE = re.compile(r"[@$!|+]*[^\W_](?:[^\W_]|[@$!|+]+(?=[^\W_]))*")
"""What a line is cut into before folding: runs of letters and digits, with the signs written for letters
before them and between them (``$hit``, ``your$elf``; the ``!`` that ends ``kys!`` is no letter)."""
WORD = re.compile(r"[^\W\d_]+")
"""A folded word: a run of letters."""
LONG_RUN = re.compile(r"(.)\1\1+")
SHAPES = {(False, True): "^(?:{})", (True, True): "(?:{})", (True, False): "(?:{})$"}
"""The pattern of a word of each entry's shape (a star at its start, at its end): ``stem*``, ``*part*``, ``*end``."""

Reading = frozenset[str]
"""The ways one word of a line reads once folded."""


def folded(text: str) -> str:
    """``text`` as the filter reads it (as written: :func:`words_of` reads a line's words as capitals too).

    >>> folded("ＦＵＣＫ"), folded("fúck"), folded("5h1t"), folded("Kill")
    ('fuck', 'fuck', 'shit', 'kiii')
    """
    return _plain(skeleton(text))


def _plain(looks: str) -> str:
    """A skeleton case folded again, without accents, with the digits and signs written for letters read as them."""
    bare = "".join(c for c in unicodedata.normalize("NFD", looks.casefold()) if not unicodedata.combining(c))
    return bare.translate(LETTERS_FOR)


def words_of(text: str) -> list[Reading]:
    """A line's words, each with the ways it reads (numbers are no words: ``9-4``, ``150``).

    >>> [sorted(reading) for reading in words_of("Nice f u c k i n g play, 9-4")]
    [['nice'], ['f'], ['u'], ['c'], ['k'], ['i'], ['n'], ['g'], ['piay'], ['fucking']]
    >>> sorted(words_of("niggger")[0])
    ['niger', 'nigger', 'niggger']
    """
    pieces = [piece for piece in PIECE.findall(unicodedata.normalize("NFKC", text)) if not piece.isdigit()]
    runs, run = [], []
    for piece in [*pieces, ""]:
        if len(piece) == 1:
            run.append(piece)
            continue
        if len(run) >= RUN:
            runs.append("".join(run))
        run = []
    return [reading for piece in [*pieces, *runs] for reading in _readings(piece)]


@lru_cache(maxsize=8192)
def _readings(piece: str) -> tuple[Reading, ...]:
    """The words of one piece of a line with their readings (kept for the pieces said often: "gg", "nice")."""
    readings = [WORD.findall(_plain(key)) for key in keys(piece)]
    found = []
    for position in range(max(map(len, readings))):
        written = {reading[position] for reading in readings if position < len(reading)}
        found.append(frozenset(form for word in written for form in _forms(word)))
    return tuple(found)


def _forms(word: str) -> tuple[str, str, str]:
    return word, LONG_RUN.sub(r"\1", word), LONG_RUN.sub(r"\1\1", word)


class BadEntry(ValueError):
    """An entry that is no entry of the filter's notation (said in the message)."""


def entry_problem(entry: str) -> str | None:
    """Why ``entry`` is no entry of a word list, or ``None``.

    >>> entry_problem("kurv*"), entry_problem("*"), entry_problem("a*b"), entry_problem("x" * 65)
    (None, 'no letters', 'a star inside a word', 'too long')

    A word is one word once folded: a digit read as no letter (``2``, ``8``) would cut it in two, and a
    line's words are never joined across it.

    >>> entry_problem("sh1t"), entry_problem("zq2x"), entry_problem("zq2 x")
    (None, 'not one word', None)
    """
    if len(entry) > MAX_ENTRY:
        return "too long"
    words = entry.split()
    if not words or not all(WORD.search(folded(word.strip("*"))) for word in words):
        return "no letters"
    if any("*" in word.strip("*") for word in words):
        return "a star inside a word"
    if any(len(WORD.findall(folded(word.strip("*")))) > 1 for word in words):
        return "not one word"
    if len(words) > 1 and any("*" in word for word in words):
        return "a star in a phrase"
    return None


def _body(word: str) -> str:
    return "".join(WORD.findall(folded(word.strip("*"))))


@dataclass(frozen=True, slots=True)
class Words:
    """A chat filter: its entries as written, and what each reads as once folded."""

    entries: tuple[str, ...]
    exact: dict[str, str]
    phrases: tuple[tuple[tuple[str, ...], str], ...]
    patterns: tuple[tuple[re.Pattern[str], dict[str, str]], ...]
    """A pattern for the entries of each shape (``stem*``, ``*part*``, ``*end``), and which entry each
    folded part is."""

    @classmethod
    def parse(cls, entries: Iterable[str]) -> Words:
        """The filter of ``entries`` (blank ones and comments skipped); raises :class:`BadEntry`."""
        kept: list[str] = []
        exact: dict[str, str] = {}
        phrases: list[tuple[tuple[str, ...], str]] = []
        shapes: dict[str, dict[str, str]] = {shape: {} for shape in SHAPES.values()}
        for line in entries:
            entry = " ".join(line.split("#", 1)[0].split())
            if not entry:
                continue
            if (problem := entry_problem(entry)) is not None:
                raise BadEntry(f"{entry!r}: {problem}")
            kept.append(entry)
            words = entry.split()
            if len(words) > 1:
                phrases.append((tuple(_body(word) for word in words), entry))
            elif (shape := SHAPES.get((entry.startswith("*"), entry.endswith("*")))) is None:
                exact.setdefault(_body(entry), entry)
            else:
                shapes[shape].setdefault(_body(entry), entry)
        patterns = tuple((_alternation(shape, bodies), bodies) for shape, bodies in shapes.items() if bodies)
        return cls(tuple(kept), exact, tuple(phrases), patterns)

    def __len__(self) -> int:
        return len(self.entries)

    def match(self, line: str) -> str | None:
        """The entry a chat line has a word of (as written in its list), or ``None``."""
        words = words_of(line)
        for reading in words:
            for form in reading:
                if (entry := self.exact.get(form)) is not None:
                    return entry
                for pattern, bodies in self.patterns:
                    if (found := pattern.search(form)) is not None:
                        return bodies[found.group()]
        for phrase, entry in self.phrases:
            if _in_a_row(phrase, words):
                return entry
        return None

    def joined(self, more: Iterable[str]) -> Words:
        """This filter and ``more`` entries."""
        return Words.parse([*self.entries, *more])


def _alternation(shape: str, bodies: Iterable[str]) -> re.Pattern[str]:
    longest_first = sorted(bodies, key=len, reverse=True)
    return re.compile(shape.format("|".join(re.escape(body) for body in longest_first)))


def _in_a_row(phrase: Sequence[str], words: Sequence[Reading]) -> bool:
    size = len(phrase)
    return any(
        all(word in reading for word, reading in zip(phrase, words[i : i + size], strict=True))
        for i in range(len(words) - size + 1)
    )


def read_list(text: str) -> list[str]:
    """The entries of a word list's text (comments and blank lines left out)."""
    return [entry for line in text.splitlines() if (entry := " ".join(line.split("#", 1)[0].split()))]


@cache
def shipped() -> Words:
    """The lists of the four languages, as shipped."""
    folder = files("chickenfoot.server.moderation").joinpath("data")
    return Words.parse(
        entry for lang in LANGUAGE_LISTS for entry in read_list(folder.joinpath(f"words-{lang}.txt").read_text("utf-8"))
    )


def from_file(path: Path) -> list[str]:
    """The entries of an operator's word list (``chickenfoot serve --chat-words``); raises ``ValueError``
    naming the file and the entry when one is no entry of the notation, or the file cannot be read."""
    try:
        entries = read_list(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the chat words {path}: {exc}") from None
    try:
        Words.parse(entries)
    except BadEntry as exc:
        raise ValueError(f"{path}: {exc}") from None
    return entries

"""Tiles of a double-N set, their notation and the bit tables the engine runs on.

A tile ``H-L`` (H >= L) has the id ``H*(H+1)/2 + L``: the ids of a double-N set are exactly
``0 .. T-1``, so a smaller set is a prefix of a larger one and a hand is an integer bit mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from chickenfoot.errors import NotationError, quoted_english

MAX_PIP = 18
"""The largest set the engine supports (double-18)."""

TILE_PATTERN = "^(1[0-8]|[0-9])-(1[0-8]|[0-9])$"
"""How files spell a tile: two numbers from 0 to 18 joined by ``-``, in either order, without spaces or
leading zeros. The position file's and the match record's readers and JSON Schemas use this one pattern
(``re.fullmatch`` reads it as JSON Schema's ECMA-262 expressions do); :meth:`Tile.parse`, for what people
type, also allows spaces around it and leading zeros."""


def tile_count(max_pip: int) -> int:
    """Number of tiles in a double-``max_pip`` set."""
    return (max_pip + 1) * (max_pip + 2) // 2


def tile_id(high: int, low: int) -> int:
    """Id of the tile ``high-low`` (``high >= low``)."""
    return high * (high + 1) // 2 + low


TILE_COUNT = tile_count(MAX_PIP)
HIGH: tuple[int, ...] = tuple(h for h in range(MAX_PIP + 1) for _ in range(h + 1))
LOW: tuple[int, ...] = tuple(low for h in range(MAX_PIP + 1) for low in range(h + 1))
PIP_SUM: tuple[int, ...] = tuple(h + low for h, low in zip(HIGH, LOW, strict=True))
IS_DOUBLE: tuple[bool, ...] = tuple(h == low for h, low in zip(HIGH, LOW, strict=True))
NAMES: tuple[str, ...] = tuple(f"{h}-{low}" for h, low in zip(HIGH, LOW, strict=True))
"""``NAMES[t]``: tile ``t`` in the notation, ``H-L`` (written for every tile of every message: kept, not formatted)."""
CARRIES: tuple[int, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if number in (HIGH[t], LOW[t])) for number in range(MAX_PIP + 1)
)
"""``CARRIES[n]``: bit mask of every tile that carries the number ``n``."""


def ids_of(mask: int) -> Iterator[int]:
    """The tile ids in a bit mask, lowest first."""
    while mask:
        low_bit = mask & -mask
        yield low_bit.bit_length() - 1
        mask ^= low_bit


def mask_of(ids: Iterable[int]) -> int:
    """The bit mask of some tile ids."""
    mask = 0
    for t in ids:
        mask |= 1 << t
    return mask


@dataclass(frozen=True, slots=True, order=True, repr=False)
class Tile:
    """One domino, ``high-low`` with ``high >= low``.

    >>> Tile.parse("4-9")
    Tile(9, 4)
    >>> str(Tile(6, 6)), Tile(6, 6).is_double, Tile(9, 4).id
    ('6-6', True, 49)
    """

    high: int
    """The higher number (or either, for a double)."""
    low: int
    """The lower number."""
    id: int = field(init=False, compare=False)
    """The tile's index in every set that holds it, ``high * (high + 1) / 2 + low``: 0 for 0-0, 54 for 9-9."""

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high <= MAX_PIP:
            raise NotationError(f"no such tile {self.high}-{self.low}")
        object.__setattr__(self, "id", tile_id(self.high, self.low))

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with numbers ``a`` and ``b``, in either order."""
        high, low = max(a, b), min(a, b)
        if low < 0 or high > MAX_PIP:
            raise NotationError(f"no such tile {high}-{low}")
        return TILES[tile_id(high, low)]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``H-L`` (either order)."""
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.isdigit() and p.isascii() for p in parts):
            raise NotationError(f"bad tile {quoted_english(text)}: expected two numbers like 9-4")
        # Leading zeros aside, more than two digits is too big: no need to convert a thousand of them.
        if any(len(p.lstrip("0")) > 2 for p in parts) or max(int(parts[0]), int(parts[1])) > MAX_PIP:
            raise NotationError(f"bad tile {quoted_english(text)}: numbers go up to {MAX_PIP}")
        return cls.of(int(parts[0]), int(parts[1]))

    @property
    def is_double(self) -> bool:
        """Whether both ends carry the same number (a double starts a chicken foot, or is the hub)."""
        return self.high == self.low

    @property
    def pips(self) -> int:
        """The sum of the two numbers: what the tile counts in a hand at a round's end (the 0-0 aside,
        which counts ``Rules.double_blank_points``)."""
        return self.high + self.low

    def carries(self, number: int) -> bool:
        """Whether either end of the tile is ``number``: whether it can be played on an open end of that
        number."""
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The number at the other end from ``number``."""
        if not self.carries(number):
            raise ValueError(f"{self} does not carry {number}")
        return self.high + self.low - number

    def __str__(self) -> str:
        return NAMES[self.id]

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


TILES: tuple[Tile, ...] = tuple(Tile(HIGH[t], LOW[t]) for t in range(TILE_COUNT))


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a bit mask, in id order."""
    return [TILES[t] for t in ids_of(mask)]


def full_set(max_pip: int) -> list[Tile]:
    """Every tile of a double-``max_pip`` set."""
    return list(TILES[: tile_count(max_pip)])

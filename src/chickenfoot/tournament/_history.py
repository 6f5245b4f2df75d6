"""Who has met whom, in which seats and beside how many bots: what the pairings avoid repeating."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from chickenfoot.tournament.results import Result, Seat


def pair(a: str, b: str) -> tuple[str, str]:
    """The key of a meeting, the same whichever player comes first."""
    return (a, b) if a < b else (b, a)


class History:
    """The meetings, seats and bot company of every player over a set of tables."""

    def __init__(self, tables: Iterable[Sequence[Seat]] = ()) -> None:
        self.met: Counter[tuple[str, str]] = Counter()
        """How many tables each pair of players shared."""
        self.seats: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        """How many times each player sat in each seat."""
        self.with_bots: Counter[str] = Counter()
        """How many bots each player has sat beside, over all their tables."""
        for seating in tables:
            self.add(seating)

    @classmethod
    def of(cls, results: Iterable[Result]) -> History:
        """The history of finished tables."""
        return cls(r.players for r in results)

    def add(self, seating: Sequence[Seat]) -> None:
        """Count one more table."""
        people = [p for p in seating if p is not None]
        for a, b in combinations(people, 2):
            self.met[pair(a, b)] += 1
        bots = len(seating) - len(people)
        for seat, player in enumerate(seating):
            if player is not None:
                self.seats[player][seat] += 1
                self.with_bots[player] += bots

    def meetings(self, members: Sequence[str]) -> int:
        """How many earlier tables the pairs among ``members`` repeat (a pair that met twice counts 2)."""
        return sum(self.met[pair(a, b)] for a, b in combinations(members, 2))


def keyed(pairs: Iterable[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """Pairs of players, each keyed as :func:`pair` keys it."""
    return frozenset(pair(a, b) for a, b in pairs)


def blocked_among(members: Sequence[str], apart: Collection[tuple[str, str]]) -> int:
    """How many pairs of ``members`` must not share a table (``apart``, :func:`keyed`): the pairings' first
    cost, so two such players are never together while another seating exists.

    >>> blocked_among(["ann", "bob", "cy"], keyed([("cy", "ann")]))
    1
    """
    return sum(pair(a, b) in apart for a, b in combinations(members, 2)) if apart else 0

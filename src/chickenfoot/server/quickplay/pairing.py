"""Who plays whom: the pure pairing of quick play's waiting players, by rating and time waited.

Each waiting player accepts opponents within a rating *window* that widens the longer they wait
(:class:`Schedule`; by default ±100 at once, 50 wider every 5 s, anyone after 60 s). Two players
suit each other when their ratings differ by no more than the narrower of their two windows. The
oldest waiting player is seated first, with the nearest-rated players who suit everyone already in
the group. A player of a 4-player pool who finds too few is seated with bots in the empty seats
once they, and every player seated with them, have waited as long as they chose to (``bots_after``).
Two players kept apart (one blocks the other: ``apart``, pairs of tickets) never suit each other, so
they are never seated together, whatever they wait.

>>> schedule = Schedule()
>>> schedule.window(0), schedule.window(12), schedule.window(60)
(100.0, 200.0, inf)
>>> a, b, c = Waiting("a", 1500, 0), Waiting("b", 1580, 0), Waiting("c", 1900, 0)
>>> [group.tickets for group in pair([a, b, c], 2, now=1, schedule=schedule)]
[('a', 'b')]
>>> [group.tickets for group in pair([c, Waiting("d", 1500, 0)], 2, now=1, schedule=schedule)]
[]
>>> [group.tickets for group in pair([c, Waiting("d", 1500, 0)], 2, now=30, schedule=schedule)]
[('c', 'd')]
>>> pair([a, b], 2, now=100, schedule=schedule, apart={frozenset(("a", "b"))})
[]
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Schedule:
    """How a waiting player's rating window widens: ``start`` at once, ``step`` wider every
    ``every`` seconds, and unbounded (anyone of the pool) from ``unbounded_after`` seconds."""

    start: float = 100.0
    step: float = 50.0
    every: float = 5.0
    unbounded_after: float = 60.0

    def window(self, waited: float) -> float:
        """How far from their own rating a player who has waited ``waited`` seconds accepts opponents."""
        if waited >= self.unbounded_after:
            return math.inf
        return self.start + self.step * math.floor(max(waited, 0.0) / self.every)


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the queue: their ticket, rating and when they joined (seconds, any epoch)."""

    ticket: str
    rating: float
    joined: float
    bots_after: float | None = None
    """Seconds after which this player accepts bots in the empty seats (``None``: never)."""


@dataclass(frozen=True, slots=True)
class Group:
    """Players to seat together, in seat order, and how many bots fill the rest of the table."""

    tickets: tuple[str, ...]
    bots: int
    rating: float
    """The players' mean rating (what the bots' level is chosen near)."""


def nearest(pool: list[Waiting], ratings: list[float], anchor: Waiting, reach: float) -> Iterator[Waiting]:
    """The players of ``pool`` (sorted by rating; ``ratings`` theirs) within ``reach`` of ``anchor``'s
    rating, nearest first, walking outwards from where the anchor's rating falls."""
    right = bisect.bisect_left(ratings, anchor.rating)
    left = right - 1
    while left >= 0 or right < len(pool):
        below = anchor.rating - ratings[left] if left >= 0 else math.inf
        above = ratings[right] - anchor.rating if right < len(pool) else math.inf
        if min(below, above) > reach:
            return
        if below <= above:
            yield pool[left]
            left -= 1
        else:
            yield pool[right]
            right += 1


def gather(
    anchor: Waiting, candidates: Iterable[Waiting], size: int, suit: Callable[[Waiting, Waiting], bool]
) -> list[Waiting]:
    """``anchor`` and, in the order given, each candidate who suits everyone gathered so far, up to ``size``."""
    group = [anchor]
    for candidate in candidates:
        if len(group) == size:
            break
        if candidate is not anchor and all(suit(candidate, member) for member in group):
            group.append(candidate)
    return group


def pair(
    waiting: Sequence[Waiting],
    size: int,
    now: float,
    schedule: Schedule,
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[Group]:
    """Groups of ``size`` seats out of ``waiting``, nobody in two, no pair of ``apart`` (tickets) in one;
    those not grouped keep waiting.

    The players not yet seated are kept sorted by rating: each anchor's candidates are found by
    walking outwards from its rating, nearest first, never by comparing every pair.
    """
    pool = sorted(waiting, key=lambda w: (w.rating, w.joined, w.ticket))
    ratings = [w.rating for w in pool]
    seated: set[str] = set()
    groups: list[Group] = []

    def window(player: Waiting) -> float:
        return schedule.window(now - player.joined)

    def suit(one: Waiting, other: Waiting) -> bool:
        near = abs(one.rating - other.rating) <= min(window(one), window(other))
        return near and frozenset((one.ticket, other.ticket)) not in apart

    def patient(player: Waiting) -> bool:
        return player.bots_after is not None and now - player.joined >= player.bots_after

    def seat(player: Waiting) -> None:
        index = bisect.bisect_left(ratings, player.rating)
        while pool[index] is not player:
            index += 1
        del pool[index], ratings[index]

    for anchor in sorted(waiting, key=lambda w: (w.joined, w.ticket)):
        if anchor.ticket in seated:
            continue
        reach = window(anchor)
        group = gather(anchor, nearest(pool, ratings, anchor, reach), size, suit)
        if len(group) < size and size > 2 and patient(anchor):
            patient_ones = (c for c in nearest(pool, ratings, anchor, reach) if patient(c))
            group = gather(anchor, patient_ones, size, suit)  # the rest of the seats are bots
        elif len(group) < size:
            continue
        for member in group:
            seat(member)
            seated.add(member.ticket)
        mean = sum(m.rating for m in group) / len(group)
        groups.append(Group(tuple(m.ticket for m in group), size - len(group), mean))
    return groups

"""Who plays whom: the pure pairing of quick play's waiting players, by rating and time waited.

Each waiting player accepts opponents within a rating *window* that widens the longer they wait
(:class:`Schedule`; by default ±100 at once, 50 wider every 5 s, anyone after 60 s). Two players
suit each other when their ratings differ by no more than the narrower of their two windows. The
oldest waiting player is seated first, with the nearest-rated players who suit everyone already in
the group. A player of a 4-player pool who finds too few is seated with bots in the empty seats
once they, and every player seated with them, have waited as long as they chose to (``bots_after``).

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
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
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


def gather(
    anchor: Waiting, candidates: list[Waiting], size: int, suit: Callable[[Waiting, Waiting], bool]
) -> list[Waiting]:
    """``anchor`` and, nearest first, each candidate who suits everyone gathered so far, up to ``size``."""
    group = [anchor]
    for candidate in candidates:
        if len(group) == size:
            break
        if all(suit(candidate, member) for member in group):
            group.append(candidate)
    return group


def pair(waiting: Sequence[Waiting], size: int, now: float, schedule: Schedule) -> list[Group]:
    """Groups of ``size`` seats out of ``waiting``, nobody in two; those not grouped keep waiting.

    Runs in O(n log n + n·k) for n players, k of them within a window: candidates are found by
    bisection in the list sorted by rating, never by comparing every pair.
    """
    by_rating = sorted(waiting, key=lambda w: (w.rating, w.joined, w.ticket))
    ratings = [w.rating for w in by_rating]
    seated: set[str] = set()
    groups: list[Group] = []

    def window(player: Waiting) -> float:
        return schedule.window(now - player.joined)

    def suit(one: Waiting, other: Waiting) -> bool:
        return abs(one.rating - other.rating) <= min(window(one), window(other))

    def patient(player: Waiting) -> bool:
        return player.bots_after is not None and now - player.joined >= player.bots_after

    for anchor in sorted(waiting, key=lambda w: (w.joined, w.ticket)):
        if anchor.ticket in seated:
            continue
        reach = window(anchor)
        low = bisect.bisect_left(ratings, anchor.rating - reach)
        high = bisect.bisect_right(ratings, anchor.rating + reach)
        candidates = sorted(
            (w for w in by_rating[low:high] if w.ticket not in seated and w.ticket != anchor.ticket),
            key=lambda w: (abs(w.rating - anchor.rating), w.joined, w.ticket),
        )
        group = gather(anchor, candidates, size, suit)
        if len(group) < size and size > 2 and patient(anchor):
            group = gather(anchor, [c for c in candidates if patient(c)], size, suit)  # the rest are bots
        elif len(group) < size:
            continue
        seated.update(m.ticket for m in group)
        mean = sum(m.rating for m in group) / len(group)
        groups.append(Group(tuple(m.ticket for m in group), size - len(group), mean))
    return groups

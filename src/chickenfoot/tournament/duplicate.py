"""Duplicate scoring: every table plays the same deal, and each player is compared with everyone who held
the same seat of it — the same hand, the same boneyard — as in duplicate bridge.

A **deal** is a match seed (:func:`deal_seed`): ``Match(rules, players, deal_seed(event, n))`` deals the
same hands and the same boneyard, round after round, at every table (the arena's bots play their
duplicate deals the same way). A player's result on a deal is their match total at that seat, and it is
compared with every other result at that seat of that deal — bots' included: a bot that fills a seat,
or a table of bots playing the deal as a **par**, gives a reference row that people are measured
against, and is never ranked itself.

Two comparisons of one result with the others at its seat:

- **Match points** (:attr:`Scoring.MATCHPOINTS`, the default): 2 for every other result it beat (fewer
  points), 1 for every tie, 0 for every loss — duplicate bridge's matchpoints — shown as a share of
  the most there were (the *top*). A seat's results always share ``m × (m − 1)`` match points.
- **Difference** (:attr:`Scoring.DIFFERENCE`): the others' average points minus its own; positive is
  better. A seat's differences add up to zero.

Why match points by default: a table of Chicken Foot is won by finishing below the others, and match
points count exactly that — how many of the people who held your tiles you finished below — whatever
the margins. Points in hand swing wildly (a player left holding 0-0 and a few doubles carries 70 or
more), so one deal's differences can outweigh all the others; match points give every deal the same
weight. The difference stays as the tie-break, and is the better measure of a small field (two tables
give match points of only 0, 50 or 100%).

>>> results = [
...     Result.from_points("A", ("ann", "bob"), (10, 30), deal=1),
...     Result.from_points("B", ("cy", "dan"), (20, 25), deal=1),
...     Result.from_points("C", (None, None), (15, 40), deal=1),
... ]
>>> [(row.player, row.points, row.matchpoints, row.top, row.difference) for row in compare(results)[0].seats[0].rows]
[('ann', 10, 4, 4, 7.5), (None, 15, 2, 4, 0.0), ('cy', 20, 0, 4, -7.5)]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from chickenfoot.errors import TournamentError
from chickenfoot.tournament.results import Result, Seat
from chickenfoot.tournament.standings import PlayerStanding, Tiebreak, rank


def deal_seed(event_seed: int, deal: int) -> int:
    """The match seed of deal number ``deal`` of an event: every table of that deal is dealt from it.

    >>> from chickenfoot import Match, Rules
    >>> a, b = (Match(Rules(), 4, deal_seed(7, 1)) for _ in range(2))
    >>> a.deals[0] == b.deals[0], deal_seed(7, 1) != deal_seed(7, 2)
    (True, True)
    """
    return random.Random(f"{event_seed}:{deal}").getrandbits(64)


class Scoring(StrEnum):
    """How a duplicate event ranks its players."""

    MATCHPOINTS = "matchpoints"
    """By the share of match points over all their results (the total over the total of the tops)."""
    DIFFERENCE = "difference"
    """By the sum of their differences with the average of their seat's other results."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One result at one seat of a deal, compared with the others at that seat."""

    table: str
    """The table it was played at."""
    player: Seat
    """Who held the seat (``None``: a bot)."""
    points: int
    """Their match total."""
    matchpoints: int
    """2 for every other result at the seat with more points, 1 for every one with as many."""
    top: int
    """The most match points there were: 2 for every other result at the seat."""
    difference: float
    """The average points of the other results at the seat minus this one's (0 when it stands alone)."""

    @property
    def percent(self) -> float | None:
        """The match points as a share of the top, in percent (``None`` when nothing was compared)."""
        return 100 * self.matchpoints / self.top if self.top else None


@dataclass(frozen=True, slots=True)
class SeatComparison:
    """Every result at one seat of one deal, best first."""

    seat: int
    """The seat (its hand is the same at every table)."""
    rows: tuple[SeatRow, ...]
    """The results, fewest points first (ties in the order the tables were given)."""

    @property
    def average(self) -> float:
        """The seat's average points."""
        return sum(row.points for row in self.rows) / len(self.rows)


@dataclass(frozen=True, slots=True)
class DealComparison:
    """One deal as a results page shows it: each seat's comparison, and what each table did."""

    deal: int
    """The deal's number."""
    tables: tuple[Result, ...]
    """The tables that played it, in the order given."""
    seats: tuple[SeatComparison, ...]
    """Seat by seat, seat 0 first."""

    def row(self, table: str, seat: int) -> SeatRow:
        """One table's result at one seat, compared: a cell of the page's grid of tables by seats."""
        for row in self.seats[seat].rows:
            if row.table == table:
                return row
        raise KeyError(f"table {table} did not play deal {self.deal}")


def compare(results: Iterable[Result]) -> list[DealComparison]:
    """Compare every result of the duplicate deals among ``results`` (the others are left out), deal by deal.

    Raises :class:`~chickenfoot.errors.TournamentError` when a deal was played at tables of different
    sizes, two tables share an id on a deal, or a player played one deal twice (they would have known the
    hands).
    """
    by_deal: dict[int, list[Result]] = {}
    for result in results:
        if result.deal is not None:
            by_deal.setdefault(result.deal, []).append(result)
    return [_deal(deal, tables) for deal, tables in sorted(by_deal.items())]


def _deal(deal: int, tables: list[Result]) -> DealComparison:
    sizes = {len(r.players) for r in tables}
    if len(sizes) > 1:
        raise TournamentError(f"deal {deal} was played at tables of {' and '.join(map(str, sorted(sizes)))} seats")
    if len({r.table for r in tables}) < len(tables):
        raise TournamentError(f"deal {deal} lists a table twice")
    people = [p for r in tables for p in r.players if p is not None]
    if len(set(people)) < len(people):
        raise TournamentError(f"a player played deal {deal} twice")
    seats = []
    for seat in range(sizes.pop()):
        points = [r.points[seat] for r in tables]
        total, others = sum(points), len(points) - 1
        rows = [
            SeatRow(
                table=r.table,
                player=r.players[seat],
                points=own,
                matchpoints=sum(2 * (own < p) + (own == p) for p in points) - 1,
                top=2 * others,
                difference=float(Fraction(total - own, others) - own) if others else 0.0,
            )
            for r, own in zip(tables, points, strict=True)
        ]
        seats.append(SeatComparison(seat, tuple(sorted(rows, key=lambda row: row.points))))
    return DealComparison(deal, tuple(tables), tuple(seats))


def duplicate_standings(
    results: Iterable[Result], scoring: Scoring = Scoring.MATCHPOINTS, players: Sequence[str] = ()
) -> list[PlayerStanding]:
    """Rank the people of a duplicate event by ``scoring``, the other comparison breaking ties.

    The score is the share of match points in percent (the sum of a player's match points over the sum
    of their tops) or the sum of their differences; ``matches`` counts the deals played; the one
    tie-break is the other comparison. Bots are compared, never ranked.

    >>> results = [
    ...     Result.from_points("A", ("ann", "bob"), (10, 30), deal=1),
    ...     Result.from_points("B", ("cy", "dan"), (20, 25), deal=1),
    ... ]
    >>> [(row.rank, row.player, row.score, row.tiebreaks) for row in duplicate_standings(results)]
    [(1, 'ann', 100.0, (10.0,)), (2, 'dan', 100.0, (5.0,)), (3, 'bob', 0.0, (-5.0,)), (4, 'cy', 0.0, (-10.0,))]
    """
    won: dict[str, int] = dict.fromkeys(players, 0)
    tops: dict[str, int] = dict.fromkeys(players, 0)
    differences: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    deals: dict[str, int] = dict.fromkeys(players, 0)
    for comparison in compare(results):
        for seat in comparison.seats:
            others = len(seat.rows) - 1
            total = sum(row.points for row in seat.rows)
            for row in seat.rows:
                if row.player is None:
                    continue
                won[row.player] = won.get(row.player, 0) + row.matchpoints
                tops[row.player] = tops.get(row.player, 0) + row.top
                exact = Fraction(total - row.points, others) - row.points if others else Fraction(0)
                differences[row.player] = differences.get(row.player, Fraction(0)) + exact
                deals[row.player] = deals.get(row.player, 0) + 1
    percent = {p: 100 * won[p] / tops[p] if tops[p] else 0.0 for p in deals}
    difference = {p: float(differences[p]) for p in deals}
    if scoring is Scoring.MATCHPOINTS:
        score, other, tiebreak = percent, difference, Tiebreak.DIFFERENCE
    else:
        score, other, tiebreak = difference, percent, Tiebreak.MATCHPOINTS
    return rank(score, deals, (tiebreak,), lambda player, _tiebreak, _tied: other[player])

"""What a tournament is made of: seats, tables and the result of each finished table.

A player is the server's id for an entrant (any string: an account, a bot account); the package never
looks inside it. A seat holds a player, or ``None`` for a bot the event seats to fill a table. A
:class:`Result` is one finished table: who sat in each seat, the points each seat finished with (the
match total, points left in hand: lower is better) and each seat's place by the match's own tie-breaks.

>>> r = Result.from_points("t1", ("ann", "bob", None, "cy"), (12, 40, 12, 7))
>>> r.places
(2, 4, 2, 1)
>>> r.place_points()
(3, 0, 3, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from chickenfoot.errors import TournamentError

if TYPE_CHECKING:
    from chickenfoot.match import Match

Seat: TypeAlias = str | None
"""Who sits in a seat: a player's id, or ``None`` for a bot seated by the event."""

Seating: TypeAlias = tuple[Seat, ...]
"""One table to start: who sits in each seat, seat 0 first."""

TABLE_SIZES = range(2, 5)
"""A tournament's tables seat 2, 3 or 4."""


def check_table_size(size: int) -> None:
    """Raise :class:`~chickenfoot.errors.TournamentError` unless ``size`` is one of :data:`TABLE_SIZES`."""
    if size not in TABLE_SIZES:
        raise TournamentError(f"a table seats 2 to 4, not {size}")


def places_from_points(points: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place when fewer points is better; equal points share a place.

    >>> places_from_points((12, 40, 12, 7))
    (2, 4, 2, 1)
    """
    return tuple(1 + sum(other < own for other in points) for own in points)


def place_points(places: Sequence[int]) -> tuple[int, ...]:
    """A table's score for each seat: 2 for every seat it finished above, 1 for every other seat it tied.

    Two seats give 2-1-0 (a win, a shared place, a loss); four give 6, 4, 2 and 0 from first to last.
    Every table hands out the same total, ``size × (size − 1)``.

    >>> place_points((1, 2)), place_points((1, 1)), place_points((1, 2, 3, 4)), place_points((1, 1, 3, 3))
    ((2, 0), (1, 1), (6, 4, 2, 0), (5, 5, 1, 1))
    """
    return tuple(2 * sum(other > own for other in places) + sum(other == own for other in places) - 1 for own in places)


@dataclass(frozen=True, slots=True)
class Result:
    """One finished table of an event.

    Raises :class:`~chickenfoot.errors.TournamentError` when the seats, points and places do not agree.
    """

    table: str
    """The server's id of the table (shown back on results pages, never interpreted)."""
    players: Seating
    """Who sat in each seat (``None``: a bot)."""
    points: tuple[int, ...]
    """Each seat's match total: the points left in hand over the rounds, lower is better."""
    places: tuple[int, ...]
    """Each seat's place, 1 for the winner, by the match's own ranking (docs/rules.md §6); equal places tie."""
    deal: int | None = None
    """The duplicate deal the table played (see :mod:`chickenfoot.tournament.duplicate`); ``None``: a fresh deal."""
    finished_at: float = 0.0
    """When the match ended, in the caller's clock (seconds); an arena counts only what ended in time."""

    def __post_init__(self) -> None:
        check_table_size(len(self.players))
        if not len(self.points) == len(self.places) == len(self.players):
            raise TournamentError(f"table {self.table}: one score and one place per seat")
        people = [p for p in self.players if p is not None]
        if len(set(people)) != len(people):
            raise TournamentError(f"table {self.table}: a player holds two seats")
        if any(place != 1 + sum(other < place for other in self.places) for place in self.places):
            raise TournamentError(f"table {self.table}: places must count the seats ahead, {self.places} do not")

    @classmethod
    def from_points(
        cls,
        table: str,
        players: Seating,
        points: Sequence[int],
        deal: int | None = None,
        finished_at: float = 0.0,
    ) -> Result:
        """A result ranked by points alone (fewer is better, equal points share a place)."""
        return cls(table, tuple(players), tuple(points), places_from_points(points), deal, finished_at)

    @classmethod
    def from_match(
        cls, table: str, players: Seating, match: Match, deal: int | None = None, finished_at: float = 0.0
    ) -> Result:
        """The result of a finished match, placed by its standings (docs/rules.md §6's tie-breaks).

        >>> from chickenfoot import Match, Rules
        >>> m = Match(Rules(rounds=1), players=2, seed=5)
        >>> while not m.is_over():
        ...     m.push(m.legal_moves()[0])
        >>> r = Result.from_match("t1", ("ann", "bob"), m)
        >>> r.points == tuple(m.totals()), sorted(r.places)
        (True, [1, 2])
        """
        if not match.is_over():
            raise TournamentError(f"table {table}: the match is not over")
        if len(players) != match.players:
            raise TournamentError(f"table {table}: {len(players)} players for {match.players} seats")
        place = {s.seat: s.rank for s in match.standings()}
        places = tuple(place[seat] for seat in range(match.players))
        return cls(table, tuple(players), tuple(match.totals()), places, deal, finished_at)

    def place_points(self) -> tuple[int, ...]:
        """Each seat's score for this table (:func:`place_points`)."""
        return place_points(self.places)

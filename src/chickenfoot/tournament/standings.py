"""Standings: each player's score over the finished tables, ranked with a format's tie-breaks.

A player's score is the sum of their :func:`~chickenfoot.tournament.results.place_points` (2 for every
seat finished above, 1 for every seat tied, bots' seats included). Players still equal are separated by
the tie-breaks in the order given; those equal on everything share a rank and keep the order of
``players`` (the event's seeding), so a name never decides anything.

>>> from chickenfoot.tournament import Result
>>> results = [
...     Result.from_points("a", ("ann", "bob", "cy"), (5, 20, 31)),
...     Result.from_points("b", ("dan", "eve", "fay"), (9, 3, 40)),
... ]
>>> for row in standings(results, (Tiebreak.GAME_POINTS,)):
...     print(row.rank, row.player, row.score, row.tiebreaks)
1 eve 4 (3,)
2 ann 4 (5,)
3 dan 2 (9,)
4 bob 2 (20,)
5 cy 0 (31,)
6 fay 0 (40,)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from chickenfoot.errors import TournamentError
from chickenfoot.tournament.results import Result


class Tiebreak(StrEnum):
    """A way to separate players on the same score; each format states its own order of them."""

    OPPONENTS_AVERAGE = "opponents_average"
    """The average final score of the people a player sat with, each table's every other person counted
    (bots not): chess's Buchholz for tables of any size, averaged so that a table with a bot costs
    nothing. Higher is better: the same score earned in stronger company."""
    HEAD_TO_HEAD = "head_to_head"
    """Among the players still tied, and only when every pair of them has met: the place points they
    took from one another at the tables they shared (2 for finishing above a tied player, 1 for a tie).
    Higher is better. When some pair never met it decides nothing and its value is ``None``."""
    GAME_POINTS = "game_points"
    """The total of a player's points left in hand over all their tables. Fewer is better, as in the game."""
    PER_MATCH = "per_match"
    """The score divided by the tables played: the same score from fewer matches is better (an arena's
    performance, without ratings)."""
    WINS = "wins"
    """The tables a player finished first at, shared first places included. More is better."""
    MATCHPOINTS = "matchpoints"
    """A duplicate event's share of match points (:mod:`~chickenfoot.tournament.duplicate`). Higher is better."""
    DIFFERENCE = "difference"
    """A duplicate event's sum of differences with the seat's other results. Higher is better."""


LOWER_IS_BETTER = frozenset({Tiebreak.GAME_POINTS})
"""The tie-breaks where the smaller value ranks higher."""


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One player's line of the standings."""

    player: str
    """The player's id."""
    rank: int
    """1 for the leaders; players equal on the score and every tie-break share a rank."""
    score: float
    """The format's score: place points, or for duplicate the chosen comparison's total."""
    matches: int
    """Tables (or duplicate deals) counted."""
    tiebreaks: tuple[float | None, ...] = ()
    """The value of each of the format's tie-breaks, in its order (``None``: it decided nothing here)."""


TiebreakValue = Callable[[str, Tiebreak, tuple[str, ...]], float | None]
"""A tie-break's value for a player, given the group of players tied with them so far (them included)."""


@dataclass(slots=True)
class _Line:
    """A player's totals, gathered in one pass over the results."""

    score: int = 0
    matches: int = 0
    game_points: int = 0
    wins: int = 0
    tables: list[tuple[Result, int]] = field(default_factory=list)


def standings(
    results: Iterable[Result], tiebreaks: Sequence[Tiebreak] = (), players: Sequence[str] = ()
) -> list[PlayerStanding]:
    """Rank everyone in ``players`` and everyone who played, best first, by place points and ``tiebreaks``.

    ``players`` gives the order among players equal on everything; players who played and are not in it
    follow in the order they first appear, and players without a result stand with a score of 0.
    """
    lines: dict[str, _Line] = {}
    for entrant in players:
        if entrant in lines:
            raise TournamentError(f"{entrant} is entered twice")
        lines[entrant] = _Line()
    for result in results:
        for seat, (player, points) in enumerate(zip(result.players, result.place_points(), strict=True)):
            if player is None:
                continue
            line = lines.get(player)
            if line is None:
                line = lines[player] = _Line()
            line.score += points
            line.matches += 1
            line.game_points += result.points[seat]
            line.wins += result.places[seat] == 1
            line.tables.append((result, seat))
    return rank(
        {player: line.score for player, line in lines.items()},
        {player: line.matches for player, line in lines.items()},
        tiebreaks,
        _TableValues(lines).value,
    )


class _TableValues:
    """The tie-breaks of :class:`Tiebreak`, read from players' tables."""

    def __init__(self, lines: dict[str, _Line]) -> None:
        self.lines = lines
        self.head_to_head: dict[tuple[str, ...], dict[str, int] | None] = {}

    def value(self, player: str, tiebreak: Tiebreak, tied: tuple[str, ...]) -> float | None:
        line = self.lines[player]
        if tiebreak is Tiebreak.GAME_POINTS:
            return line.game_points
        if tiebreak is Tiebreak.WINS:
            return line.wins
        if tiebreak is Tiebreak.PER_MATCH:
            return line.score / line.matches if line.matches else 0.0
        if tiebreak is Tiebreak.OPPONENTS_AVERAGE:
            opponents = [
                self.lines[other].score
                for result, seat in line.tables
                for other_seat, other in enumerate(result.players)
                if other is not None and other_seat != seat
            ]
            return sum(opponents) / len(opponents) if opponents else 0.0
        if tiebreak is not Tiebreak.HEAD_TO_HEAD:
            raise TournamentError(f"the {tiebreak} tie-break belongs to duplicate standings")
        if tied not in self.head_to_head:
            self.head_to_head[tied] = self._head_to_head(tied)
        among = self.head_to_head[tied]
        return None if among is None else among[player]

    def _head_to_head(self, tied: tuple[str, ...]) -> dict[str, int] | None:
        """Each tied player's place points against the others, or ``None`` unless every pair has met."""
        if len(tied) < 2:
            return None
        group = set(tied)
        taken = dict.fromkeys(tied, 0)
        for player in tied:
            met: set[str] = set()
            for result, seat in self.lines[player].tables:
                for other_seat, other in enumerate(result.players):
                    if other in group and other_seat != seat:
                        assert other is not None
                        met.add(other)
                        own, theirs = result.places[seat], result.places[other_seat]
                        taken[player] += 2 if own < theirs else own == theirs
            if len(met) < len(tied) - 1:
                return None
        return taken


def rank(
    scores: dict[str, float], matches: dict[str, int], tiebreaks: Sequence[Tiebreak], value: TiebreakValue
) -> list[PlayerStanding]:
    """Rank ``scores`` (higher first; equals in the dict's order), separating equals by ``tiebreaks`` in
    turn, each asked of ``value`` for every player with the group still tied with them."""
    groups = _split([list(scores)], scores.get, higher_is_better=True)
    columns: dict[str, list[float | None]] = {player: [] for player in scores}
    for tiebreak in tiebreaks:
        values = {player: value(player, tiebreak, tuple(tied)) for tied in groups for player in tied}
        for player, found in values.items():
            columns[player].append(found)
        groups = _split(groups, values.get, higher_is_better=tiebreak not in LOWER_IS_BETTER)
    table: list[PlayerStanding] = []
    for tied in groups:
        place = len(table) + 1
        table += [PlayerStanding(p, place, scores[p], matches[p], tuple(columns[p])) for p in tied]
    return table


def _split(groups: list[list[str]], key: Callable[[str], float | None], higher_is_better: bool) -> list[list[str]]:
    """Each group cut into runs of equal ``key``, best first; a group where any value is ``None`` stays whole."""
    split: list[list[str]] = []
    for tied in groups:
        values = [v for v in map(key, tied) if v is not None]
        if len(tied) == 1 or len(values) < len(tied):
            split.append(tied)
            continue
        sign = -1 if higher_is_better else 1
        ordered = sorted(zip(values, tied, strict=True), key=lambda pair: sign * pair[0])
        run: list[str] = []
        last: float | None = None
        for v, player in ordered:
            if run and v != last:
                split.append(run)
                run = []
            run.append(player)
            last = v
        split.append(run)
    return split

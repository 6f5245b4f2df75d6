"""Tournaments: pairings, schedules, standings and duplicate scoring, as pure functions of their inputs.

The package decides; it stores, sends and waits for nothing. Its inputs are immutable (the entrants,
the tables in play, the :class:`Result` of every finished table, the time ``now`` as a number) and its
outputs are data: the tables to start (each a :data:`Seating`, seat by seat, ``None`` for a bot), the
standings (:class:`PlayerStanding`), the comparisons of a duplicate deal. The same inputs give the same
decision; the only randomness is seeded (a round-robin's search, a duplicate deal).

- :mod:`~chickenfoot.tournament.arena`: Lichess's arena for tables of 2 to 4.
- :mod:`~chickenfoot.tournament.swiss`: a Swiss for tables of 2 to 4, round by round from the standings.
- :mod:`~chickenfoot.tournament.round_robin`: a club night's schedule, everyone meeting evenly.
- :mod:`~chickenfoot.tournament.duplicate`: the same deal at every table, each seat compared.
- :mod:`~chickenfoot.tournament.standings`: scores and tie-breaks.

A Swiss of six at tables of three, its first round played:

>>> from chickenfoot.tournament import Result, SWISS_TIEBREAKS, standings, swiss_round
>>> entrants = ["ann", "bob", "cy", "dan", "eve", "fay"]
>>> swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], table_size=3)
[('ann', 'dan', 'eve'), ('bob', 'cy', 'fay')]
>>> played = [
...     Result.from_points("1", ("ann", "dan", "eve"), (12, 30, 4)),
...     Result.from_points("2", ("bob", "cy", "fay"), (25, 9, 9)),
... ]
>>> table = standings(played, SWISS_TIEBREAKS, entrants)
>>> [(row.rank, row.player, row.score) for row in table]
[(1, 'eve', 4), (2, 'cy', 3), (2, 'fay', 3), (4, 'ann', 2), (5, 'bob', 0), (6, 'dan', 0)]
>>> swiss_round(table, played, table_size=3)
[('eve', 'fay', 'cy'), ('dan', 'ann', 'bob')]
"""

from chickenfoot.tournament.arena import ARENA_TIEBREAKS, ArenaSettings, Entrant, arena_pairings, arena_standings
from chickenfoot.tournament.duplicate import (
    DealComparison,
    Scoring,
    SeatComparison,
    SeatRow,
    compare,
    deal_seed,
    duplicate_standings,
)
from chickenfoot.tournament.results import TABLE_SIZES, Result, Seat, Seating, place_points, places_from_points
from chickenfoot.tournament.round_robin import ROUND_ROBIN_TIEBREAKS, round_robin
from chickenfoot.tournament.standings import PlayerStanding, Tiebreak, standings
from chickenfoot.tournament.swiss import SWISS_TIEBREAKS, swiss_round

__all__ = [
    "ARENA_TIEBREAKS",
    "ROUND_ROBIN_TIEBREAKS",
    "SWISS_TIEBREAKS",
    "TABLE_SIZES",
    "ArenaSettings",
    "DealComparison",
    "Entrant",
    "PlayerStanding",
    "Result",
    "Scoring",
    "Seat",
    "SeatComparison",
    "SeatRow",
    "Seating",
    "Tiebreak",
    "arena_pairings",
    "arena_standings",
    "compare",
    "deal_seed",
    "duplicate_standings",
    "place_points",
    "places_from_points",
    "round_robin",
    "standings",
    "swiss_round",
]

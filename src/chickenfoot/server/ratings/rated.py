"""Which tables are rated, and how a finished rated match ranks its seats (no storage).

A table is rated when it asks to be, its rules are a rated preset, every bot is a level with a fixed
rating (:mod:`.levels`) and every person's seat is held by an account (checked when the seat is taken,
and again at the end: a seat without an account makes the match count for nobody).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.rules import Rules
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import Family, family_of, placing
from chickenfoot.server.table.config import Seat, TableConfig

RATED_PRESETS = ("classic",)
"""Only classic double-9 is rated (docs/bots/ratings.md says why): the bots' ratings were measured on it,
and a variant's few players would each split the pool."""


def why_not_rated(rules: Rules, seats: Sequence[Seat]) -> Said | None:
    """Why a table of ``rules`` and ``seats`` cannot be rated (``None``: it can)."""
    if not any(rules == Rules.preset(name) for name in RATED_PRESETS):
        return Said.of(Code.RATING_NOT_PRESET)
    family = family_of(len(seats))
    if family is None:
        return Said.of(Code.RATING_NOT_PLAYERS)
    if any(seat.kind == "bot" and seat.bot not in LEVEL_RATINGS[family] for seat in seats):
        return Said.of(Code.RATING_NOT_BOT)
    return None


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished rated match: an account's, or a bot level's (its rating held fixed)."""

    rank: int
    """The rank the rating counts (1 first; equal ranks tie; an abandoned seat is last)."""
    account_id: int | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """What :meth:`Ratings.record <chickenfoot.server.ratings.service.Ratings.record>` needs of a finished match."""

    code: str
    family: Family
    seats: tuple[RatedSeat, ...]


def rated_match(
    code: str, config: TableConfig, match: Match, accounts: Mapping[int, int], absent: Collection[int] = ()
) -> RatedMatch | None:
    """The finished match of a rated table as its ratings count it; ``None`` when nothing is to be rated.

    ``accounts``: the account that sat in each seat (a seat a bot took over keeps its account: its
    player abandoned the match, and so did one who left and did not come back, or ran out of time at a
    turn-based table whose rule gave the seat to a bot); ``absent``: the seats a bot covered at the end,
    their player gone (the page closed, the stream ended) and not back before the match ended: abandoned
    too. A match of two lost on time ranks its loser last, whatever the points so far. Turn-based
    matches share the families of real-time ones: the game and its players are the same, and a pool
    split by pace would rate each player half as often (docs/bots/ratings.md).
    """
    family = family_of(len(config.seats))
    lost = config.lost_on_time
    if not config.rated or family is None or not (match.is_over() or lost is not None):
        return None
    people = [s for s, seat in enumerate(config.seats) if seat.kind == "human" or s in accounts]
    if any(s not in accounts for s in people) or len({accounts[s] for s in people}) != len(people) or not people:
        return None  # a guest in a seat, or one account in two seats: the match counts for nobody
    ranks = [0] * len(config.seats)
    for standing in match.standings():
        ranks[standing.seat] = standing.rank
    if lost is not None:
        ranks = [2 if seat == lost else 1 for seat in range(len(config.seats))]
    abandoned = [
        s in accounts and (seat.kind == "bot" or seat.left or seat.replaced or s in absent)
        for s, seat in enumerate(config.seats)
    ]
    counted = placing(ranks, abandoned)
    return RatedMatch(
        code,
        family,
        tuple(
            RatedSeat(counted[s], accounts[s], None) if s in accounts else RatedSeat(counted[s], None, seat.bot)
            for s, seat in enumerate(config.seats)
        ),
    )

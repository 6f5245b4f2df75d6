"""The rating arithmetic: an OpenSkill model over a match's finishing order (no storage, no clock).

A rating is OpenSkill's ``mu`` and ``sigma``; people read it on a familiar scale (``1500 + 40 × (mu − 25)``,
so a new player shows 1500, the rating of the default bot level). It is provisional (shown with ``?``) while
``sigma`` is above :data:`PROVISIONAL_SIGMA`, and no match moves it more than :data:`MOST_PER_MATCH`.
Each family has the model that predicted held-out arena matches best; why those and why the two
families: docs/bots/ratings.md (measured by ``benchmarks/ratings.py``).

>>> new = Rating()
>>> new.shown, new.provisional, new.text
(1500, True, '1500?')
>>> winner, loser = update([new, new], [1, 2], Family.HEADS_UP)
>>> winner.mu > 25 > loser.mu
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist
from typing import Any

from openskill.models import PlackettLuce, ThurstoneMostellerFull


class Family(StrEnum):
    """The player counts rated apart, by the name stored, sent and shown (``2``, ``3-4``): heads-up play
    rewards reading one opponent's hand, a table of three or four rewards blocking and timing; the bot
    levels stand at different distances in them (docs/bots/ratings.md). Quick play pairs by them too."""

    HEADS_UP = "2"
    TABLE_OF_MORE = "3-4"


FAMILIES: tuple[Family, ...] = tuple(Family)

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3
BETA = 25.0 / 6
"""The spread of one player's performances from match to match: OpenSkill's default in both families. The
levels' ratings, fitted with it, stand as far apart at three or four as heads-up (benchmarks/ratings.py
``fit``: a ratio of 1.005), so 200 points mean about the same in both."""
MODELS: dict[Family, PlackettLuce | ThurstoneMostellerFull] = {
    Family.HEADS_UP: ThurstoneMostellerFull(beta=BETA),
    Family.TABLE_OF_MORE: PlackettLuce(beta=BETA),
}
"""Per family, the model with the lowest log-loss of held-out arena winners (benchmarks/ratings.py):
Thurstone–Mosteller heads-up, Plackett–Luce at tables of three or four."""
MOST_PER_MATCH = 5.0
"""No match moves a rating's ``mu`` further than this (200 points on the shown scale). Only a provisional
rating comes near it: a new account's first result is otherwise worth up to 220 points against ``medium``
and 540 for beating ``expert`` heads-up, and a first match, often a first game of chicken foot, says less
about a player than the model's wide first guess would take from it."""
PROVISIONAL_SIGMA = 3.0
"""Above this ``sigma`` (120 points on the shown scale) a rating is provisional: shown with ``?``, given no
rank and not on the leaderboards. A new account's 8.33 falls under it after about 12 heads-up matches or
40 at tables of four (half won against well-rated opponents, tests/server/ratings/test_model.py): a result
at four says about a third as much about each player. Lichess calls a rating provisional above a
deviation of 110 of its points, about 80 of these."""
SHOWN_PER_MU = 40.0
SHOWN_AT_DEFAULT = 1500


def family_of(players: int) -> Family | None:
    """The rating family of a match of ``players`` (``None``: such matches are not rated)."""
    if players == 2:
        return Family.HEADS_UP
    if players in (3, 4):
        return Family.TABLE_OF_MORE
    return None


def shown(mu: float) -> int:
    """``mu`` on the scale people read."""
    return round(SHOWN_AT_DEFAULT + SHOWN_PER_MU * (mu - DEFAULT_MU))


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one family."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    matches: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def text(self) -> str:
        """``1512``, or ``1512?`` while provisional."""
        return f"{self.shown}{'?' if self.provisional else ''}"

    def wire(self) -> dict[str, object]:
        """The rating as the API sends it."""
        return {
            "rating": self.shown,
            "provisional": self.provisional,
            "text": self.text,
            "matches": self.matches,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
        }


def update(ratings: Sequence[Rating], ranks: Sequence[int], family: Family) -> list[Rating]:
    """Every seat's rating after a match where seat ``s`` finished ``ranks[s]`` (1 first; equal ranks tie):
    the family's model, each ``mu`` moved at most :data:`MOST_PER_MATCH`."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError("a match needs two or more seats, each with its rank")
    model: Any = MODELS[family]  # each model's ratings are its own type: only ever given back to it
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Rating(r.mu + max(-MOST_PER_MATCH, min(MOST_PER_MATCH, team[0].mu - r.mu)), team[0].sigma, r.matches + 1)
        for team, r in zip(after, ratings, strict=True)
    ]


def win_chances(ratings: Sequence[Rating], family: Family) -> list[float]:
    """Each seat's chance of finishing first by the family's model: heads-up Thurstone–Mosteller's
    Φ((μa − μb) / √(2β² + σa² + σb²)); at three or four Plackett–Luce's e^(μi/c) / Σ e^(μj/c) with
    c = √Σ(σj² + β²), the probability its update is built on (OpenSkill's ``predict_win`` averages
    pairs instead, and never gives one of four seats more than half).

    >>> [round(p, 3) for p in win_chances([Rating(25, 1), Rating(25, 1), Rating(25, 1)], Family.TABLE_OF_MORE)]
    [0.333, 0.333, 0.333]
    """
    if family is Family.HEADS_UP:
        a, b = ratings
        first = NormalDist().cdf((a.mu - b.mu) / math.sqrt(2 * BETA**2 + a.sigma**2 + b.sigma**2))
        return [first, 1 - first]
    c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in ratings))
    top = max(r.mu for r in ratings)
    weights = [math.exp((r.mu - top) / c) for r in ratings]
    return [w / sum(weights) for w in weights]


def placing(ranks: Sequence[int], abandoned: Sequence[bool]) -> list[int]:
    """The ranks a rating counts: the match's own (its tie-break order applied, docs/rules.md §6), with
    every seat whose player abandoned it moved below everyone who stayed (tied among themselves).

    >>> placing([1, 2, 3], [True, False, False])
    [3, 1, 2]
    """
    if len(ranks) != len(abandoned):
        raise ValueError("one abandoned flag per seat")
    stayed = sorted({rank for rank, gone in zip(ranks, abandoned, strict=True) if not gone})
    order = {rank: place for place, rank in enumerate(stayed, 1)}
    last = len(stayed) + 1
    return [last if gone else order[rank] for rank, gone in zip(ranks, abandoned, strict=True)]

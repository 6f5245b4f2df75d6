"""The rating arithmetic: an OpenSkill model over a match's finishing order (no storage, no clock).

A rating is OpenSkill's ``mu`` and ``sigma``; people read it on a familiar scale (``1500 + 40 × (mu − 25)``,
so a new player shows 1500). It is provisional (shown with ``?``) while ``sigma`` is above
:data:`PROVISIONAL_SIGMA`. Each family has the model that predicted held-out arena matches best; why
those and why the two families: docs/bots/ratings.md (measured by ``benchmarks/ratings.py``).

>>> new = Rating()
>>> new.shown, new.provisional, new.text
(1500, True, '1500?')
>>> winner, loser = update([new, new], [1, 2], Family.HEADS_UP)
>>> winner.mu > 25 > loser.mu
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from openskill.models import PlackettLuce, ThurstoneMostellerFull


class Family(StrEnum):
    """The player counts rated apart, by the name stored, sent and shown (``2``, ``3-4``): heads-up play
    rewards reading one opponent's hand, a table of three or four rewards blocking and timing; the arena's
    ladder orders the levels differently in them (docs/bots/ratings.md). Quick play pairs by them too."""

    HEADS_UP = "2"
    TABLE_OF_MORE = "3-4"


FAMILIES: tuple[Family, ...] = tuple(Family)

MODELS: dict[Family, PlackettLuce | ThurstoneMostellerFull] = {
    Family.HEADS_UP: ThurstoneMostellerFull(),
    Family.TABLE_OF_MORE: PlackettLuce(),
}
"""Per family, the model with the lowest log-loss of held-out arena winners (benchmarks/ratings.py):
Thurstone–Mosteller heads-up, Plackett–Luce at tables of three or four."""
DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3
PROVISIONAL_SIGMA = 4.0
"""Above this ``sigma`` (160 points on the shown scale) a rating is provisional: a new account's 8.33
falls under it after about 6 heads-up matches or 19 at tables of four (half of them won against
well-rated opponents, tests/server/ratings/test_model.py); before that one match moves it 50 points or more."""
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
    """Every seat's rating after a match where seat ``s`` finished ``ranks[s]`` (1 first; equal ranks tie)."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError("a match needs two or more seats, each with its rank")
    model: Any = MODELS[family]  # each model's ratings are its own type: only ever given back to it
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma, r.matches + 1) for team, r in zip(after, ratings, strict=True)]


def win_chances(ratings: Sequence[Rating], family: Family) -> list[float]:
    """Each seat's chance of finishing first, by the family's model."""
    model: Any = MODELS[family]  # each model's ratings are its own type: only ever given back to it
    return [float(p) for p in model.predict_win([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings])]


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

"""What a round's final points are worth to a seat: the search's reward.

Within a round the reward is the seat's margin — the other seats' mean points minus its own — on a
scale where a typical spread between seats is 1; margins add up to the match totals. When the seat
knows the match standings (``SeatView.match``) and plays for the match, a match win is worth
:data:`MATCH_WIN` on top: the reward adds that times the chance the seat wins the match from the
standings this round would leave. Early in a match that chance moves little with a round's points
and the margin leads; in the last rounds it dominates, so the search avoids the big losses that cost
the match and takes risks when only a big swing can win it.

The chance treats each seat's points in the rounds still to come as independent and normal, with
the spread of one seat's round points (:data:`ROUND_SPREAD`) growing with the square root of the
rounds left; after the last round it is exact, tie-breaks of docs/rules.md §6 included (a win shared by
k seats counts 1/k). The compiled search computes the same numbers (``_search.pyx``, ``score``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from chickenfoot.view import MatchStanding, SeatView

REWARD_SCALE = 60.0
"""Points that make a reward of 1 (a typical spread between seats in a round)."""
MATCH_WIN = 1.0
"""A match win's worth in reward units (so in points, ``MATCH_WIN * REWARD_SCALE``)."""
ROUND_SPREAD = {2: 20.0, 3: 18.0, 4: 16.0}
"""Per players, the spread of one seat's round points that the model of independent seats needs: the
standard deviation of the difference between two seats' points in a double-9 round, over √2. Measured
on the saved arena runs of the search against greedy (``benchmarks/results/2p-ismcts600-vs-greedy``:
21.6, its repeat 19.4; ``4p-ismcts600-vs-greedy-100``: 15.8); 3 players between the two, more
players the 4-player value."""
NODES = 24
"""Points of the midpoint rule over the normal law of one seat's future points."""
_STEP = 8.0 / NODES
QUADRATURE = tuple(-4.0 + _STEP * (k + 0.5) for k in range(NODES))
"""Where the integral over the seat's own future points is sampled (in standard deviations)."""
_DENSITY = [math.exp(-x * x / 2) for x in QUADRATURE]
QUADRATURE_WEIGHTS = tuple(d / sum(_DENSITY) for d in _DENSITY)


def _beaten(z: float) -> float:
    """P(X > z) for a standard normal X: an opponent's future points exceed the seat's by enough."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


@dataclass(frozen=True, slots=True)
class Reward:
    """The reward of ``seat`` for a round's final points (callable); :func:`reward_for` builds it."""

    seat: int
    totals: tuple[int, ...] = ()
    """Match totals before this round (empty: the round alone counts)."""
    zero_rounds: tuple[int, ...] = ()
    lowest_nonzero: tuple[int, ...] = ()
    """Each seat's lowest non-zero round so far, -1 for none (the tie-breaks)."""
    spread: float = 0.0
    """Standard deviation of one seat's points over the rounds after this one (0: this is the last)."""
    win_value: float = 0.0
    """A match win's worth (0: the round's margin alone)."""
    scale: ClassVar[float] = REWARD_SCALE
    quadrature: ClassVar[tuple[float, ...]] = QUADRATURE
    quadrature_weights: ClassVar[tuple[float, ...]] = QUADRATURE_WEIGHTS

    def __call__(self, points: Sequence[int]) -> float:
        seat = self.seat
        margin = ((sum(points) - points[seat]) / (len(points) - 1) - points[seat]) / self.scale
        if not self.win_value:
            return margin
        return margin + self.win_value * self.win_chance(points)

    def win_chance(self, points: Sequence[int]) -> float:
        """The seat's chance to win the match if this round ends with ``points``."""
        seat = self.seat
        final = [total + p for total, p in zip(self.totals, points, strict=True)]
        if self.spread == 0:
            keys = [
                (
                    final[s],
                    -(self.zero_rounds[s] + (points[s] == 0)),
                    _lowest(self.lowest_nonzero[s], points[s]),
                )
                for s in range(len(points))
            ]
            best = min(keys)
            return 1.0 / keys.count(best) if keys[seat] == best else 0.0
        chance = 0.0
        for x, w in zip(self.quadrature, self.quadrature_weights, strict=True):
            p = w
            for s, total in enumerate(final):
                if s != seat:
                    p *= _beaten(x + (final[seat] - total) / self.spread)
            chance += p
        return chance


def _lowest(lowest: int, points: int) -> int:
    """The lowest non-zero round after one of ``points`` (-1: none; a seat with none ranks first)."""
    if points == 0:
        return lowest
    return points if lowest < 0 else min(lowest, points)


def reward_for(seat: int, players: int, match: MatchStanding | None, plays_match: bool) -> Reward:
    """The reward of ``seat``: the round's margin, plus the match's win chance when ``plays_match``
    and the standings are known."""
    if match is None or not plays_match:
        return Reward(seat)
    left = match.rounds - match.round_number
    spread = ROUND_SPREAD.get(players, ROUND_SPREAD[4]) * math.sqrt(left)
    return Reward(
        seat,
        match.totals,
        match.zero_rounds,
        tuple(-1 if low is None else low for low in match.lowest_nonzero),
        spread,
        MATCH_WIN,
    )


def view_reward(view: SeatView, plays_match: bool) -> Reward:
    """:func:`reward_for` the seat of ``view``."""
    assert view.seat is not None
    return reward_for(view.seat, view.players, view.match, plays_match)

"""Belief over the hidden hands: how likely each consistent deal makes the opponents' observed plays.

:class:`~chickenfoot.knowledge.Knowledge` samples hidden hands that agree with the public history
(draws and passes are hard constraints), every such deal alike. A :class:`Belief` weights them by a
model of play: an opponent that placed tile X while its hand held other playable tiles chose X with
probability ``exp(cost(X) / T) / Z``, ``Z`` the sum of ``exp(cost(Y) / T)`` over the tiles ``Y`` it
could play then, ``cost`` the points a tile is worth in hand (the 0-0 its rule value): heavy tiles
go first, as greedy, careful and searching players mostly do, with :data:`TEMPERATURE` the model's
spread. A deal's weight is the product of those probabilities over the opponents' choices (an
importance weight against the uniform sampler); the numerators are the same in every deal, so its
log is ``-sum(log Z)``.

Only real choices are evidence: placing the hub and playing a tile just drawn (only it could be
played) carry none. An opponent's hand at a choice is its hidden tiles now that it already held then,
and the tiles it played from then on that it held then; which slot a played tile came from follows
the knowledge model's tightest placement.

A :class:`Pool` of deals is drawn and weighted once per decision; the search then takes its
determinizations from the pool by weight (sampling-importance-resampling, Rubin 1988), each with the
boneyard shuffled afresh, since the plays say nothing of its order.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from chickenfoot.knowledge import NUMBERS, Knowledge
from chickenfoot.move import DRAW
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.tiles import PIP_SUM

TEMPERATURE = 8.0
"""Spread of the model of play, in points: how much lighter a tile may be and still be chosen."""
POOL_SIZE = 2048
"""Deals weighted per decision."""


def tile_costs(rules: Rules) -> list[float]:
    """Per tile id, the points it is worth in hand: what the model of play expects players to shed first."""
    costs = [float(PIP_SUM[t]) for t in range(rules.tile_count)]
    costs[0] = float(rules.double_blank_points)
    return costs


@dataclass(frozen=True, slots=True)
class Choice:
    """One opponent play that was a choice, as the weight of a deal needs it."""

    positions: tuple[int, ...]
    """Entries of ``Knowledge.order`` (the hidden tiles now) the player already held then."""
    playable: int
    """Bit mask of the tiles it could have played then."""
    known: float
    """``exp(cost / T)`` summed over the known tiles it held and could play then (the one it played among them)."""


class Belief:
    """The model of play over one seat's :class:`~chickenfoot.knowledge.Knowledge`: deals' log weights and pools."""

    def __init__(self, knowledge: Knowledge, temperature: float = TEMPERATURE) -> None:
        self.knowledge = knowledge
        costs = tile_costs(knowledge.view.rules)
        top = max(costs)
        # Against overflow the common factor keeps every value at most 1, and against underflow (a 0-0
        # worth many points) at least 1e-304, so that every sum of them is positive.
        self.scale = [math.exp(max((c - top) / temperature, -700.0)) for c in costs]
        """Per tile id, ``exp(cost / T)`` up to a common factor."""
        self.choices = self._choices()

    def _choices(self) -> list[Choice]:
        knowledge = self.knowledge
        history = knowledge.view.history
        every_tile = (1 << knowledge.view.rules.tile_count) - 1
        choices: list[Choice] = []
        for i, step in enumerate(history):
            previous = history[i - 1] if i else None
            after_draw = previous is not None and previous.seat == step.seat and previous.move.code == DRAW
            if step.seat == knowledge.seat or step.move.code < 0 or step.opening or after_draw:
                continue
            numbers = 0
            for n in step.open_numbers:
                numbers |= 1 << n
            playable = sum(1 << t for t in range(len(NUMBERS)) if NUMBERS[t] & numbers) & every_tile
            known = sum(
                self.scale[tile]
                for seat, tile, born, played_at in knowledge.played
                if seat == step.seat and born < i <= played_at and playable >> tile & 1
            )
            positions = tuple(
                k
                for k, ((owner, _), slot) in enumerate(zip(knowledge.order, knowledge.order_slots, strict=True))
                if owner == step.seat and slot.born < i
            )
            if known > 0:  # else the tracker lost the play (a loaded position's partial history)
                choices.append(Choice(positions, playable, known))
        return choices

    @property
    def informative(self) -> bool:
        """Whether any opponent has made a choice yet: else every deal weighs the same."""
        return bool(self.choices)

    def log_weight(self, picks: Sequence[int]) -> float:
        """The log likelihood, up to a constant, of the opponents' choices if their hidden tiles are
        ``picks`` (one tile per entry of ``Knowledge.order``)."""
        scale = self.scale
        total = 0.0
        for choice in self.choices:
            z = choice.known
            playable = choice.playable
            for k in choice.positions:
                tile = picks[k]
                if playable >> tile & 1:
                    z += scale[tile]
            total -= math.log(z)
        return total

    def pool(self, rng: random.Random, size: int = POOL_SIZE) -> Pool:
        """``size`` sampled deals with their normalised weights (the compiled sampler's ``believe`` draws
        and weighs its pool the same way, in C)."""
        picks = [tuple(self.knowledge.picks(rng)) for _ in range(size)]
        logs = [self.log_weight(p) for p in picks]
        top = max(logs)
        raw = [math.exp(x - top) for x in logs]
        total = sum(raw)
        weights = tuple(w / total for w in raw)
        return Pool(self.knowledge, tuple(picks), weights, tuple(itertools.accumulate(weights)))


@dataclass(frozen=True, slots=True)
class Pool:
    """Weighted deals of one decision: ``picks[k]`` fills ``Knowledge.order``, with probability ``weights[k]``."""

    knowledge: Knowledge
    picks: tuple[tuple[int, ...], ...]
    weights: tuple[float, ...]
    cumulative: tuple[float, ...]
    """Running sums of ``weights``."""

    def effective_size(self) -> float:
        """Kish's effective sample size of the weights: how many equal deals they are worth."""
        return 1.0 / sum(w * w for w in self.weights)

    def pick(self, rng: random.Random) -> tuple[int, ...]:
        """One deal's hidden hands, drawn by weight."""
        index = bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])
        return self.picks[min(index, len(self.picks) - 1)]

    def round(self, rng: random.Random) -> Round:
        """A determinization drawn by weight, its boneyard shuffled afresh (as ``Knowledge.round``)."""
        knowledge = self.knowledge
        return knowledge.round_of(*knowledge.place(self.pick(rng), rng))

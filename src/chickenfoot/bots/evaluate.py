"""What each legal move is worth to the seat to move, from its own view: the numbers behind hints and reviews.

Every legal move is tried on the same sampled deals (deals that agree with the seat's view, from
:class:`~chickenfoot.knowledge.Knowledge`) and played out to the round's end by the search's
rollout policy with the same random numbers, so the differences between moves come from the moves
and not from luck (common random numbers). A move's value is the mean final points of every seat
after it. Moves are ranked by their **margin**: the mover's expected points minus the mean of its
opponents' (lower is better; it is what adds up to the match totals, as the search's reward).

The same view, number of samples and seed always give the same numbers: nothing hidden is read,
and every random draw comes from the seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from chickenfoot.bots.endgame import Solver
from chickenfoot.bots.policy import rollout_policy
from chickenfoot.bots.search import rollout
from chickenfoot.knowledge import Knowledge
from chickenfoot.move import Move
from chickenfoot.view import SeatView

CHECK_EVERY = 8
"""Samples between clock checks under a time limit."""
EXACT_TILES = 7
"""With the boneyard empty and at most this many tiles in all hands, a sampled deal is played out
exactly (every seat minimising its own margin) instead of by rollout: few enough to solve at once."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move's expected final round points for every seat, seen by the seat to move."""

    move: Move
    """The legal move valued."""
    points: tuple[float, ...]
    """Expected points of each seat at the round's end after this move (the 0-0 counting as in the rules)."""
    seat: int
    """The seat to move, whose view the values come from."""
    samples: int
    """Sampled deals the numbers are the means of."""

    @property
    def own(self) -> float:
        """The mover's expected points."""
        return self.points[self.seat]

    @property
    def margin(self) -> float:
        """The mover's expected points minus its opponents' mean: lower is better."""
        others = [p for s, p in enumerate(self.points) if s != self.seat]
        return self.own - sum(others) / len(others)


def evaluate(
    view: SeatView, samples: int, seed: int = 0, seconds: float | None = None, moves: Sequence[Move] | None = None
) -> list[MoveValue]:
    """The legal moves of ``view.seat`` (or just ``moves``) with their expected points, best (lowest margin) first.

    ``samples`` deals are drawn (fewer if ``seconds`` runs out first, at least one); ties keep the
    order of ``view.legal_moves``. A move's numbers do not depend on which other moves are
    evaluated with it. Raises :class:`ValueError` when it is not the seat's turn or a move is illegal.
    """
    if view.seat is None or not view.legal_moves:
        raise ValueError("it is not this seat's turn")
    if samples < 1:
        raise ValueError("evaluating needs at least one sample")
    chosen = list(view.legal_moves) if moves is None else list(moves)
    if any(m not in view.legal_moves for m in chosen):
        raise ValueError("only legal moves can be evaluated")
    codes = [m.code for m in chosen]
    if view.boneyard_size == 0 and sum(1 for s, n in enumerate(view.hand_sizes) if s != view.seat and n) <= 1:
        samples = 1  # every unseen tile is in one hand: there is a single deal to sample
    knowledge = Knowledge(view)
    policy = rollout_policy(view.rules)
    rng = random.Random(seed)
    totals = [[0.0] * view.players for _ in codes]
    deadline = None if seconds is None else time.perf_counter() + seconds
    solver = Solver(view.players, max_nodes=1 << 40)  # at most EXACT_TILES tiles: always small
    done = 0
    while done < samples:
        if deadline is not None and done and done % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
        deal = knowledge.round(rng)
        rollout_seed = rng.getrandbits(64)
        exact = deal.boneyard_size == 0 and sum(h.bit_count() for h in deal.hands) <= EXACT_TILES
        for code, total in zip(codes, totals, strict=True):
            r = deal.copy()
            r.push_code(code)
            if exact:
                points: Sequence[int] = solver.points(r)
            else:
                points = rollout(r, random.Random(rollout_seed), policy)
            for s, p in enumerate(points):
                total[s] += p
        done += 1
    values = [
        MoveValue(move, tuple(t / done for t in total), view.seat, done)
        for move, total in zip(chosen, totals, strict=True)
    ]
    return sorted(values, key=lambda v: v.margin)


__all__ = ["MoveValue", "evaluate"]

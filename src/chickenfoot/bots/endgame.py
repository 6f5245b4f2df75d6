"""Exact endgames: with the boneyard empty and few tiles hidden, solve the rest instead of sampling.

Once the boneyard is empty nothing is left to chance but how the hidden tiles lie among the other
hands. :func:`solve` lists every assignment of them that agrees with the seat's knowledge (the slot
constraints of :class:`~chickenfoot.knowledge.Knowledge`: known voids, tiles seen to be playable),
solves each deal exactly — every seat, in turn, picks the move best for its own reward (max^n), with a
transposition table keyed by what decides the rest of the round — and averages each root move's
value over the deals, all equally likely. This is perfect-information solving per deal, as the
sampled search does per rollout: it does not model that opponents cannot see the deal either.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence

from chickenfoot.knowledge import Knowledge, Slot, match_slots
from chickenfoot.round import Round
from chickenfoot.view import SeatView

MAX_HIDDEN = 10
"""Most hidden tiles an endgame may have to be solved."""
MAX_TILES = 13
"""Most tiles in all hands together (the game tree grows with them)."""
MAX_DEALS = 400
"""Most consistent deals to enumerate; beyond, sampling is left to the search."""
MAX_NODES = 30_000
"""Most positions solved (over all deals) before giving up on exactness."""

Stats = dict[int, tuple[int, float]]


class TooLarge(Exception):
    """The endgame is larger than the limits: leave it to the sampled search."""


def _fits(tiles: Sequence[int], slots: Sequence[Slot]) -> bool:
    """Whether the tiles can be matched one to one to the slots."""
    return match_slots([[tile for tile in tiles if slot.allows(tile)] for slot in slots]) is not None


def deals(view: SeatView, knowledge: Knowledge | None = None) -> Iterator[list[int]]:
    """Every consistent assignment of the hidden tiles: hand bit masks per seat (the boneyard is empty)."""
    knowledge = knowledge or Knowledge(view)
    assert view.seat is not None
    seats = [s for s in range(view.players) if s != view.seat]
    own = knowledge.own

    def assign(index: int, left: list[int], hands: list[int]) -> Iterator[list[int]]:
        if index == len(seats):
            yield hands.copy()
            return
        seat = seats[index]
        slots = knowledge.slots[seat]
        for chosen in itertools.combinations(left, len(slots)):
            if _fits(chosen, slots):
                hands[seat] = sum(1 << t for t in chosen)
                rest = [t for t in left if t not in chosen]
                yield from assign(index + 1, rest, hands)
        hands[seat] = 0

    start = [0] * view.players
    start[view.seat] = own
    yield from assign(0, knowledge.unseen, start)


def applies(view: SeatView) -> bool:
    """Whether the endgame is small enough to try: the boneyard is empty and few tiles are hidden."""
    tiles = sum(view.hand_sizes)
    return (
        view.boneyard_size == 0
        and view.seat is not None
        and tiles <= MAX_TILES
        and tiles - len(view.hand) <= MAX_HIDDEN
    )


def _key(r: Round) -> tuple[object, ...]:
    """What decides the rest of the round: hands, turn, drawn tile and the open ends by number
    (two ends showing the same number are interchangeable)."""
    layout = r.layout
    return (
        tuple(r.hands),
        r.to_move,
        r.drawn,
        layout.arms,
        layout.foot_number if layout.foot >= 0 else -1,
        layout.toe_count,
        tuple(len(line) for line in layout.ends),
    )


class Solver:
    """max^n over one deal at a time, sharing one transposition table over all deals."""

    def __init__(self, players: int, max_nodes: int = MAX_NODES, deadline: float | None = None) -> None:
        self.players = players
        self.deadline = deadline
        """A ``time.perf_counter`` time after which the solver gives up."""
        self.table: dict[tuple[object, ...], tuple[int, ...]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes

    def points(self, r: Round) -> tuple[int, ...]:
        """Each seat's points at the end of the round when every seat plays for its own reward."""
        if r.end_reason is not None:
            return tuple(r.points())
        key = _key(r)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes or (
            self.deadline is not None and not self.nodes % 1024 and time.perf_counter() > self.deadline
        ):
            raise TooLarge
        mover = r.to_move
        best: tuple[int, ...] = ()
        best_value = -math.inf
        for code in list(r.legal_codes()):
            r.push_code(code)
            points = self.points(r)
            r.pop()
            # The mover's reward: the others' mean minus its own, up to a positive factor.
            value = sum(points) - self.players * points[mover]
            if value > best_value:
                best, best_value = points, value
        self.table[key] = best
        return best


def reward(points: Sequence[int], seat: int) -> float:
    """The search's reward, in points: the other seats' mean minus the seat's own."""
    return (sum(points) - points[seat]) / (len(points) - 1) - points[seat]


def solve(
    view: SeatView,
    max_deals: int = MAX_DEALS,
    max_nodes: int = MAX_NODES,
    deadline: float | None = None,
    value: Callable[[Sequence[int]], float] | None = None,
) -> Stats | None:
    """Per legal move code: (consistent deals, total value) with exact play after it, the value of
    the final points being ``value`` (default: :func:`reward`, in points); ``None`` when the endgame
    does not apply or is too large to solve within the limits (or before ``deadline``, a
    ``time.perf_counter`` time). Every seat plays for its round margin; ``value`` only weighs the
    outcomes for the seat to move (the search's reward, which may count the match)."""
    if not applies(view) or not view.my_turn:
        return None
    seat = view.seat
    assert seat is not None

    def margin(points: Sequence[int]) -> float:
        return reward(points, seat)

    value = value or margin
    knowledge = Knowledge(view)
    codes = [move.code for move in view.legal_moves]
    template = knowledge.round(random.Random(0))  # its hidden hands are replaced by each deal
    solver = Solver(view.players, max_nodes, deadline)
    totals = dict.fromkeys(codes, 0.0)
    count = 0
    try:
        for hands in deals(view, knowledge):
            count += 1
            if count > max_deals:
                return None
            r = template.copy()
            r.hands = hands
            for code in codes:
                r.push_code(code)
                totals[code] += value(solver.points(r))
                r.pop()
    except TooLarge:
        return None
    if not count:
        return None
    return {code: (count, totals[code]) for code in codes}

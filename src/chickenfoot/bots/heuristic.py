"""What good human players do, as a scored rule of thumb per legal move.

Shed heavy tiles (more so as the round nears its end), keep numbers you can continue, play a double
when you can feed its toes yourself or when opponents are known to lack its number, and leave
numbers open that the next seats have shown they lack.
"""

from __future__ import annotations

from dataclasses import dataclass

from chickenfoot.bots.base import Bot, Budget
from chickenfoot.knowledge import NUMBERS, known_voids
from chickenfoot.layout import Phase
from chickenfoot.move import Move
from chickenfoot.tiles import TILES, Tile
from chickenfoot.view import SeatView


@dataclass(frozen=True, slots=True)
class Assessment:
    """A legal move with its score."""

    move: Move
    score: float


def tile_points(view: SeatView, tile: Tile) -> int:
    return view.rules.double_blank_points if tile.high == 0 else tile.pips


def _open_number(view: SeatView, move: Move) -> int:
    """The number of the end a placement covers."""
    target = move.target
    assert target is not None
    for end, number in view.open_ends:
        if end == target:
            return number
    return target.high  # the hub or a foot double: it shows its own number


def urgency(view: SeatView) -> float:
    """How near the round is to its end (0 calm .. 1 someone is about to go out)."""
    others = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
    shortest = min(others) if others else 7
    return max(0.0, min(1.0, (4 - shortest) / 3))


def assess(view: SeatView) -> list[Assessment]:
    """Every legal move of ``view`` scored, best first."""
    if not view.legal_moves:
        raise ValueError("it is not this seat's turn")
    voids = known_voids(view)
    hand_mask = sum(1 << t.id for t in view.hand)
    hurry = urgency(view)
    players = view.players
    seat = view.seat if view.seat is not None else 0
    next_seats = [(seat + k) % players for k in range(1, players)]
    results: list[Assessment] = []
    for move in view.legal_moves:
        tile = move.tile
        if move.kind in ("draw", "pass") or tile is None:
            results.append(Assessment(move, _pass_score(view, hurry)))
            continue
        if move.kind == "hub":
            results.append(Assessment(move, 1000.0))
            continue
        cost = tile_points(view, tile)
        covered = _open_number(view, move)
        left_open = tile.high if tile.is_double else tile.other(covered)
        rest = hand_mask & ~(1 << tile.id)
        follow = tuple(TILES[t] for t in range(len(TILES)) if rest >> t & 1 and NUMBERS[t] >> left_open & 1)
        starves = tuple(s for s in next_seats if voids[s] >> left_open & 1)
        score = cost * (1.0 + 2.0 * hurry)
        # Weight the next seat's void most: it must draw at once.
        score += sum(4.0 if s == next_seats[0] else 2.0 for s in starves)
        if tile.is_double:
            toes = min(len(follow), view.rules.toes)
            score += 6.0 + 3.0 * toes - (6.0 if toes == 0 and not starves else 0.0)
        else:
            score += 2.5 * min(len(follow), 2)
            # Doubles are hard to place: opening their number is worth something to their owner.
            if rest >> (left_open * (left_open + 1) // 2 + left_open) & 1:
                score += 5.0
        results.append(Assessment(move, score))
    results.sort(key=lambda a: -a.score)
    return results


def _pass_score(view: SeatView, hurry: float) -> float:
    """Passing on a drawn tile keeps its points in hand: better only than a near-worthless play, and never late."""
    if view.phase is Phase.FOOT or view.drawn is None:
        return 0.0
    return 1.0 - 3.0 * hurry


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        ranked = assess(view)
        best = ranked[0].score
        return self.rng.choice([a.move for a in ranked if a.score == best])

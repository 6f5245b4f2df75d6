"""The usual baseline: play the heaviest legal tile (0-0 first, since it costs the most)."""

from __future__ import annotations

from chickenfoot.bots.base import Bot, Budget
from chickenfoot.move import Move
from chickenfoot.view import SeatView


def tile_cost(view: SeatView, move: Move) -> int:
    """What a move's tile would cost if left in hand (0 for draw and pass)."""
    tile = move.tile
    if tile is None:
        return -1
    return view.rules.double_blank_points if tile.high == 0 else tile.pips


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        best = max(tile_cost(view, m) for m in view.legal_moves)
        return self.rng.choice([m for m in view.legal_moves if tile_cost(view, m) == best])

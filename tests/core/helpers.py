"""Building hand-made rounds from notation, for the core tests."""

from __future__ import annotations

from typing import Any

from chickenfoot import Round, Rules
from chickenfoot.move import Move
from chickenfoot.tiles import Tile


def tiles(text: str) -> list[Tile]:
    """``"9-4 8-8"`` -> the tiles."""
    return [Tile.parse(word) for word in text.split()]


def build(
    hands: list[str],
    boneyard: str = "",
    layout: str = "",
    *,
    start: int = 9,
    to_move: int | None = None,
    drawn: str | None = None,
    **rules: Any,
) -> Round:
    """A round from notation: ``layout`` is the hub then ``TILE@TARGET`` words, in the order played."""
    entries: list[tuple[Tile, Tile | None]] = []
    for word in layout.split():
        move = Move.parse(word)
        assert move.tile is not None
        entries.append((move.tile, move.target))
    return Round(
        Rules(**rules),
        [tiles(hand) for hand in hands],
        tiles(boneyard),
        start_double=start,
        layout=entries,
        to_move=to_move,
        drawn=None if drawn is None else Tile.parse(drawn),
    )


def legal(round_: Round) -> list[str]:
    """The legal moves in notation, sorted (the engine's own order is not a rule)."""
    return sorted(str(m) for m in round_.legal_moves())


def play(round_: Round, *moves: str) -> Round:
    for text in moves:
        round_.push(Move.parse(text))
    return round_


CROSS = "9-9 9-1@9-9 9-2@9-9 9-3@9-9 9-4@9-9"
"""A finished Maltese cross on 9-9: open ends 1, 2, 3, 4."""

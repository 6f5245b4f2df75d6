"""Perft: count the move sequences of an exact length, the rules engine's oracle (docs/rules.md §9)."""

from __future__ import annotations

from chickenfoot.move import Move
from chickenfoot.round import Round


def perft(round_: Round, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves (a round that ends sooner adds nothing)."""
    if depth == 0:
        return 1
    codes = list(round_.legal_codes())
    if depth == 1:
        return len(codes)
    total = 0
    for code in codes:
        round_.push_code(code)
        total += perft(round_, depth - 1)
        round_.pop()
    return total


def divide(round_: Round, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move (``depth`` >= 1)."""
    result = []
    for code in list(round_.legal_codes()):
        round_.push_code(code)
        result.append((Move.from_code(code), perft(round_, depth - 1)))
        round_.pop()
    return result

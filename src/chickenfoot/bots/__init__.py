"""Bots: each is given one seat's view (never the round) and returns a legal move."""

from __future__ import annotations

from collections.abc import Callable

from chickenfoot.bots.base import Bot, Budget, RandomBot
from chickenfoot.bots.greedy import GreedyBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}
"""Bot constructors by name (each takes a seed)."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (a bot kind or a difficulty level)."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (choose from {', '.join(BOTS)})") from None


__all__ = ["BOTS", "Bot", "Budget", "GreedyBot", "RandomBot", "make_bot"]

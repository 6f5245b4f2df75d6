"""The ratings quick play pairs by, behind two small interfaces the ratings module will answer.

Until ratings exist, everyone has the same rating (:class:`EqualRatings`) and the bot levels are
spaced in the order :data:`chickenfoot.bots.LEVELS` lists them from weakest to strongest
(:class:`LevelOrder`); the server is handed real ones when ratings are computed.

>>> levels = LevelOrder(("easy", "medium", "hard"))
>>> levels.rating_of("easy"), levels.rating_of("hard"), levels.near(1490)
(1300.0, 1700.0, 'medium')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

EQUAL_RATING = 1500.0


class RatingLookup(Protocol):
    async def __call__(self, account_id: int, players: int) -> float:
        """The account's rating at tables of ``players`` (a new account's starting rating if it has none yet)."""


class BotRatings(Protocol):
    def near(self, rating: float) -> str:
        """The bot level whose rating is nearest ``rating``."""


class EqualRatings:
    """Everyone is rated alike: pairing then goes by time waited alone."""

    async def __call__(self, account_id: int, players: int) -> float:
        return EQUAL_RATING


class LevelOrder:
    """Bot levels rated by their order, weakest first, ``spacing`` apart around :data:`EQUAL_RATING`."""

    def __init__(self, levels: Sequence[str], spacing: float = 200.0) -> None:
        middle = (len(levels) - 1) / 2
        self.ratings = {level: EQUAL_RATING + spacing * (i - middle) for i, level in enumerate(levels)}

    def rating_of(self, level: str) -> float:
        return self.ratings[level]

    def near(self, rating: float) -> str:
        return min(self.ratings, key=lambda level: abs(self.ratings[level] - rating))

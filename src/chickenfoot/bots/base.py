"""The bot interface: a bot sees one seat's view, never the round."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from chickenfoot.move import Move
from chickenfoot.view import SeatView


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think: a time limit, an iteration limit, or both (whichever comes first)."""

    seconds: float | None = None
    """Wall-clock seconds a move may take (``None``: no time limit)."""
    iterations: int | None = None
    """Sampled deals a search may play out (``None``: no limit); with both ``None`` a search uses its default."""


class Bot(ABC):
    """A player that picks a legal move from what its seat may see."""

    name: str = "bot"
    """The kind or level it was made as (``make_bot`` sets it), shown in logs and results."""

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        """A bot whose random choices follow ``seed`` (``None``: unseeded), thinking within ``budget`` when
        :meth:`choose` is given none."""
        self.rng = random.Random(seed)
        """The bot's own random generator: the same seed and views give the same moves."""
        self.budget = budget or Budget()
        """The budget ``choose`` uses when it is given none."""

    @abstractmethod
    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        """A legal move for ``view.seat`` (``view.legal_moves`` is never empty when asked)."""


class RandomBot(Bot):
    """Uniformly random legal moves."""

    name = "random"

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        return self.rng.choice(view.legal_moves)

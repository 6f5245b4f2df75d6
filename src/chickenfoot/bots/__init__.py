"""Bots: each is given one seat's view (never the round) and returns a legal move.

``make_bot`` takes a bot kind (``random``, ``greedy``, ``heuristic``, ``ismcts``, ``ismcts-tree``) or a difficulty
level (``easy``, ``medium``, ``hard``, ``expert``); ``hint`` suggests a move to a person, with a reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chickenfoot.bots.base import Bot, Budget, RandomBot
from chickenfoot.bots.greedy import GreedyBot
from chickenfoot.bots.heuristic import HeuristicBot, assess, reason
from chickenfoot.bots.search import SearchBot, TreeSearchBot
from chickenfoot.errors import quoted
from chickenfoot.move import Move
from chickenfoot.view import SeatView

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": SearchBot,
    "ismcts-tree": TreeSearchBot,
}
"""Bot constructors by kind (each takes a seed). The arena's ``cheater`` is deliberately not here."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A level offered to people: which bot kind, thinking for how long."""

    kind: str
    budget: Budget
    description: str
    workers: int = 1
    """Processes a search spreads over (root parallelism)."""


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("greedy", Budget(), "plays its heaviest tile"),
    "medium": Difficulty("heuristic", Budget(), "plays like a careful person"),
    "hard": Difficulty("ismcts", Budget(seconds=0.8, iterations=600), "searches about a second per move"),
    "expert": Difficulty("ismcts", Budget(seconds=3.0, iterations=3000), "searches a few seconds per move", workers=2),
}
"""Difficulty levels by name, weakest first."""

LEVELS: tuple[str, ...] = tuple(DIFFICULTIES)
"""The levels every game offers people (the lobby, the terminal game), weakest first."""
DEFAULT_LEVEL = "medium"
"""The level a seat gets when nobody chose one."""


def check_bot(name: str) -> str:
    """``name`` if it names a bot (a difficulty level or a bot kind); else :class:`ValueError`, one line."""
    if name not in DIFFICULTIES and name not in BOTS:
        choices = ", ".join([*DIFFICULTIES, *BOTS])
        raise ValueError(f"unknown bot {quoted(name)} (choose from {choices})")
    return name


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (a bot kind or a difficulty level); an unknown name is refused by :func:`check_bot`."""
    level = DIFFICULTIES.get(check_bot(name))
    if level is not None:
        bot = BOTS[level.kind](seed)
        bot.budget = level.budget
        bot.name = name
        if isinstance(bot, SearchBot):
            bot.workers = level.workers
        return bot
    return BOTS[name](seed)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and a short reason a person can check against the table."""

    move: Move
    reason: str


def hint(view: SeatView, budget: Budget | None = None) -> Hint:
    """Suggest a move for ``view.seat``: the search's choice with ``budget``, else the rule of thumb.

    Raises :class:`ValueError` when it is not the seat's turn.
    """
    ranked = assess(view)
    chosen = ranked[0]
    if budget is not None and len(ranked) > 1:
        move = SearchBot(seed=0, budget=budget).choose(view)
        chosen = next(a for a in ranked if a.move == move)
    return Hint(chosen.move, reason(view, chosen))


__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "DIFFICULTIES",
    "LEVELS",
    "Bot",
    "Budget",
    "Difficulty",
    "GreedyBot",
    "HeuristicBot",
    "Hint",
    "RandomBot",
    "SearchBot",
    "TreeSearchBot",
    "check_bot",
    "hint",
    "make_bot",
]

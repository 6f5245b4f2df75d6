"""Bots: each is given one seat's view (never the round) and returns a legal move.

``make_bot`` takes a bot kind (``random``, ``greedy``, ``heuristic``, ``ismcts``, ``ismcts-tree``,
``ismcts-belief``, ``ismcts-blocking``, ``ismcts-learned``) or a difficulty level (``easy``, ``medium``,
``hard``, ``expert``);
``evaluate`` gives every legal move's expected final points from the seat's view; ``hint`` suggests the best
of them to a person, with the search's numbers as the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chickenfoot.bots.base import Bot, Budget, RandomBot
from chickenfoot.bots.evaluate import MoveValue, evaluate
from chickenfoot.bots.greedy import GreedyBot
from chickenfoot.bots.heuristic import HeuristicBot
from chickenfoot.bots.search import BeliefSearchBot, BlockingSearchBot, LearnedSearchBot, SearchBot, TreeSearchBot
from chickenfoot.errors import quoted
from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.view import SeatView

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": SearchBot,
    "ismcts-tree": TreeSearchBot,
    "ismcts-belief": BeliefSearchBot,
    "ismcts-blocking": BlockingSearchBot,
    "ismcts-learned": LearnedSearchBot,
}
"""Bot constructors by kind (each takes a seed). The arena's ``cheater`` is deliberately not here."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A level offered to people: which bot kind, thinking for how long."""

    kind: str
    """The bot kind that plays it (a key of :data:`BOTS`)."""
    budget: Budget
    """How long it thinks a move."""
    description: str
    """How it plays, in a few English words."""
    workers: int = 1
    """Processes a search spreads over (root parallelism)."""
    plays_match: bool = False
    """A search that plays for the match, not the round alone, when it knows the standings."""


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("greedy", Budget(), "plays its heaviest tile"),
    "medium": Difficulty("heuristic", Budget(), "plays like a careful person"),
    "hard": Difficulty("ismcts", Budget(seconds=0.8, iterations=600), "searches briefly each move"),
    "expert": Difficulty(
        "ismcts-blocking",
        Budget(seconds=2.0, iterations=20_000),
        "searches longer each move and plays for the match",
        workers=2,
        plays_match=True,
    ),
}
"""Difficulty levels by name, weakest first."""

LEVELS: tuple[str, ...] = tuple(DIFFICULTIES)
"""The levels every game offers people (the lobby, the terminal game), weakest first."""
DEFAULT_LEVEL = "medium"
"""The level a seat gets when nobody chose one."""


def check_bot(name: str) -> str:
    """``name`` if it names a bot (a difficulty level or a bot kind); else :class:`ValueError`, one line."""
    if name not in DIFFICULTIES and name not in BOTS:
        raise ValueError(english(unknown_bot(name)))
    return name


def unknown_bot(name: str) -> Said:
    """Why ``name`` names no bot, with the names that do (``error.unknown_bot``)."""
    return Said.of(Code.ERROR_UNKNOWN_BOT, bot=quoted(name), choices=", ".join([*DIFFICULTIES, *BOTS]))


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (a bot kind or a difficulty level); an unknown name is refused by :func:`check_bot`."""
    level = DIFFICULTIES.get(check_bot(name))
    if level is not None:
        bot = BOTS[level.kind](seed)
        bot.budget = level.budget
        bot.name = name
        if isinstance(bot, SearchBot):
            bot.workers = level.workers
            bot.plays_match = level.plays_match
        return bot
    return BOTS[name](seed)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and a short reason a person can check against the table."""

    move: Move
    """The move suggested."""
    why: Said
    """The reason as a message (``hint.*``), for the reader's language."""
    values: tuple[MoveValue, ...] = ()
    """The search's numbers for every legal move, best first (empty when there was no choice)."""

    @property
    def reason(self) -> str:
        """The reason in English."""
        return english(self.why)


HINT_BUDGET = Budget(seconds=1.0, iterations=600)
"""About a second, and at most this many sampled deals (so a fast machine gives reproducible hints)."""


def hint(view: SeatView, budget: Budget | None = None, seed: int = 0) -> Hint:
    """Suggest a move for ``view.seat``: the best by :func:`evaluate` within ``budget`` (default
    :data:`HINT_BUDGET`; its iterations are sampled deals), with the search's numbers as the reason.

    Raises :class:`ValueError` when it is not the seat's turn.
    """
    if view.seat is None or not view.legal_moves:
        raise ValueError("it is not this seat's turn")
    if len(view.legal_moves) == 1:
        return Hint(view.legal_moves[0], Said.of(Code.HINT_ONLY_MOVE))
    budget = budget or HINT_BUDGET
    values = evaluate(view, budget.iterations or HINT_BUDGET.iterations or 1, seed, budget.seconds)
    return Hint(values[0].move, hint_reason(values[0], values[1]), tuple(values))


def hint_reason(best: MoveValue, second: MoveValue) -> Said:
    """Why ``best`` beats ``second``, in the search's expected points at the round's end (``hint.search``)."""
    gap = second.margin - best.margin
    return Said.of(
        Code.HINT_SEARCH,
        own=round(best.own),
        theirs=round(best.own - best.margin),
        them=Said.of(Code.HINT_THEM_ONE if len(best.points) == 2 else Code.HINT_THEM_MANY),
        next=second.move.advice(),
        next_own=round(second.own),
        next_theirs=round(second.own - second.margin),
        closeness=Said.of(Code.HINT_ABOUT_AS_GOOD) if gap < 0.5 else Said.of(Code.HINT_WORSE, gap=round(gap, 1)),
    )


__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "DIFFICULTIES",
    "HINT_BUDGET",
    "LEVELS",
    "BeliefSearchBot",
    "Bot",
    "Budget",
    "Difficulty",
    "GreedyBot",
    "HeuristicBot",
    "Hint",
    "LearnedSearchBot",
    "MoveValue",
    "RandomBot",
    "SearchBot",
    "TreeSearchBot",
    "check_bot",
    "evaluate",
    "hint",
    "make_bot",
    "unknown_bot",
]

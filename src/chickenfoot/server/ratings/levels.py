"""The bot levels' ratings, held fixed: fitted by maximum likelihood on one arena run between the levels at
their own budgets (``benchmarks/ratings.py``, seed 3801: benchmarks/results/ratings/summary.json), with each
family's model, so people are rated on the bots' scale. ``medium``, the level a seat gets by default, is
where the scale starts: 1500, a new account's rating, so quick play seats a newcomer with ``medium`` bots.
A level's ``sigma`` is the standard error of its distance from ``medium``. A bot's rating never changes
after a match against a person."""

from __future__ import annotations

from chickenfoot.server.ratings.model import Family, Rating

LEVEL_RATINGS: dict[Family, dict[str, Rating]] = {
    # 648 heads-up matches: neighbouring levels on 24 to 150 deals, seats swapped, and easy against hard.
    Family.HEADS_UP: {
        "easy": Rating(22.94, 0.41),
        "medium": Rating(25.00, 0.00),
        "hard": Rating(36.38, 0.94),
        "expert": Rating(41.37, 1.52),
    },
    # 1452 matches at three and four: one level against three of another as quick play seats them, the
    # three weaker levels at three seats, and the four levels at one table, seats rotated.
    Family.TABLE_OF_MORE: {
        "easy": Rating(21.93, 0.35),
        "medium": Rating(25.00, 0.00),
        "hard": Rating(34.86, 0.61),
        "expert": Rating(41.97, 1.88),
    },
}

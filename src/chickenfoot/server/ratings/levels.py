"""The bot levels' ratings, held fixed: fitted on arena matches between the levels by
``benchmarks/ratings.py`` with each family's model (benchmarks/results/ratings/summary.json), so people
are rated on the bots' scale. A bot's rating never changes after a match against a person."""

from __future__ import annotations

from chickenfoot.server.ratings.model import Family, Rating

LEVEL_RATINGS: dict[Family, dict[str, Rating]] = {
    # 240 heads-up matches: every pair of levels on 20 deals, seats swapped.
    Family.HEADS_UP: {
        "easy": Rating(12.81, 2.12),
        "medium": Rating(13.57, 2.10),
        "hard": Rating(33.98, 2.30),
        "expert": Rating(38.20, 2.36),
    },
    # 80 matches of the four levels at one table on 20 deals, seats rotated. `medium` rates below
    # `easy` here, within their uncertainty: at a table with two searchers its care does not show
    # (docs/bots/ladder.md found the same).
    Family.TABLE_OF_MORE: {
        "easy": Rating(16.90, 3.44),
        "medium": Rating(14.04, 3.41),
        "hard": Rating(32.43, 3.37),
        "expert": Rating(36.58, 3.52),
    },
}

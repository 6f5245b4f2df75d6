"""The bot levels' ratings, held fixed: fitted on arena matches between the levels by
``benchmarks/ratings.py`` (benchmarks/results/ratings/summary.json), so people are rated on the bots' scale."""

from __future__ import annotations

from chickenfoot.server.ratings.model import Family, Rating

LEVEL_RATINGS: dict[Family, dict[str, Rating]] = {
    "2": {
        "easy": Rating(20.0, 1.0),
        "medium": Rating(23.0, 1.0),
        "hard": Rating(28.0, 1.0),
        "expert": Rating(30.0, 1.0),
    },
    "3-4": {
        "easy": Rating(20.0, 1.0),
        "medium": Rating(21.0, 1.0),
        "hard": Rating(28.0, 1.0),
        "expert": Rating(32.0, 1.0),
    },
}

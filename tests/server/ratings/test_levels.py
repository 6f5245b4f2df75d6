"""The bot levels' fixed ratings: in order, a new account rated as the default level, and the very ratings
the committed arena run fitted (benchmarks/results/ratings/summary.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.server.ratings.model import FAMILIES, Family, Rating
from chickenfoot.server.ratings.service import LevelRatings

SUMMARY = Path(__file__).resolve().parents[3] / "benchmarks" / "results" / "ratings" / "summary.json"


@pytest.mark.parametrize("family", FAMILIES)
def test_the_levels_are_rated_in_their_order(family: Family) -> None:
    ratings = LEVEL_RATINGS[family]
    assert list(ratings) == list(LEVELS)
    assert [r.mu for r in ratings.values()] == sorted(r.mu for r in ratings.values())


@pytest.mark.parametrize("family", FAMILIES)
def test_a_new_account_is_rated_as_the_default_level(family: Family) -> None:
    assert LEVEL_RATINGS[family][DEFAULT_LEVEL].shown == Rating().shown == 1500


def test_quick_play_gives_a_newcomer_bots_of_the_default_level() -> None:
    assert LevelRatings().near(Rating().shown) == DEFAULT_LEVEL


@pytest.mark.parametrize("family", FAMILIES)
def test_the_levels_are_the_fitted_ones(family: Family) -> None:
    fitted = json.loads(SUMMARY.read_text())[family]["levels"]
    assert {level: (r.mu, r.sigma) for level, r in LEVEL_RATINGS[family].items()} == {
        level: (row["mu"], row["sigma"]) for level, row in fitted.items()
    }

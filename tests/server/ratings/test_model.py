"""The rating update: a win never lowers a rating, ties, abandonment, the provisional bound."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.ratings.model import (
    BETA,
    FAMILIES,
    MOST_PER_MATCH,
    PROVISIONAL_SIGMA,
    Family,
    Rating,
    family_of,
    placing,
    update,
    win_chances,
)

ratings = st.builds(Rating, st.floats(0.0, 50.0), st.floats(0.5, 8.34), st.integers(0, 500))


@given(st.lists(ratings, min_size=2, max_size=4), st.data())
def test_a_sole_win_never_lowers_a_rating_and_a_sole_last_never_raises_one(
    players: list[Rating], data: st.DataObject
) -> None:
    ranks = data.draw(st.permutations(range(1, len(players) + 1)))
    family = family_of(len(players)) or "3-4"
    after = update(players, ranks, family)
    first, last = ranks.index(1), ranks.index(len(players))
    assert after[first].mu >= players[first].mu
    assert after[last].mu <= players[last].mu
    assert all(a.matches == p.matches + 1 for a, p in zip(after, players, strict=True))


@given(ratings, st.integers(2, 4))
def test_equal_players_who_tie_keep_their_rating(rating: Rating, players: int) -> None:
    after = update([rating] * players, [1] * players, family_of(players) or "3-4")
    assert all(a.mu == pytest.approx(rating.mu, abs=1e-9) for a in after)


@pytest.mark.parametrize("family", FAMILIES)
def test_a_tie_moves_the_weaker_player_up_and_the_stronger_down(family: Family) -> None:
    weak, strong = Rating(20.0, 3.0), Rating(30.0, 3.0)
    players = [weak, strong] if family == "2" else [weak, strong, Rating()]
    after = update(players, [1, 1, 3][: len(players)], family)
    assert after[0].mu - weak.mu > after[1].mu - strong.mu
    if family == "2":
        assert after[0].mu > weak.mu and after[1].mu < strong.mu


def test_abandoning_counts_as_last_below_everyone_who_stayed() -> None:
    # The leaver was winning on points: the rating counts them last, the others keep their order.
    assert placing([1, 2, 3, 4], [True, False, False, False]) == [4, 1, 2, 3]
    assert placing([2, 1, 1, 4], [False, False, False, True]) == [2, 1, 1, 3]
    assert placing([1, 2, 3], [True, False, True]) == [2, 1, 2]


def test_a_new_rating_is_provisional_until_sigma_falls_under_the_bound() -> None:
    assert Rating().provisional and Rating().text == "1500?"
    assert not Rating(25.0, PROVISIONAL_SIGMA).provisional
    assert Rating(26.0, 2.0).text == "1540"
    assert Rating(26.0, PROVISIONAL_SIGMA + 0.01).text == "1540?"


def test_families_split_heads_up_from_tables_of_three_or_four() -> None:
    assert [family_of(n) for n in range(1, 9)] == [None, "2", "3-4", "3-4", None, None, None, None]


@pytest.mark.parametrize("family", FAMILIES)
def test_a_rating_settles_within_a_dozen_heads_up_matches_or_forty_at_four(family: Family) -> None:
    # Winning half the matches against opponents of equal, well-known ratings: the count the docs quote.
    players = 2 if family == "2" else 4
    player, opponent = Rating(), Rating(25.0, 1.0)
    matches = 0
    while player.provisional:
        ranks = [1 + matches % players] + [r for r in range(1, players + 1) if r != 1 + matches % players]
        player = update([player] + [opponent] * (players - 1), ranks, family)[0]
        matches += 1
    assert matches in (range(9, 16) if family == "2" else range(32, 48)), matches


@given(st.lists(ratings, min_size=2, max_size=4), st.data())
def test_no_match_moves_a_rating_more_than_two_hundred_points(players: list[Rating], data: st.DataObject) -> None:
    ranks = data.draw(st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players)))
    family = family_of(len(players)) or "3-4"
    for before, after in zip(players, update(players, ranks, family), strict=True):
        assert abs(after.mu - before.mu) <= MOST_PER_MATCH + 1e-9 and MOST_PER_MATCH == 5.0  # 200 shown points


@pytest.mark.parametrize("players", [3, 4])
def test_the_chance_of_finishing_first_is_plackett_luces_own(players: int) -> None:
    """The probability the update is built on: a clear favourite of four is given more than half (OpenSkill's
    ``predict_win`` averages pairs, which never gives one of four more than half)."""
    even = win_chances([Rating(25.0, 1.0)] * players, "3-4")
    assert even == pytest.approx([1 / players] * players)
    favourite = win_chances([Rating(45.0, 1.0)] + [Rating(25.0, 1.0)] * (players - 1), "3-4")
    assert sum(favourite) == pytest.approx(1.0) and favourite[0] > 0.5
    c = math.sqrt(players * (1.0 + BETA**2))
    assert favourite[0] / favourite[1] == pytest.approx(math.exp(20.0 / c))

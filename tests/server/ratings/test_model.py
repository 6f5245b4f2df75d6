"""The rating update: a win never lowers a rating, ties, abandonment, the provisional bound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot.server.ratings.model import FAMILIES, PROVISIONAL_SIGMA, Family, Rating, family_of, placing, update

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
def test_a_rating_settles_within_about_twenty_matches(family: Family) -> None:
    # Winning half the matches against opponents of equal, well-known ratings: the count the docs quote.
    players = 2 if family == "2" else 4
    player, opponent = Rating(), Rating(25.0, 1.0)
    matches = 0
    while player.provisional:
        ranks = [1 + matches % players] + [r for r in range(1, players + 1) if r != 1 + matches % players]
        player = update([player] + [opponent] * (players - 1), ranks, family)[0]
        matches += 1
    assert matches in (range(4, 11) if family == "2" else range(12, 26)), matches

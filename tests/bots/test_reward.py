"""The search's reward: the round's margin, and a match win's chance from the standings a seat can see."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Rules
from chickenfoot.bots import make_bot
from chickenfoot.bots.reward import MATCH_WIN, REWARD_SCALE, Reward, reward_for, view_reward
from chickenfoot.match import standings
from chickenfoot.view import MatchStanding

round_points = st.lists(st.integers(0, 60), min_size=2, max_size=4)


def standing_of(earlier: list[list[int]], players: int, rounds: int) -> MatchStanding:
    table = sorted(standings(earlier, players), key=lambda s: s.seat)
    return MatchStanding(
        round_number=len(earlier) + 1,
        rounds=rounds,
        totals=tuple(s.total for s in table),
        zero_rounds=tuple(s.zero_rounds for s in table),
        lowest_nonzero=tuple(s.lowest_nonzero for s in table),
    )


def test_the_round_alone_is_the_margin() -> None:
    assert Reward(1)([10, 40, 25]) == pytest.approx(((10 + 25) / 2 - 40) / REWARD_SCALE)
    assert reward_for(0, 2, None, plays_match=True) == Reward(0)
    standing = standing_of([[10, 20]], 2, 3)
    assert reward_for(0, 2, standing, plays_match=False) == Reward(0)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_after_the_last_round_the_chance_is_the_match_result(data: st.DataObject) -> None:
    """With no round left the win chance is 1/k for a win shared by k seats, else 0: the standings of
    docs/rules.md §6, tie-breaks included, as ``match.standings`` ranks them."""
    players = data.draw(st.integers(2, 4))
    points = st.lists(st.sampled_from([0, 0, 3, 5, 8, 50]), min_size=players, max_size=players)
    earlier = data.draw(st.lists(points, min_size=0, max_size=3))
    last = data.draw(points)
    standing = standing_of(earlier, players, len(earlier) + 1)
    ranked = standings([*earlier, last], players)
    winners = [s.seat for s in ranked if s.rank == 1]
    for seat in range(players):
        reward = reward_for(seat, players, standing, plays_match=True)
        assert reward.spread == 0
        assert reward.win_chance(last) == (1 / len(winners) if seat in winners else 0.0)
        assert reward(last) == pytest.approx(Reward(seat)(last) + MATCH_WIN * reward.win_chance(last))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 200), min_size=2, max_size=4), st.integers(1, 9), st.data())
def test_with_rounds_left_the_chances_are_a_distribution(totals: list[int], left: int, data: st.DataObject) -> None:
    players = len(totals)
    standing = MatchStanding(10 - left, 10, tuple(totals), (0,) * players, (None,) * players)
    points = data.draw(st.lists(st.integers(0, 80), min_size=players, max_size=players))
    chances = [reward_for(s, players, standing, True).win_chance(points) for s in range(players)]
    assert sum(chances) == pytest.approx(1.0, abs=2e-3)
    assert all(0 <= c <= 1 for c in chances)
    # Fewer points this round: a better chance for the seat.
    lower = [max(0, points[0] - 10), *points[1:]]
    assert reward_for(0, players, standing, True).win_chance(lower) >= chances[0]


def test_two_players_chance_is_the_normal_law_of_the_difference() -> None:
    standing = MatchStanding(8, 10, (100, 120), (0, 0), (None, None))
    reward = reward_for(0, 2, standing, True)
    lead = 120 + 30 - (100 + 40)
    expected = 0.5 * math.erfc(-lead / (reward.spread * math.sqrt(2)) / math.sqrt(2))
    assert reward.win_chance([40, 30]) == pytest.approx(expected, abs=1e-3)


def test_late_in_a_match_the_standings_outweigh_points() -> None:
    """Two rounds that cost the same margin are worth very differently when one of them loses the match."""
    standing = MatchStanding(10, 10, (100, 95), (0, 0), (None, None))
    reward = reward_for(0, 2, standing, True)
    # Seat 0 wins the match by 1 point, or loses it by 1: 2 points of margin apart, a whole match apart.
    assert reward([10, 16]) - reward([12, 16]) > 0.9 * MATCH_WIN
    early = reward_for(0, 2, MatchStanding(1, 10, (0, 0), (0, 0), (None, None)), True)
    assert early([10, 16]) - early([12, 16]) < 0.1


def test_match_views_carry_the_standings_before_the_round() -> None:
    match = Match(Rules(rounds=3), players=3, seed=4)
    bot = make_bot("greedy", 1)
    rng = random.Random(2)
    while not match.is_over():
        if match.round.is_over():
            match.next_round()
        view = match.view(match.to_move)
        assert view.match == standing_of(match.round_points[: match.round_number - 1], 3, 3)
        assert view.match.rounds_left == 3 - match.round_number
        assert dataclasses_equal_but_match(view, match.round.view(match.to_move))
        assert view_reward(view, plays_match=True).totals == view.match.totals
        match.push(bot.choose(view) if rng.random() < 0.9 else view.legal_moves[0])


def dataclasses_equal_but_match(with_match: object, without: object) -> bool:
    import dataclasses

    return dataclasses.replace(with_match, match=None) == without  # type: ignore[type-var]

"""The round-robin: Berger's tables for two, a searched schedule for three and four, seats and bots even."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.errors import TournamentError
from chickenfoot.tournament import Seating, round_robin
from chickenfoot.tournament._history import History, pair
from chickenfoot.tournament.round_robin import _Tables
from tournament.strategies import NAMES, relabelled

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)


def meetings(schedule: list[list[Seating]], players: list[str]) -> list[int]:
    history = History(seating for tables in schedule for seating in tables)
    return [history.met[pair(a, b)] for a, b in itertools.combinations(players, 2)]


def seat_spread(schedule: list[list[Seating]], players: list[str], size: int) -> int:
    history = History(seating for tables in schedule for seating in tables)
    return max(max(history.seats[p][:size]) - min(history.seats[p][:size]) for p in players)


@SETTINGS
@given(st.integers(2, 20), st.data())
def test_tables_of_two_follow_berger_every_pair_once_a_cycle_seats_alternating(count: int, data: st.DataObject) -> None:
    """Within a cycle, after every round, no pair has met twice and nobody has sat one seat two times
    more than the other; over a whole cycle everyone meets everyone exactly once."""
    players = NAMES[:count]
    cycle = count - 1 + count % 2
    rounds = data.draw(st.integers(1, cycle))
    schedule = round_robin(players, 2, rounds)
    for played in range(1, rounds + 1):
        assert max(meetings(schedule[:played], players)) <= 1
        assert seat_spread(schedule[:played], players, 2) <= 1
    if rounds == cycle:
        assert set(meetings(schedule, players)) == {1}


def test_a_second_cycle_swaps_the_seats() -> None:
    players = NAMES[:6]
    schedule = round_robin(players, 2, 10)
    assert schedule[5:] == [[seating[::-1] for seating in tables] for tables in schedule[:5]]
    assert set(meetings(schedule, players)) == {2}


def test_an_odd_count_faces_a_bot_once_a_cycle() -> None:
    players = NAMES[:7]
    schedule = round_robin(players, 2, 7)
    with_bot = [
        next(p for seating in tables if None in seating for p in seating if p is not None) for tables in schedule
    ]
    assert sorted(with_bot) == players


@pytest.mark.parametrize(
    ("count", "size", "rounds", "each_pair"),
    [
        (9, 3, 4, 1),  # the affine plane of order 3
        (15, 3, 7, 1),  # Kirkman's fifteen schoolgirls
        (16, 4, 5, 1),  # the affine plane of order 4
        (8, 4, 7, 3),  # the planes of the affine space of order 2
    ],
)
def test_the_search_finds_the_perfect_schedules_that_exist(count: int, size: int, rounds: int, each_pair: int) -> None:
    players = NAMES[:count]
    schedule = round_robin(players, size, rounds)
    assert set(meetings(schedule, players)) == {each_pair}
    assert seat_spread(schedule, players, size) <= 1


@SETTINGS
@given(st.integers(3, 13), st.integers(3, 4), st.integers(1, 6), st.integers(0, 3))
def test_every_round_seats_everyone_once_with_bots_spread_and_no_swap_evens_it_further(
    count: int, size: int, rounds: int, seed: int
) -> None:
    players = NAMES[:count]
    schedule = round_robin(players, size, rounds, seed)
    assert len(schedule) == rounds
    tables = -(-count // size)
    for round_ in schedule:
        assert sorted(p for seating in round_ for p in seating if p is not None) == players
        bots = [seating.count(None) for seating in round_]
        assert len(round_) == tables and sum(bots) == tables * size - count and max(bots) - min(bots) <= 1
    # The schedule is a local optimum of its stated measure: no swap of two players of one round helps.
    index = {p: i for i, p in enumerate(players)}
    grouped = [
        sorted(([index[p] for p in seating if p is not None] for seating in round_), key=lambda t: -len(t))
        for round_ in schedule
    ]
    found = _Tables(grouped, count, size)
    assert all(found.delta(*move) >= 0 for move in found.swaps())
    assert seat_spread(schedule, players, size) <= 2


def test_a_club_night_of_ten_at_tables_of_four() -> None:
    """10 players, 5 rounds at tables of 4 (4, 3 and 3 people, two bots a round): every player sits beside
    bots exactly 3 times (6 people sit beside a bot each round: 30 over 5 rounds, shared by 10), and every
    pair meets 0 to 2 times (45 pairs share 5 × 12 = 60 meetings)."""
    players = NAMES[:10]
    schedule = round_robin(players, 4, 5)
    assert set(meetings(schedule, players)) <= {0, 1, 2}
    history = History(seating for tables in schedule for seating in tables)
    assert {history.with_bots[p] for p in players} == {3}


@SETTINGS
@given(st.integers(2, 10), st.integers(2, 4), st.integers(1, 5), st.randoms(use_true_random=False))
def test_the_schedule_does_not_depend_on_names(count: int, size: int, rounds: int, rng: random.Random) -> None:
    players = NAMES[:count]
    names, _ = relabelled(players, rng)
    before = round_robin(players, size, rounds, seed=1)
    after = round_robin([names[p] for p in players], size, rounds, seed=1)
    assert after == [[tuple(None if p is None else names[p] for p in s) for s in tables] for tables in before]


@pytest.mark.parametrize(
    ("players", "size", "rounds", "error"),
    [
        (["a"], 3, 2, "a round-robin needs at least 2 players"),
        (["a", "a"], 2, 2, "a player is listed twice"),
        (["a", "b"], 2, 0, "a round-robin plays 1 to 64 rounds, not 0"),
        (["a", "b"], 1, 2, "a table seats 2 to 4, not 1"),
    ],
)
def test_a_schedule_that_cannot_be_made_is_refused_in_one_line(
    players: list[str], size: int, rounds: int, error: str
) -> None:
    with pytest.raises(TournamentError) as caught:
        round_robin(players, size, rounds)
    assert str(caught.value) == error

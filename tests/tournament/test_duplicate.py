"""Duplicate scoring: an event of eight scored by hand, real matches checked against an independent scorer
reading their records, and the sums that must hold."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Rules
from chickenfoot.bots import make_bot
from chickenfoot.errors import TournamentError
from chickenfoot.tournament import Result, Scoring, compare, deal_seed, duplicate_standings
from tournament.strategies import NAMES, relabelled
from tournament.verifier import deal_of, verify

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)

# Eight players at two tables, two deals; for the second deal they move so that nobody meets a deal twice.
EVENT = [
    Result.from_points("T1", ("p1", "p2", "p3", "p4"), (10, 25, 0, 40), deal=1),
    Result.from_points("T2", ("p5", "p6", "p7", "p8"), (15, 25, 5, 30), deal=1),
    Result.from_points("T3", ("p2", "p5", "p4", "p7"), (20, 8, 12, 50), deal=2),
    Result.from_points("T4", ("p6", "p1", "p8", "p3"), (20, 30, 12, 6), deal=2),
]


def test_an_event_of_eight_on_two_tables_and_two_deals_scored_by_hand() -> None:
    """Each seat of each deal has two results: the better takes 2 match points of 2, a tie 1 each, and the
    difference is the other's points minus one's own.

    | player | deal 1 (seat, points, mp, diff) | deal 2 | mp % | difference |
    | p1 | 0, 10 vs 15: 2, +5 | 1, 30 vs 8: 0, −22 | 2/4 = 50 | −17 |
    | p2 | 1, 25 vs 25: 1, 0 | 0, 20 vs 20: 1, 0 | 50 | 0 |
    | p3 | 2, 0 vs 5: 2, +5 | 3, 6 vs 50: 2, +44 | 100 | +49 |
    | p4 | 3, 40 vs 30: 0, −10 | 2, 12 vs 12: 1, 0 | 25 | −10 |
    | p5 | 0, 15: 0, −5 | 1, 8: 2, +22 | 50 | +17 |
    | p6 | 1, 25: 1, 0 | 0, 20: 1, 0 | 50 | 0 |
    | p7 | 2, 5: 0, −5 | 3, 50: 0, −44 | 0 | −49 |
    | p8 | 3, 30: 2, +10 | 2, 12: 1, 0 | 75 | +10 |
    """
    deals = compare(EVENT)
    assert [d.deal for d in deals] == [1, 2]
    assert [(r.player, r.points, r.matchpoints, r.top, r.difference) for r in deals[0].seats[3].rows] == [
        ("p8", 30, 2, 2, 10.0),
        ("p4", 40, 0, 2, -10.0),
    ]
    assert deals[1].row("T4", 1).matchpoints == 0 and deals[1].row("T4", 1).difference == -22
    assert deals[1].seats[0].average == 20
    assert [t.table for t in deals[1].tables] == ["T3", "T4"]
    by_matchpoints = duplicate_standings(EVENT, players=[f"p{i}" for i in range(1, 9)])
    assert [(r.rank, r.player, r.score, r.tiebreaks) for r in by_matchpoints] == [
        (1, "p3", 100.0, (49.0,)),
        (2, "p8", 75.0, (10.0,)),
        (3, "p5", 50.0, (17.0,)),
        (4, "p2", 50.0, (0.0,)),
        (4, "p6", 50.0, (0.0,)),
        (6, "p1", 50.0, (-17.0,)),
        (7, "p4", 25.0, (-10.0,)),
        (8, "p7", 0.0, (-49.0,)),
    ]
    by_difference = duplicate_standings(EVENT, Scoring.DIFFERENCE)
    assert [(r.rank, r.player, r.score) for r in by_difference] == [
        (1, "p3", 49.0),
        (2, "p5", 17.0),
        (3, "p8", 10.0),
        (4, "p2", 0.0),
        (4, "p6", 0.0),
        (6, "p4", -10.0),
        (7, "p1", -17.0),
        (8, "p7", -49.0),
    ]
    assert all(r.matches == 2 for r in by_difference)


def test_a_par_table_of_bots_is_compared_against_and_never_ranked() -> None:
    par = Result.from_points("par", (None, None, None, None), (12, 20, 3, 35), deal=1)
    deals = compare([*EVENT, par])
    seat0 = deals[0].seats[0]
    assert [(r.player, r.points, r.matchpoints, r.top) for r in seat0.rows] == [
        ("p1", 10, 4, 4),
        (None, 12, 2, 4),
        ("p5", 15, 0, 4),
    ]
    ranked = {r.player for r in duplicate_standings([*EVENT, par])}
    assert None not in ranked and len(ranked) == 8


def test_a_deal_played_twice_by_one_player_or_at_two_sizes_is_refused() -> None:
    again = Result.from_points("T5", ("p9", "p1", "p10", "p11"), (1, 2, 3, 4), deal=1)
    with pytest.raises(TournamentError, match="a player played deal 1 twice"):
        compare([*EVENT, again])
    smaller = Result.from_points("T5", ("p9", "p10", "p11"), (1, 2, 3), deal=1)
    with pytest.raises(TournamentError, match="deal 1 was played at tables of 3 and 4 seats"):
        compare([*EVENT, smaller])
    twice = Result.from_points("T1", ("p9", "p10", "p11", "p12"), (1, 2, 3, 4), deal=1)
    with pytest.raises(TournamentError, match="deal 1 lists a table twice"):
        compare([*EVENT, twice])


def test_results_without_a_deal_are_left_out() -> None:
    assert compare([Result.from_points("x", ("a", "b"), (1, 2))]) == []


def play(seed: int, players: int, rules: Rules, bot_seed: int) -> Match:
    match = Match(rules, players, seed)
    bots = [make_bot("greedy", bot_seed * 10 + seat) for seat in range(players)]
    while not match.is_over():
        if match.round.is_over():
            match.next_round()
        match.push(bots[match.to_move].choose(match.view(match.to_move)))
    return match


def test_real_matches_scored_by_the_package_agree_with_an_independent_reading_of_their_records() -> None:
    """Eight players at two tables of four over two deals of two rounds each, played by bots that play
    differently at each table: the package's comparison, from the results, equals the plain scorer's,
    from the match records alone (which also finds that each deal was dealt alike at both tables)."""
    rules = Rules(rounds=2)
    seatings = {
        ("T1", 1): ("p1", "p2", "p3", "p4"),
        ("T2", 1): ("p5", "p6", "p7", "p8"),
        ("T3", 2): ("p2", "p5", "p4", "p7"),
        ("T4", 2): ("p6", "p1", "p8", "p3"),
    }
    results, records = [], []
    for bot_seed, ((table, deal), players) in enumerate(seatings.items()):
        match = play(deal_seed(2024, deal), 4, rules, bot_seed)
        results.append(Result.from_match(table, players, match, deal=deal))
        records.append((table, players, match.record()))
    independent = verify(records)
    assert len({deal_of(record) for _, _, record in records}) == 2
    deal_text = {table: deal_of(record) for table, _, record in records}
    checked = 0
    for comparison in compare(results):
        for seat in comparison.seats:
            for row in seat.rows:
                points, matchpoints, top, difference = independent[(deal_text[row.table], row.table, seat.seat)]
                assert (row.points, row.matchpoints, row.top) == (points, matchpoints, top)
                assert row.difference == pytest.approx(difference)
                checked += 1
    assert checked == 16
    # The tables of one deal really played differently: the comparison has something to compare.
    assert any(len({r.points for r in seat.rows}) > 1 for c in compare(results) for seat in c.seats)


def test_the_arenas_bots_and_the_events_deal_their_duplicates_alike() -> None:
    """The arena's deal ``d`` of seed ``s`` and an event's deal ``d`` of seed ``s`` are the same match seed."""
    assert [deal_seed(5, d) for d in range(3)] == [random.Random(f"5:{d}").getrandbits(64) for d in range(3)]


@st.composite
def duplicate_events(draw: st.DrawFn) -> list[Result]:
    """Deals played at 1 to 5 tables each, nobody playing a deal twice, some seats bots."""
    results = []
    for deal in range(1, draw(st.integers(1, 4)) + 1):
        size = draw(st.integers(2, 4))
        tables = draw(st.integers(1, 5))
        people = draw(st.permutations(NAMES[:24]))[: size * tables]
        for t in range(tables):
            seats = [None if draw(st.integers(0, 5)) == 0 else p for p in people[t * size : (t + 1) * size]]
            points = draw(st.lists(st.integers(0, 80), min_size=size, max_size=size))
            results.append(Result.from_points(f"d{deal}t{t}", tuple(seats), points, deal=deal))
    return results


@SETTINGS
@given(duplicate_events())
def test_a_seats_match_points_sum_to_a_constant_and_its_differences_to_zero(results: list[Result]) -> None:
    for comparison in compare(results):
        for seat in comparison.seats:
            m = len(seat.rows)
            assert sum(r.matchpoints for r in seat.rows) == m * (m - 1)
            assert sum(r.difference for r in seat.rows) == pytest.approx(0, abs=1e-9)
            assert all(r.top == 2 * (m - 1) for r in seat.rows)
            assert all(a.points <= b.points for a, b in pairwise(seat.rows))
            assert all((r.percent is None) == (m == 1) for r in seat.rows)


@SETTINGS
@given(duplicate_events(), st.randoms(use_true_random=False))
def test_duplicate_scores_do_not_depend_on_names(results: list[Result], rng: random.Random) -> None:
    players = sorted({p for r in results for p in r.players if p is not None})
    names, renamed = relabelled(players, rng)
    for scoring in Scoring:
        before = {r.player: (r.rank, r.score, r.tiebreaks) for r in duplicate_standings(results, scoring, players)}
        after = duplicate_standings(renamed(results), scoring, [names[p] for p in players])
        assert {r.player: (r.rank, r.score, r.tiebreaks) for r in after} == {names[p]: v for p, v in before.items()}

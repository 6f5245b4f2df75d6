"""The Swiss: a golden event of six over three rounds worked by hand, and its properties."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.errors import TournamentError
from chickenfoot.tournament import SWISS_TIEBREAKS, Result, Seating, standings, swiss_round
from chickenfoot.tournament._grouping import EXACT_LIMIT, _ways, table_sizes
from chickenfoot.tournament._history import History, pair
from tournament.strategies import NAMES, relabelled

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
PLAYERS = ["p1", "p2", "p3", "p4", "p5", "p6"]


def played(round_: list[Seating], points: list[tuple[int, ...]], number: int) -> list[Result]:
    return [Result.from_points(f"r{number}t{i}", s, p) for i, (s, p) in enumerate(zip(round_, points, strict=True))]


def test_a_swiss_of_six_at_tables_of_three_over_three_rounds() -> None:
    """Every pairing and tie-break below was worked out by hand from the rules in the Swiss module.

    Round 1 snakes the seeding over the two tables: table 1 gets seeds 1, 4, 5; table 2 seeds 2, 3, 6.
    """
    results: list[Result] = []
    first = swiss_round(standings(results, SWISS_TIEBREAKS, PLAYERS), results, 3)
    assert first == [("p1", "p4", "p5"), ("p2", "p3", "p6")]
    results += played(first, [(10, 25, 40), (30, 5, 30)], 1)
    # Place points: p1 4, p4 2, p5 0; p3 4, p2 and p6 share second: 1 each.
    # p1 and p3 tie on 4: opponents' average 1.0 each ((2 + 0) / 2, (1 + 1) / 2), never met, so game
    # points decide: p3 5 against p1 10. p2 and p6 tie on everything (average 2.5, they shared a place
    # with each other, 30 game points each) and share 4th, in seeding order.
    table = standings(results, SWISS_TIEBREAKS, PLAYERS)
    assert [(row.rank, row.player, row.score) for row in table] == [
        (1, "p3", 4),
        (2, "p1", 4),
        (3, "p4", 2),
        (4, "p2", 1),
        (4, "p6", 1),
        (6, "p5", 0),
    ]
    assert table[0].tiebreaks == (1.0, None, 5) and table[1].tiebreaks == (1.0, None, 10)
    assert table[3].tiebreaks == table[4].tiebreaks == (2.5, 1, 30)
    # Round 2: any table of three holds two players of one first-round table, so the fewest repeats are
    # 2 (two from one table and one from the other at each). Of the nine such splits the least score
    # spread is {p3 4, p1 4, p4 2} (0 + 4 + 4 = 8) with {p2 1, p6 1, p5 0} (0 + 1 + 1 = 2): 10; the next
    # best is 24. Seats: p3, p1, p4 all fit seats 0, 1, 2 unused; p2 has sat in seat 0, p6 and p5 in seat
    # 2, so p6 0, p5 1, p2 2.
    second = swiss_round(table, results, 3)
    assert second == [("p3", "p1", "p4"), ("p6", "p5", "p2")]
    results += played(second, [(20, 20, 8), (0, 15, 15)], 2)
    # Scores: p4 6; p1, p3 and p6 5; p2 2; p5 1. Opponents' average: p1 (6 + 1 + 5 + 6) / 4 = 4.5,
    # p3 (2 + 5 + 5 + 6) / 4 = 4.5, p6 (2 + 5 + 1 + 2) / 4 = 2.5; p1 and p3 met and shared a place, so
    # head to head is 1 each; game points 30 and 25 put p3 first.
    table = standings(results, SWISS_TIEBREAKS, PLAYERS)
    assert [(row.rank, row.player, row.score) for row in table] == [
        (1, "p4", 6),
        (2, "p3", 5),
        (3, "p1", 5),
        (4, "p6", 5),
        (5, "p2", 2),
        (6, "p5", 1),
    ]
    assert [row.tiebreaks for row in table[1:4]] == [(4.5, 1, 25), (4.5, 1, 30), (2.5, None, 30)]
    # Round 3: the pairs that never met (p1-p2, p1-p6, p2-p4, p3-p5, p4-p6) hold no three players, so
    # every table repeats; the fewest repeats are 4 (eight splits). Of those, {p4 6, p3 5, p6 5} with
    # {p1 5, p2 2, p5 1} and {p4, p1, p6} with {p3, p2, p5} both spread 28; by places (p4 0, p3 1, p1 2,
    # p6 3, p2 4, p5 5) the first spreads 14 + 14, the second 14 + 26. p1, level with p3 and p6, leaves
    # the top table: p1 has met p4 twice already.
    third = swiss_round(table, results, 3)
    assert third == [("p4", "p6", "p3"), ("p5", "p2", "p1")]
    results += played(third, [(12, 12, 30), (5, 18, 9)], 3)
    # Final: p4 9, p6 8, p1 7, p3 and p5 5, p2 2. p3's opponents average (2 + 8 + 7 + 9 + 9 + 8) / 6,
    # p5's (7 + 9 + 8 + 2 + 2 + 7) / 6: p3 is 4th.
    table = standings(results, SWISS_TIEBREAKS, PLAYERS)
    assert [(row.rank, row.player, row.score) for row in table] == [
        (1, "p4", 9),
        (2, "p6", 8),
        (3, "p1", 7),
        (4, "p3", 5),
        (5, "p5", 5),
        (6, "p2", 2),
    ]
    assert table[3].tiebreaks == pytest.approx((43 / 6, None, 55))
    assert table[4].tiebreaks == pytest.approx((35 / 6, None, 60))


def test_bots_fill_the_lowest_table_and_move_on_to_someone_else() -> None:
    """15 at tables of 4: one bot, at the bottom table; next round it sits with three others, since
    sitting beside a bot again counts as a repeat and three players who have not can be found."""
    entrants = NAMES[:15]
    first = swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], 4)
    assert [seating.count(None) for seating in first] == [0, 0, 0, 1]
    results = played(first, [(0, 10, 20, 30)] * 4, 1)
    table = standings(results, SWISS_TIEBREAKS, entrants)
    second = swiss_round(table, results, 4)
    assert [seating.count(None) for seating in second] == [0, 0, 0, 1]
    had_bot = {p for p in first[-1] if p is not None}
    assert not had_bot & set(second[-1])
    assert History.of(results).meetings([p for p in second[-1] if p is not None]) == 0


def test_a_swiss_needs_two_players_listed_once() -> None:
    with pytest.raises(TournamentError, match="a round needs at least 2 players"):
        swiss_round(standings([], (), ["a"]), [], 3)
    with pytest.raises(TournamentError, match="a table seats 2 to 4, not 5"):
        swiss_round(standings([], (), ["a", "b"]), [], 5)


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], int, list[Result]]:
    """A field, a table size and some rounds already played by the Swiss itself, with random points."""
    count = draw(st.integers(2, 15))
    players = NAMES[:count]
    size = draw(st.integers(2, 4))
    results: list[Result] = []
    for number in range(draw(st.integers(0, 3))):
        tables = swiss_round(standings(results, SWISS_TIEBREAKS, players), results, size)
        points = [tuple(draw(st.integers(0, 50)) for _ in seating) for seating in tables]
        results += played(tables, points, number)
    return players, size, results


@SETTINGS
@given(events())
def test_every_player_sits_once_a_round_with_bots_only_where_the_count_demands(
    event: tuple[list[str], int, list[Result]],
) -> None:
    players, size, results = event
    tables = swiss_round(standings(results, SWISS_TIEBREAKS, players), results, size)
    seated = [p for seating in tables for p in seating if p is not None]
    assert sorted(seated) == sorted(players)
    assert all(len(seating) == size for seating in tables)
    assert len(tables) == -(-len(players) // size)
    bots = [seating.count(None) for seating in tables]
    assert sum(bots) == len(tables) * size - len(players)
    assert max(bots) - min(bots) <= 1


@SETTINGS
@given(events())
def test_the_swiss_pairs_by_score_and_repeats_no_more_than_the_standings_order_would(
    event: tuple[list[str], int, list[Result]],
) -> None:
    """The chosen tables repeat no more meetings than cutting the standings into consecutive tables; and
    when that cut repeats nothing, every table holds players of neighbouring scores: the scores of each
    table are a run of the field's scores in order."""
    players, size, results = event
    table = standings(results, SWISS_TIEBREAKS, players)
    if not results:
        return
    tables = swiss_round(table, results, size)
    history = History.of(results)
    order = [row.player for row in table]
    cut, start = [], 0
    for count in table_sizes(len(order), size):
        cut.append(order[start : start + count])
        start += count
    chosen = [[p for p in seating if p is not None] for seating in tables]
    assert sum(map(history.meetings, chosen)) <= sum(map(history.meetings, cut))
    if sum(map(history.meetings, cut)) == 0 and sum(len(t) for t in cut) == len(order):
        score = {row.player: row.score for row in table}
        runs = sorted(sorted(score[p] for p in members) for members in chosen)
        expected = sorted(sorted(score[p] for p in members) for members in cut)
        assert runs == expected


@SETTINGS
@given(events(), st.randoms(use_true_random=False))
def test_the_pairings_do_not_depend_on_names(event: tuple[list[str], int, list[Result]], rng: random.Random) -> None:
    players, size, results = event
    names, renamed = relabelled(players, rng)
    before = swiss_round(standings(results, SWISS_TIEBREAKS, players), results, size)
    after = swiss_round(
        standings(renamed(results), SWISS_TIEBREAKS, [names[p] for p in players]), renamed(results), size
    )
    assert after == [tuple(None if p is None else names[p] for p in seating) for seating in before]


def test_a_large_field_is_improved_by_swaps_without_repeating_anyone() -> None:
    """Above the exhaustive search's limit (40 players at tables of 4), two rounds in, nobody repeats."""
    players = NAMES[:40]
    assert _ways(table_sizes(40, 4)) > EXACT_LIMIT
    results: list[Result] = []
    rng = random.Random(3)
    for number in range(2):
        tables = swiss_round(standings(results, SWISS_TIEBREAKS, players), results, 4)
        results += played(tables, [tuple(rng.randrange(40) for _ in range(4)) for _ in tables], number)
    history = History.of(results)
    assert max(history.met[pair(a, b)] for a, b in itertools.combinations(players, 2)) == 1


def together(tables: list[Seating], a: str, b: str) -> bool:
    return any(a in seating and b in seating for seating in tables)


def test_players_kept_apart_never_share_a_table_while_another_seating_exists() -> None:
    """Round 1's snake and a later round's best seating both put a pair together; kept apart, they are
    split, and everyone is still seated once."""
    entrants = NAMES[:6]
    first = swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], 3)
    assert together(first, entrants[0], entrants[3])  # the snake: p00, p03, p04 | p01, p02, p05
    kept = swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], 3, apart=[(entrants[3], entrants[0])])
    assert not together(kept, entrants[0], entrants[3])
    assert sorted(p for seating in kept for p in seating if p is not None) == sorted(entrants)
    # The fewest players moved off their snake table: one swap.
    assert sum(min(len(set(t) - set(s)) for s in first) for t in kept) == 2

    results = played(first, [(0, 10, 20)] * 2, 1)
    table = standings(results, SWISS_TIEBREAKS, entrants)
    second = swiss_round(table, results, 3)
    a, b = next((s[0], s[1]) for s in second if s[0] is not None and s[1] is not None)
    apart = swiss_round(table, results, 3, apart=[(a, b)])
    assert together(second, a, b) and not together(apart, a, b)


def test_players_kept_apart_share_a_table_when_no_other_seating_exists() -> None:
    """Two players at a table of two, or three kept apart in pairs at one table of three: the event
    seats them anyway (it never leaves anyone out)."""
    two = swiss_round(standings([], SWISS_TIEBREAKS, ["ann", "bob"]), [], 2, apart=[("ann", "bob")])
    assert two == [("ann", "bob")]
    field = ["ann", "bob", "cy", "dan"]
    blocked = [("ann", "bob"), ("ann", "cy"), ("ann", "dan")]
    tables = swiss_round(standings([], SWISS_TIEBREAKS, field), [], 2, apart=blocked)
    assert sorted(p for t in tables for p in t if p is not None) == field

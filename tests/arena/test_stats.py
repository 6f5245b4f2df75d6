"""Arena statistics on small synthetic results with known answers."""

from __future__ import annotations

import math
import statistics

import pytest

from chickenfoot.arena import (
    GameResult,
    SlotResult,
    deal_bootstrap,
    margin_ci,
    ratings,
    schedule,
    share_ci,
    summarise,
    wilson,
)
from chickenfoot.arena.stats import percentile
from chickenfoot.rules import Rules


def test_wilson_matches_the_textbook_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_deal_bootstrap_of_identical_rotations_matches_the_deal_count() -> None:
    # 40 deals, each won in all 4 rotations or in none: the information is that of 40 coin flips,
    # not 160, so the half-width is about 1.96 * sqrt(0.25 / 40) = 0.155.
    clusters = [(4.0 if deal % 2 else 0.0, 4.0) for deal in range(40)]
    share, low, high = deal_bootstrap(clusters)
    assert share == 0.5
    assert high - share == pytest.approx(0.155, abs=0.02) and share - low == pytest.approx(0.155, abs=0.02)
    naive_low, naive_high = wilson(80, 160)
    assert high - low > 1.8 * (naive_high - naive_low)


def test_deal_bootstrap_of_independent_values_matches_the_t_interval() -> None:
    # One value per deal: the bootstrap is the ordinary interval of a mean (sd/sqrt(n) * 1.96, n large).
    values = [float(v % 7) for v in range(200)]
    mean, low, high = deal_bootstrap([(v, 1) for v in values])
    sd = statistics.stdev(values)
    assert mean == pytest.approx(statistics.fmean(values))
    assert (high - low) / 2 == pytest.approx(1.96 * sd / math.sqrt(200), rel=0.1)


def test_deal_bootstrap_weights_deals_by_their_rounds() -> None:
    mean, low, high = deal_bootstrap([(30.0, 3), (0.0, 1)])
    assert mean == 30.0 / 4 and low <= mean <= high
    assert deal_bootstrap([(5.0, 1)])[1:] == (-math.inf, math.inf)


def test_a_clean_sweep_keeps_an_interval_as_wide_as_its_deals_allow() -> None:
    share, low, high = share_ci([(2.0, 2) for _ in range(30)])
    assert share == 1.0 and (low, high) == pytest.approx((wilson(30, 30)[0], 1.0))
    share, low, high = share_ci([(1.0, 2) for _ in range(30)])
    assert share == 0.5 and (low, high) == pytest.approx(wilson(15, 30))


def test_percentile_interpolates() -> None:
    assert percentile([0.0, 10.0], 0.95) == pytest.approx(9.5)
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_duplicate_schedule_puts_every_bot_in_every_seat_of_every_deal() -> None:
    lineup = ("expert", "greedy", "random")
    games = schedule(lineup, Rules(rounds=1), deals=2, seed=0)
    assert len(games) == 6
    for deal in range(2):
        seats = {(slot, g.seat_of(slot)) for g in games if g.deal == deal for slot in range(3)}
        assert seats == {(slot, seat) for slot in range(3) for seat in range(3)}


def result(deal: int, ranks: dict[str, int], points: dict[str, int]) -> GameResult:
    winners = [b for b, r in ranks.items() if r == 1]
    return GameResult(
        deal,
        0,
        tuple(
            SlotResult(b, i, i, r, 1 / len(winners) if r == 1 else 0.0, points[b], (points[b],), (0.1,))
            for i, (b, r) in enumerate(ranks.items())
        ),
    )


def test_summary_counts_wins_points_and_shared_wins() -> None:
    results = [
        result(0, {"a": 1, "b": 2}, {"a": 0, "b": 10}),
        result(1, {"a": 1, "b": 2}, {"a": 2, "b": 8}),
        result(2, {"a": 1, "b": 1}, {"a": 4, "b": 4}),
        result(3, {"a": 2, "b": 1}, {"a": 6, "b": 2}),
    ]
    rows = {r.bot: r for r in summarise(results)}
    assert rows["a"].win_share == pytest.approx(2.5 / 4)
    assert rows["b"].win_share == pytest.approx(1.5 / 4)
    assert rows["a"].points_per_round == 3.0 and rows["b"].points_per_round == 6.0
    assert rows["a"].win_low < rows["a"].win_share < rows["a"].win_high
    assert rows["a"].points_low < 3.0 < rows["a"].points_high
    assert rows["a"].mu > rows["b"].mu


def test_summary_intervals_resample_the_rotations_of_a_deal_together() -> None:
    # Every deal is played in two rotations with the same outcome for "a": with the rotations treated
    # as one observation the interval is that of 30 deals, wider than 60 independent games would give.
    results = [
        GameResult(deal, rotation, result(deal, ranks, {"a": 10 * (deal % 2), "b": 5}).slots)
        for deal in range(30)
        for rotation in range(2)
        for ranks in [{"a": 1, "b": 2} if deal % 3 else {"a": 2, "b": 1}]
    ]
    row = {r.bot: r for r in summarise(results)}["a"]
    clustered = deal_bootstrap([(2.0 if deal % 3 else 0.0, 2) for deal in range(30)])
    assert (row.win_share, row.win_low, row.win_high) == pytest.approx(clustered)
    assert row.win_high - row.win_low > 1.3 * (wilson(40, 60)[1] - wilson(40, 60)[0])
    points = deal_bootstrap([(20.0 * (deal % 2), 2) for deal in range(30)])
    assert (row.points_per_round, row.points_low, row.points_high) == pytest.approx(points)


def test_ratings_order_a_consistent_ladder_and_treat_equals_equally() -> None:
    ladder = [result(d, {"top": 1, "mid": 2, "low": 3}, {"top": 0, "mid": 1, "low": 2}) for d in range(20)]
    rated = ratings(ladder)
    assert rated["top"][0] > rated["mid"][0] > rated["low"][0]
    even = [result(d, {"x": 1 + d % 2, "y": 2 - d % 2}, {"x": 0, "y": 0}) for d in range(20)]
    rated = ratings(even)
    assert abs(rated["x"][0] - rated["y"][0]) < rated["x"][1] / 2


def test_a_bot_seated_twice_gets_one_rating() -> None:
    games = [result(d, {"best": 1, "g1": 2, "g2": 3}, {"best": 0, "g1": 1, "g2": 2}) for d in range(5)]
    renamed = [
        GameResult(g.deal, 0, tuple(SlotResult("greedy" if s.bot != "best" else "best", *_rest(s)) for s in g.slots))
        for g in games
    ]
    assert set(ratings(renamed)) == {"best", "greedy"}


def _rest(s: SlotResult) -> tuple[int, int, int, float, int, tuple[int, ...], tuple[float, ...]]:
    return (s.slot, s.seat, s.rank, s.win, s.total, s.round_points, s.move_seconds)


def test_margin_is_the_other_seats_mean_minus_the_bots_own_points() -> None:
    # a's margin is 15 on even deals and 14 on odd ones: mean 14.5, half-width 1.96 * 0.5 / sqrt(20).
    results = [result(deal, {"a": 1, "b": 2, "c": 3}, {"a": deal % 2, "b": 10, "c": 20}) for deal in range(20)]
    mean, low, high = margin_ci(results, "a")
    assert mean == pytest.approx(14.5)
    assert (low, high) == pytest.approx((14.5 - 0.219, 14.5 + 0.219), abs=0.06)
    assert margin_ci(results, "c")[0] == pytest.approx((0.5 + 10) / 2 - 20)

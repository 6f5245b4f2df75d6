"""Arena statistics on small synthetic results with known answers."""

from __future__ import annotations

import math

import pytest

from chickenfoot.arena import GameResult, SlotResult, mean_ci, ratings, schedule, summarise, wilson
from chickenfoot.arena.stats import percentile
from chickenfoot.rules import Rules


def test_wilson_matches_the_textbook_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_ci_of_a_known_sample() -> None:
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    # mean 3, sd sqrt(2.5), t(4) = 2.776: half width 2.776 * sqrt(2.5/5)
    assert mean == 3.0
    assert high - mean == pytest.approx(2.776 * math.sqrt(0.5), rel=1e-6)
    assert mean - low == pytest.approx(high - mean)


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
    assert rows["a"].mu > rows["b"].mu


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

"""The arena's statistics: win shares with Wilson intervals, mean points with t intervals, ratings."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chickenfoot.arena.games import GameResult

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _t95(df: int) -> float:
    """Two-sided 95% Student t quantile (exact table for small df, normal beyond)."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
    if df in table:
        return table[df]
    if df <= 30:
        return 2.042 + (2.228 - 2.042) * (30 - df) / 20
    return Z95 + 2.4 / df


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% confidence interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = _t95(n - 1) * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by linear interpolation."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True, slots=True)
class BotSummary:
    bot: str
    games: int
    """Games times the bot's seats in the line-up."""
    win_share: float
    win_low: float
    win_high: float
    points_per_round: float
    points_low: float
    points_high: float
    mu: float
    sigma: float
    move_p50: float
    move_p95: float
    moves: int


RATING_ORDERS = 16
"""Game orders the online ratings are averaged over: one order lets the first games weigh the most."""


def ratings(results: Sequence[GameResult], orders: int = RATING_ORDERS) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett–Luce ratings (mu, sigma) per bot from each game's finish order.

    Online updates depend on the order of the games, so the ratings are averaged over ``orders``
    fixed shuffles. A bot seated more than once in a game plays as separate entrants with one
    shared rating, which becomes the mean of their updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    games = sorted(results, key=lambda g: (g.deal, g.rotation))
    sums: dict[str, tuple[float, float]] = {}
    for order in range(orders):
        shuffled = games[:]
        random.Random(order).shuffle(shuffled)
        for bot, (mu, sigma) in _online(model, shuffled).items():
            before = sums.get(bot, (0.0, 0.0))
            sums[bot] = (before[0] + mu / orders, before[1] + sigma / orders)
    return sums


def _online(model: Any, games: Sequence[GameResult]) -> dict[str, tuple[float, float]]:
    current: dict[str, tuple[float, float]] = {}
    for game in games:
        teams = []
        for slot in game.slots:
            mu, sigma = current.get(slot.bot, (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[float(slot.rank) for slot in game.slots])
        updates: dict[str, list[tuple[float, float]]] = {}
        for slot, team in zip(game.slots, rated, strict=True):
            updates.setdefault(slot.bot, []).append((team[0].mu, team[0].sigma))
        for bot, values in updates.items():
            current[bot] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
            )
    return current


def summarise(results: Sequence[GameResult]) -> list[BotSummary]:
    """One row per bot, strongest (by win share) first."""
    rated = ratings(results)
    names = list(dict.fromkeys(slot.bot for game in results for slot in game.slots))
    rows = []
    for name in names:
        slots = [slot for game in results for slot in game.slots if slot.bot == name]
        wins = sum(slot.win for slot in slots)
        low, high = wilson(wins, len(slots))
        per_round = [float(p) for slot in slots for p in slot.round_points]
        mean, p_low, p_high = mean_ci(per_round)
        seconds = [s for slot in slots for s in slot.move_seconds]
        mu, sigma = rated[name]
        rows.append(
            BotSummary(
                bot=name,
                games=len(slots),
                win_share=wins / len(slots),
                win_low=low,
                win_high=high,
                points_per_round=mean,
                points_low=p_low,
                points_high=p_high,
                mu=mu,
                sigma=sigma,
                move_p50=percentile(seconds, 0.5),
                move_p95=percentile(seconds, 0.95),
                moves=len(seconds),
            )
        )
    rows.sort(key=lambda r: -r.win_share)
    return rows

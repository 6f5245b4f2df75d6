"""The arena's statistics: win shares and points per round with intervals clustered by deal, and ratings."""

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


BOOTSTRAP_RESAMPLES = 2000


def deal_bootstrap(
    clusters: Sequence[tuple[float, float]], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """A ratio over deals and its 95% interval from a bootstrap that resamples whole deals.

    ``clusters`` holds per deal ``(sum of the values, number of values)``: the rotations of one deal
    share its tiles, so they are not independent draws and are resampled together. The estimate is
    ``sum of sums / sum of counts``; the interval is the bootstrap's 2.5 and 97.5 percentiles. Fewer
    than two deals give no interval (``-inf, inf``).
    """
    clusters = [c for c in clusters if c[1] > 0]
    total = sum(n for _, n in clusters)
    if not clusters:
        return (math.nan, -math.inf, math.inf)
    estimate = sum(x for x, _ in clusters) / total
    k = len(clusters)
    if k < 2:
        return (estimate, -math.inf, math.inf)
    rng = random.Random(seed)
    stats = []
    for _ in range(resamples):
        picks = rng.choices(clusters, k=k)
        stats.append(sum(x for x, _ in picks) / sum(n for _, n in picks))
    return (estimate, percentile(stats, 0.025), percentile(stats, 0.975))


def share_ci(clusters: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """A share (wins per game) with its deal-bootstrap interval.

    When every deal gave the same share (or there is one deal) the bootstrap has no spread; the
    Wilson interval of that many deals, each counted as one observation, stands in: a clean sweep of
    30 deals is not certainty.
    """
    share, low, high = deal_bootstrap(clusters)
    deals = sum(1 for _, n in clusters if n > 0)
    if not low < high:
        low, high = wilson(share * deals, deals)
    return (share, max(0.0, low), min(1.0, high))


def margin_ci(results: Sequence[GameResult], bot: str) -> tuple[float, float, float]:
    """Points per round that ``bot``'s tables' other seats scored above it (their mean minus its own),
    with its 95% deal-bootstrap interval: positive is better for ``bot``."""
    clusters: dict[int, tuple[float, float]] = {}
    for game in results:
        for slot in game.slots:
            if slot.bot != bot:
                continue
            others = [s for s in game.slots if s is not slot]
            total = sum(
                sum(o.round_points[k] for o in others) / len(others) - own for k, own in enumerate(slot.round_points)
            )
            before = clusters.get(game.deal, (0.0, 0.0))
            clusters[game.deal] = (before[0] + total, before[1] + len(slot.round_points))
    return deal_bootstrap(list(clusters.values()))


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
    deals = sorted({game.deal for game in results})
    for name in names:
        slots = [slot for game in results for slot in game.slots if slot.bot == name]
        by_deal = [
            [slot for game in results if game.deal == deal for slot in game.slots if slot.bot == name] for deal in deals
        ]
        share, low, high = share_ci([(sum(s.win for s in mine), len(mine)) for mine in by_deal])
        mean, p_low, p_high = deal_bootstrap(
            [
                (float(sum(sum(s.round_points) for s in mine)), sum(len(s.round_points) for s in mine))
                for mine in by_deal
            ]
        )
        seconds = [s for slot in slots for s in slot.move_seconds]
        mu, sigma = rated[name]
        rows.append(
            BotSummary(
                bot=name,
                games=len(slots),
                win_share=share,
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

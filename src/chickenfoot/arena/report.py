"""The arena's outputs: a rich table, a JSON file of every result, and a PNG chart."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chickenfoot.arena.games import GameResult
from chickenfoot.arena.stats import BotSummary

MISSING = "—"
"""Shown for a statistic that cannot be computed (the interval of a single deal)."""


def shown(value: float, spec: str) -> str:
    """``value`` formatted by ``spec``, or :data:`MISSING` when it is not a finite number."""
    return format(value, spec) if math.isfinite(value) else MISSING


def summary_json(rows: Sequence[BotSummary]) -> list[dict[str, Any]]:
    """The summary rows for JSON: a statistic that cannot be computed (infinite or NaN) is ``null``."""
    return [
        {k: v if not isinstance(v, float) or math.isfinite(v) else None for k, v in dataclasses.asdict(r).items()}
        for r in rows
    ]


def summary_rows(data: Sequence[dict[str, Any]]) -> list[BotSummary]:
    """:func:`summary_json` read back: ``null`` is NaN (not computed)."""
    read: list[dict[str, Any]] = [{k: math.nan if v is None else v for k, v in row.items()} for row in data]
    return [BotSummary(**row) for row in read]


def dumps(data: dict[str, Any]) -> str:
    """JSON every language reads: a NaN or an infinity left anywhere is an error, not ``Infinity``."""
    return json.dumps(data, indent=1, allow_nan=False) + "\n"


def table(rows: Sequence[BotSummary], title: str) -> Any:
    """A rich Table of the summary rows."""
    from rich.table import Table

    out = Table(title=title)
    for column in (
        "bot",
        "games",
        "win share (95% CI, by deal)",
        "points/round (95% CI, by deal)",
        "rating μ ± σ",
        "s/move p50 / p95",
    ):
        out.add_column(column, justify="left" if column == "bot" else "right")
    for r in rows:
        out.add_row(
            r.bot,
            str(r.games),
            f"{shown(r.win_share, '.1%')} ({shown(r.win_low, '.1%')}–{shown(r.win_high, '.1%')})",
            f"{shown(r.points_per_round, '.2f')} ({shown(r.points_low, '.2f')}–{shown(r.points_high, '.2f')})",
            f"{r.mu:.2f} ± {r.sigma:.2f}",
            f"{shown(r.move_p50, '.3f')} / {shown(r.move_p95, '.3f')}" if r.moves else MISSING,
        )
    return out


def write_json(path: Path, config: dict[str, Any], rows: Sequence[BotSummary], results: Sequence[GameResult]) -> None:
    data = {
        "format": "chickenfoot-arena/1",
        "config": config,
        "summary": summary_json(rows),
        "games": [
            {
                "deal": g.deal,
                "rotation": g.rotation,
                "slots": [
                    {k: v for k, v in dataclasses.asdict(s).items() if k != "move_seconds"}
                    | {"moves": len(s.move_seconds), "move_seconds_max": max(s.move_seconds, default=0.0)}
                    for s in g.slots
                ],
            }
            for g in results
        ],
    }
    path.write_text(dumps(data), encoding="utf-8")


def write_png(path: Path, rows: Sequence[BotSummary], title: str) -> None:
    """Ratings with ±σ error bars, and win share with its 95% interval, per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [r.bot for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.errorbar(names, [r.mu for r in rows], yerr=[r.sigma for r in rows], fmt="o", capsize=4)
    left.set_title("OpenSkill Plackett–Luce rating (μ ± σ)")
    shares = [r.win_share for r in rows]
    # Clamped: a share of exactly 0 or 1 can sit a rounding error outside its own interval.
    errors = [
        [max(0.0, s - r.win_low) for s, r in zip(shares, rows, strict=True)],
        [max(0.0, r.win_high - s) for s, r in zip(shares, rows, strict=True)],
    ]
    right.bar(names, shares, yerr=errors, capsize=4, color="tab:green")
    right.set_ylim(0, 1)
    right.set_title("match win share (95% CI, bootstrap over deals)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

"""The arena: bots play duplicate deals against each other, and the results become statistics.

Every deal (a whole match, or its first ``rounds`` rounds) is replayed once per rotation of the
line-up, so each bot holds every seat's cards once: luck of the deal cancels out.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chickenfoot.arena.games import CHEATER, Game, GameResult, SlotResult, play, schedule
from chickenfoot.arena.run import run
from chickenfoot.arena.stats import BotSummary, deal_bootstrap, margin_ci, ratings, share_ci, summarise, wilson
from chickenfoot.bots import BOTS, DIFFICULTIES
from chickenfoot.rules import Rules

MAX_MATCHES = 1_000_000
"""More deals than any machine plays in a week: a larger count is a typo, not a plan (the schedule is a list)."""
MAX_WORKERS = 256


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    lineup: tuple[str, ...]
    rules: Rules
    matches: int
    """Deals; each is played once per seat rotation."""
    seed: int = 0
    workers: int = 1
    iterations: int | None = None
    ray_address: str | None = None

    def check(self) -> None:
        """Raise :class:`ValueError` with a one-line reason for a bad configuration."""
        known = {*BOTS, *DIFFICULTIES, CHEATER}
        for name in self.lineup:
            if name not in known:
                raise ValueError(f"unknown bot {name!r} (choose from {', '.join(sorted(known))})")
        if len(self.lineup) < 2:
            raise ValueError("the arena needs at least 2 bots")
        self.rules.hand_size_for(len(self.lineup))
        if not 1 <= self.matches <= MAX_MATCHES:
            raise ValueError(f"--matches must be from 1 to {MAX_MATCHES}")
        if not 1 <= self.workers <= MAX_WORKERS:
            raise ValueError(f"--workers must be from 1 to {MAX_WORKERS}")


def run_arena(config: ArenaConfig, out: Path | None = None, show: bool = True) -> list[BotSummary]:
    """Play the arena with a progress bar, print the table, and write ``results.json`` and ``results.png``."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    config.check()
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)  # before the games, not after hours of them
        except OSError as exc:
            raise ValueError(f"cannot write results to {out}: {exc.strerror or exc}") from None
    games = schedule(config.lineup, config.rules, config.matches, config.seed, config.iterations)
    console = Console(stderr=True, quiet=not show)
    width = None if console.is_terminal else 140  # files and pipes get the whole table unwrapped
    started = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not show,
    ) as progress:
        task = progress.add_task("games", total=len(games))

        def advance(_: GameResult) -> None:
            progress.advance(task)
            done = int(progress.tasks[0].completed)
            if show and not console.is_terminal and done % max(1, len(games) // 20) == 0:
                # A log file gets no live bar: a line every 5% instead.
                elapsed = time.perf_counter() - started
                console.print(
                    f"games {done}/{len(games)}, {elapsed:.0f}s, ETA {elapsed * (len(games) - done) / done:.0f}s"
                )

        results = run(games, config.workers, config.ray_address, advance)
    rows = summarise(results)
    title = _title(config.lineup, config.matches)
    if show:
        Console(width=width).print(_table(rows, title))
    if out is not None:
        from chickenfoot.arena.report import write_json, write_png

        settings = {
            "lineup": list(config.lineup),
            "rules": config.rules.to_dict(),
            "matches": config.matches,
            "seed": config.seed,
            "workers": config.workers,
            "iterations": config.iterations,
            "seconds": round(time.perf_counter() - started, 1),
        }
        write_json(out / "results.json", settings, rows, results)
        write_png(out / "results.png", rows, title)
    return rows


def _table(rows: Sequence[BotSummary], title: str) -> object:
    from chickenfoot.arena.report import table

    return table(rows, title)


def load_results(path: Path) -> tuple[dict[str, Any], list[BotSummary], list[GameResult]]:
    """The configuration, summary rows and games of a ``results.json`` (per-move times are not kept)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    from chickenfoot.arena.report import summary_rows

    rows = summary_rows(data["summary"])
    games = [
        GameResult(
            game["deal"],
            game["rotation"],
            tuple(
                SlotResult(
                    s["bot"], s["slot"], s["seat"], s["rank"], s["win"], s["total"], tuple(s["round_points"]), ()
                )
                for s in game["slots"]
            ),
        )
        for game in data["games"]
    ]
    return data["config"], rows, games


def rerate(path: Path) -> list[BotSummary]:
    """Recompute the statistics of a results directory (intervals, ratings) with the current methods;
    rewrites its JSON and PNG. Times per move are not kept per move, so the saved ones stay."""
    from chickenfoot.arena.report import dumps, summary_json, write_png

    file = path / "results.json"
    _, saved, games = load_results(file)
    timed = {row.bot: row for row in saved}
    rows = [
        dataclasses.replace(
            row, move_p50=timed[row.bot].move_p50, move_p95=timed[row.bot].move_p95, moves=timed[row.bot].moves
        )
        for row in summarise(games)
    ]
    data = json.loads(file.read_text(encoding="utf-8"))
    data["summary"] = summary_json(rows)
    file.write_text(dumps(data), encoding="utf-8")
    write_png(path / "results.png", rows, _title(data["config"]["lineup"], data["config"]["matches"]))
    return rows


def _title(lineup: Sequence[str], matches: int) -> str:
    return f"{','.join(lineup)}: {matches} deals x {len(lineup)} rotations"


__all__ = [
    "ArenaConfig",
    "BotSummary",
    "Game",
    "GameResult",
    "SlotResult",
    "deal_bootstrap",
    "load_results",
    "margin_ci",
    "play",
    "ratings",
    "rerate",
    "run",
    "run_arena",
    "schedule",
    "share_ci",
    "summarise",
    "wilson",
]

"""``chickenfoot review``: a match file reviewed with a progress bar, printed as tables or JSON, charted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chickenfoot.errors import ChickenfootError
from chickenfoot.match import Match
from chickenfoot.review import Review, SeatSummary, review_match

MARK_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
MARK_COLOURS = {"good": "#2f9e44", "inaccuracy": "#f0b400", "mistake": "#e8590c", "blunder": "#c92a2a"}


def read_match(path: Path) -> tuple[Match, list[str] | None]:
    """A match record (a download or a saved terminal game) and its seat kinds when it names them."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ChickenfootError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    match = Match.loads(text)
    seats = json.loads(text).get("seats")
    if isinstance(seats, list) and all(isinstance(kind, str) for kind in seats) and len(seats) == match.players:
        return match, seats
    return match, None


def parse_seats(text: str | None, kinds: list[str] | None, players: int) -> list[int]:
    """Seats to mark: as given (``0,2``), else the humans of a saved game, else every seat."""
    if text:
        try:
            return [int(part) for part in text.split(",")]
        except ValueError:
            raise ChickenfootError(f"--seats takes seat numbers separated by commas, not {text!r}") from None
    if kinds is not None and "human" in kinds:
        return [s for s, kind in enumerate(kinds) if kind == "human"]
    return list(range(players))


def review_command(file: Path, budget: int, seed: int, seats: str | None, as_json: bool, chart: Path | None) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    match, kinds = read_match(file)
    chosen = parse_seats(seats, kinds, match.players)
    console = Console(stderr=as_json)
    columns = (TextColumn("Reviewing"), BarColumn(), MofNCompleteColumn(), TextColumn("moves"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("review", total=sum(len(r.history) for r in match.rounds))
        try:
            review = review_match(match, chosen, budget, seed, lambda done, _total: bar.update(task, completed=done))
        except ValueError as exc:
            raise ChickenfootError(str(exc)) from None
    if chart is not None:
        save_chart(review, chart)
    if as_json:
        print(json.dumps(review.to_dict(), indent=1))
        return
    print_review(review, console)
    if chart is not None:
        console.print(f"Chart written to {chart}")


PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def describe_costliest(summary: SeatSummary, rounds: bool) -> str:
    """One line per costly move: where, what was played, the better move and the points lost."""
    return "\n".join(
        f"{f'round {n} ' if rounds else ''}move {m.ply + 1}: {m.played}, better {m.best} (−{m.loss:.1f})"
        for n, m in summary.costliest
    )


def print_review(review: Review, console: Any) -> None:
    from rich.table import Table

    console.print(f"Review at {review.budget} sampled deals per move (seed {review.seed}); losses in expected points")
    for r in review.rounds:
        points = f" — points {list(r.points)}" if r.points else ""
        table = Table(title=f"Round {r.number}{points}", title_justify="left")
        for name in ("Seat", "Decisions", "Lost / move", "Accuracy", "Marks", "Costliest moves"):
            table.add_column(name)
        for summary in r.summary(review.seats):
            marks = [m.mark for m in r.moves if m.seat == summary.seat and m.mark not in (None, "good")]
            counted = "\n".join(
                f"[{MARK_STYLES[k]}]{marks.count(k)} {k if marks.count(k) == 1 else PLURALS[k]}[/]"
                for k in ("inaccuracy", "mistake", "blunder")
                if k in marks
            )
            table.add_row(
                str(summary.seat),
                str(summary.decisions),
                f"{summary.loss_per_move:.2f}",
                f"{summary.accuracy:.0f}%",
                counted or "all good",
                describe_costliest(summary, rounds=False),
            )
        console.print(table)
    for summary in review.summary():
        console.print(
            f"Seat {summary.seat} in the match: {summary.decisions} decisions, {summary.loss_per_move:.2f} expected "
            f"points lost per move, accuracy {summary.accuracy:.0f}%; costliest:\n{describe_costliest(summary, True)}"
        )


def save_chart(review: Review, path: Path) -> None:
    """Each round's expected final points of every seat, move by move, with the reviewed marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = review.rounds
    fig, axes = plt.subplots(len(rounds), 1, figsize=(9, 2.6 * len(rounds)), squeeze=False)
    for ax, r in zip(axes[:, 0], rounds, strict=True):
        moves = [m.ply + 1 for m in r.moves]
        players = len(r.moves[0].expected) if r.moves else 0
        for seat in range(players):
            ax.plot(moves, [m.expected[seat] for m in r.moves], label=f"seat {seat}", linewidth=1.5)
        for m in r.moves:
            if m.mark is not None and m.mark != "good":
                ax.scatter([m.ply + 1], [m.expected[m.seat]], color=MARK_COLOURS[m.mark], zorder=3, s=28)
        ax.set_title(f"Round {r.number}", loc="left", fontsize=10)
        ax.set_ylabel("expected points")
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("move")
    axes[0, 0].legend(loc="upper right", fontsize=8, ncols=4)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        raise ChickenfootError(f"cannot write the chart to {path}: {exc}") from None
    finally:
        plt.close(fig)

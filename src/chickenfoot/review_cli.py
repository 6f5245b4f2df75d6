"""``chickenfoot review``: a match file reviewed with a progress bar, printed as tables or JSON, charted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chickenfoot.errors import ChickenfootError
from chickenfoot.i18n import DEFAULT, choose_language, render
from chickenfoot.match import read_match
from chickenfoot.messages import Code
from chickenfoot.review import Review, SeatSummary, review_match

MARK_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
MARK_COLOURS = {"good": "#2f9e44", "inaccuracy": "#f0b400", "mistake": "#e8590c", "blunder": "#c92a2a"}
MARK_COUNTS = {
    "inaccuracy": Code.REVIEW_CLI_INACCURACIES,
    "mistake": Code.REVIEW_CLI_MISTAKES,
    "blunder": Code.REVIEW_CLI_BLUNDERS,
}
"""The messages counting each costly mark ("2 mistakes")."""


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


def review_command(
    file: Path, budget: int, seed: int, seats: str | None, as_json: bool, chart: Path | None, lang: str | None = None
) -> None:
    """Review the match of ``file`` and print it in ``lang`` (``--lang``), else the environment's language."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    language = choose_language(lang)
    match, kinds = read_match(file, language)
    chosen = parse_seats(seats, kinds, match.players)
    console = Console(stderr=as_json)
    progress = TextColumn(render(Code.REVIEW_CLI_PROGRESS, language), markup=False)
    with Progress(
        progress, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("review", total=sum(len(r.history) for r in match.rounds))
        try:
            review = review_match(match, chosen, budget, seed, lambda done, _total: bar.update(task, completed=done))
        except ValueError as exc:
            raise ChickenfootError(str(exc)) from None
    if chart is not None:
        save_chart(review, chart, language)
    if as_json:
        print(json.dumps(review.to_dict(), indent=1))
        return
    print_review(review, console, language)
    if chart is not None:
        console.print(render(Code.REVIEW_CLI_CHART_WRITTEN, language, path=str(chart)), markup=False)


def decimal(value: float, places: int, lang: str) -> str:
    """``value`` to ``places`` decimals with the language's decimal sign."""
    return f"{value:.{places}f}".replace(".", render(Code.DECIMAL_SIGN, lang))


def describe_costliest(summary: SeatSummary, rounds: bool, lang: str = DEFAULT) -> str:
    """One line per costly move: where, what was played, the better move and the points lost."""
    code = Code.REVIEW_CLI_ROUND_MOVE if rounds else Code.REVIEW_CLI_MOVE
    return "\n".join(
        render(
            code,
            lang,
            round=n,
            move=m.ply + 1,
            played=str(m.played),
            best=str(m.best),
            loss=decimal(m.loss or 0.0, 1, lang),
        )
        for n, m in summary.costliest
    )


def print_review(review: Review, console: Any, lang: str = DEFAULT) -> None:
    from rich.markup import escape
    from rich.table import Table

    def t(code: Code, /, **params: object) -> str:
        return escape(render(code, lang, **params))  # words are never markup

    console.print(t(Code.REVIEW_CLI_HEADER, count=review.budget, seed=review.seed))
    for r in review.rounds:
        if r.points:
            title = t(Code.REVIEW_CLI_ROUND_POINTS, round=r.number, points=", ".join(map(str, r.points)))
        else:
            title = t(Code.REVIEW_CLI_ROUND, round=r.number)
        table = Table(title=title, title_justify="left")
        for code in (
            Code.REVIEW_CLI_SEAT,
            Code.REVIEW_CLI_DECISIONS,
            Code.REVIEW_LOST_PER_MOVE,
            Code.REVIEW_ACCURACY,
            Code.REVIEW_CLI_MARKS,
            Code.REVIEW_CLI_COSTLIEST,
        ):
            table.add_column(t(code))
        for summary in r.summary(review.seats):
            marks = [m.mark for m in r.moves if m.seat == summary.seat and m.mark not in (None, "good")]
            counted = "\n".join(
                f"[{MARK_STYLES[mark]}]{t(code, count=marks.count(mark))}[/]"
                for mark, code in MARK_COUNTS.items()
                if mark in marks
            )
            table.add_row(
                str(summary.seat),
                str(summary.decisions),
                decimal(summary.loss_per_move, 2, lang),
                t(Code.PERCENT, value=f"{summary.accuracy:.0f}"),
                counted or t(Code.REVIEW_CLI_ALL_GOOD),
                escape(describe_costliest(summary, False, lang)),
            )
        console.print(table)
    for summary in review.summary():
        line = t(
            Code.REVIEW_CLI_MATCH,
            seat=summary.seat,
            count=summary.decisions,
            loss=decimal(summary.loss_per_move, 2, lang),
            accuracy=render(Code.PERCENT, lang, value=f"{summary.accuracy:.0f}"),
        )
        console.print(f"{line}\n{escape(describe_costliest(summary, True, lang))}")


def save_chart(review: Review, path: Path, lang: str = DEFAULT) -> None:
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
            ax.plot(
                moves,
                [m.expected[seat] for m in r.moves],
                label=render(Code.REVIEW_CLI_SEAT_LEGEND, lang, seat=seat),
                linewidth=1.5,
            )
        for m in r.moves:
            if m.mark is not None and m.mark != "good":
                ax.scatter([m.ply + 1], [m.expected[m.seat]], color=MARK_COLOURS[m.mark], zorder=3, s=28)
        ax.set_title(render(Code.REVIEW_CLI_ROUND, lang, round=r.number), loc="left", fontsize=10)
        ax.set_ylabel(render(Code.REVIEW_CLI_EXPECTED, lang))
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(render(Code.REPLAY_MOVE, lang))
    axes[0, 0].legend(loc="upper right", fontsize=8, ncols=4)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        raise ChickenfootError(f"cannot write the chart to {path}: {exc}") from None
    finally:
        plt.close(fig)

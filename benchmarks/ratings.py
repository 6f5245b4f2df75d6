"""The bot levels' fixed ratings, and whether ratings predict results: arena matches between the levels,
several OpenSkill models fitted on them, each judged on matches it did not see.

    python benchmarks/ratings.py play --players 2 --deals 16 --seed 2801   # every pair of levels, seats swapped
    python benchmarks/ratings.py play --players 4 --deals 16 --seed 2802   # the four levels at one table, rotated
    python benchmarks/ratings.py fit                                        # summary.json, the plot, the tables

``play`` writes every match to benchmarks/results/ratings-<players>p/results.json (not committed: the
command regenerates it); ``fit`` writes benchmarks/results/ratings/summary.json and
docs/bots/ratings-calibration.png, and prints the Markdown tables of docs/bots/ratings.md.

Full 10-round classic double-9 matches. ``expert`` plays at 2,000 iterations (a tenth of its budget, on
one process) so the run stays within a quarter hour of CPU on a shared machine; the other levels play at
their own budgets. Each model is judged by 4-fold cross-validation over deals: fitted on three quarters
of the deals, it predicts every match of the fourth (log-loss of the winner, and each pair of seats'
"who finishes ahead" against what happened, in bins).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from openskill.models import BradleyTerryFull, BradleyTerryPart, PlackettLuce, ThurstoneMostellerFull

from chickenfoot.arena.games import Game, play
from chickenfoot.bots import DIFFICULTIES, LEVELS, Budget
from chickenfoot.rules import Rules
from chickenfoot.server.ratings.model import shown

RESULTS = Path(__file__).parent / "results"
PLOT = Path(__file__).parent.parent / "docs" / "bots" / "ratings-calibration.png"
EXPERT_ITERATIONS = 2_000
MODELS = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
}
FOLDS = 4
BINS = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0)]
FIT_SEED = 7


def lineups(players: int) -> list[tuple[str, ...]]:
    if players == 2:
        return list(itertools.combinations(LEVELS, 2))
    return [tuple(reversed(LEVELS))]


def run_play(players: int, deals: int, seed: int) -> None:
    expert = DIFFICULTIES["expert"]
    DIFFICULTIES["expert"] = dataclasses.replace(expert, budget=Budget(iterations=EXPERT_ITERATIONS), workers=1)
    matches = []
    start = time.process_time()
    for lineup in lineups(players):
        for deal in range(deals):
            for rotation in range(players):
                result = play(Game(lineup, Rules(), seed, deal, rotation))
                matches.append(
                    {"deal": deal, "bots": [s.bot for s in result.slots], "ranks": [s.rank for s in result.slots]}
                )
        print(f"{lineup}: {len(matches)} matches, {time.process_time() - start:.0f} s CPU", file=sys.stderr)
    out = RESULTS / f"ratings-{players}p"
    out.mkdir(parents=True, exist_ok=True)
    command = f"python benchmarks/ratings.py play --players {players} --deals {deals} --seed {seed}"
    meta = {"command": command, "seed": seed, "deals": deals, "cpu_seconds": round(time.process_time() - start)}
    (out / "results.json").write_text(json.dumps(meta | {"matches": matches}))


def fit(model: Any, matches: list[dict[str, Any]]) -> dict[str, Any]:
    """The levels' ratings after every match in a seeded shuffled order (one pass, as a server would)."""
    ratings = {level: model.rating() for level in LEVELS}
    order = list(matches)
    random.Random(FIT_SEED).shuffle(order)
    for match in order:
        teams = [[ratings[bot]] for bot in match["bots"]]
        after = model.rate(teams, ranks=[float(r) for r in match["ranks"]])
        for bot, team in zip(match["bots"], after, strict=True):
            ratings[bot] = team[0]
    return ratings


def judge(
    model: Any, ratings: dict[str, Any], matches: list[dict[str, Any]]
) -> tuple[float, list[tuple[float, float]]]:
    """Total log-loss of the winners, and (predicted, observed) for every pair of seats of every match."""
    loss, pairs = 0.0, []
    for match in matches:
        teams = [[ratings[bot]] for bot in match["bots"]]
        chances = model.predict_win(teams)
        first = [s for s, rank in enumerate(match["ranks"]) if rank == 1]
        loss -= sum(math.log(max(chances[s], 1e-12)) for s in first) / len(first)
        for a, b in itertools.combinations(range(len(teams)), 2):
            p = model.predict_win([teams[a], teams[b]])[0]
            ra, rb = match["ranks"][a], match["ranks"][b]
            observed = 1.0 if ra < rb else 0.0 if ra > rb else 0.5
            pairs.append((p, observed))
            pairs.append((1 - p, 1 - observed))  # both orientations: the table is symmetric
    return loss, pairs


def calibration(pairs: list[tuple[float, float]]) -> list[dict[str, Any]]:
    rows = []
    for low, high in BINS:
        inside = [(p, o) for p, o in pairs if low <= p < high or (high == 1.0 and p == 1.0)]
        if inside:
            rows.append(
                {
                    "bin": f"{low:.1f}–{high:.1f}",
                    "pairs": len(inside),
                    "predicted": round(sum(p for p, _ in inside) / len(inside), 3),
                    "observed": round(sum(o for _, o in inside) / len(inside), 3),
                }
            )
    return rows


def family_report(matches: list[dict[str, Any]]) -> dict[str, Any]:
    deals = sorted({m["deal"] for m in matches})
    models: dict[str, Any] = {}
    for name, cls in MODELS.items():
        model = cls()
        loss, pairs = 0.0, []
        for fold in range(FOLDS):
            held = {d for i, d in enumerate(deals) if i % FOLDS == fold}
            fold_loss, fold_pairs = judge(
                model,
                fit(model, [m for m in matches if m["deal"] not in held]),
                [m for m in matches if m["deal"] in held],
            )
            loss += fold_loss
            pairs += fold_pairs
        brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
        models[name] = {
            "log_loss": round(loss / len(matches), 4),
            "pair_brier": round(brier, 4),
            "calibration": calibration(pairs),
        }
    best = min(models, key=lambda name: models[name]["log_loss"])
    final = fit(MODELS[best](), matches)
    wins = {level: 0.0 for level in LEVELS}
    played = {level: 0 for level in LEVELS}
    for m in matches:
        first = [b for b, r in zip(m["bots"], m["ranks"], strict=True) if r == 1]
        for bot in m["bots"]:
            played[bot] += 1
        for bot in first:
            wins[bot] += 1 / len(first)
    levels = {
        level: {
            "mu": round(final[level].mu, 2),
            "sigma": round(final[level].sigma, 2),
            "shown": shown(final[level].mu),
            "matches": played[level],
            "win_share": round(wins[level] / played[level], 3),
        }
        for level in LEVELS
    }
    ordered = [level for level, _ in sorted(levels.items(), key=lambda kv: kv[1]["mu"])] == list(LEVELS)
    return {
        "matches": len(matches),
        "deals": len(deals),
        "models": models,
        "best": best,
        "levels": levels,
        "ordered": ordered,
    }


def run_fit() -> None:
    summary: dict[str, Any] = {
        "commands": [],
        "expert_iterations": EXPERT_ITERATIONS,
        "folds": FOLDS,
        "fit_seed": FIT_SEED,
    }
    for players, family in ((2, "2"), (4, "3-4")):
        data = json.loads((RESULTS / f"ratings-{players}p" / "results.json").read_text())
        summary["commands"].append(data["command"] + f"  # {data['cpu_seconds']} s CPU")
        summary[family] = family_report(data["matches"])
    summary["commands"].append("python benchmarks/ratings.py fit")
    out = RESULTS / "ratings"
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    draw(summary)
    print_tables(summary)


def draw(summary: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 4.2))
    for ax, family in zip(axes, ("2", "3-4"), strict=True):
        report = summary[family]
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
        for name, model in report["models"].items():
            rows = model["calibration"]
            ax.plot(
                [r["predicted"] for r in rows],
                [r["observed"] for r in rows],
                marker="o",
                label=f"{name} ({model['log_loss']})",
            )
        ax.set_title(f"{family} players: held-out pairs")
        ax.set_xlabel("predicted share of finishing ahead")
        ax.set_ylabel("observed share")
        ax.legend(fontsize=7, title="model (log-loss)", title_fontsize=7)
    fig.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=110)


def print_tables(summary: dict[str, Any]) -> None:
    for family in ("2", "3-4"):
        report = summary[family]
        print(
            f"\n### {family} players ({report['matches']} matches, {report['deals']} deals); best: {report['best']}\n"
        )
        print("| model | log-loss of the winner | pair Brier |\n| --- | ---: | ---: |")
        for name, model in report["models"].items():
            print(f"| {name} | {model['log_loss']} | {model['pair_brier']} |")
        print("\n| level | rating | μ ± σ | matches | win share |\n| --- | ---: | --- | ---: | ---: |")
        for level, row in report["levels"].items():
            rating = f"{row['shown']} | {row['mu']} ± {row['sigma']}"
            print(f"| `{level}` | {rating} | {row['matches']} | {row['win_share']:.1%} |")
        print("\n| predicted | pairs | observed |\n| --- | ---: | ---: |")
        for row in report["models"][report["best"]]["calibration"]:
            print(f"| {row['bin']} (mean {row['predicted']:.3f}) | {row['pairs']} | {row['observed']:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    playing = sub.add_parser("play")
    playing.add_argument("--players", type=int, choices=(2, 4), required=True)
    playing.add_argument("--deals", type=int, default=16)
    playing.add_argument("--seed", type=int, required=True)
    sub.add_parser("fit")
    args = parser.parse_args()
    if args.command == "play":
        run_play(args.players, args.deals, args.seed)
    else:
        run_fit()


if __name__ == "__main__":
    main()

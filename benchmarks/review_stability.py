"""How much the review's marks move with its budget and seed.

Plays a few short bot matches (a random, a greedy and a medium seat among them, so there are
mistakes to find), reviews every seat's choices at several budgets with two seeds each, and
compares them with a reference review at a much larger budget:

- seed agreement: the share of marked moves whose mark is the same under two seeds;
- reference agreement: the share whose mark matches the reference's;
- mean |loss difference| against the reference, in expected points;
- best-move agreement with the reference.

    python benchmarks/review_stability.py --matches 4 --budgets 50 100 200 400 --reference 1600

Writes a JSON summary with ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from chickenfoot import Match, Rules
from chickenfoot.bots import make_bot
from chickenfoot.review import MoveReview, Review, review_match

LINEUPS = {2: ["random", "medium"], 3: ["random", "greedy", "medium"], 4: ["random", "greedy", "medium", "hard"]}


def play(players: int, seed: int) -> Match:
    match = Match(Rules(rounds=1), players, seed)
    bots = [make_bot(name, seed + s) for s, name in enumerate(LINEUPS[players])]
    while not match.is_over():
        match.push(bots[match.to_move].choose(match.round.view(match.to_move)))
    return match


def judged(review: Review) -> list[MoveReview]:
    return [m for r in review.rounds for m in r.moves if m.loss is not None]


def compare(a: Review, b: Review) -> dict[str, float]:
    pairs = list(zip(judged(a), judged(b), strict=True))
    n = len(pairs)
    return {
        "moves": n,
        "same_mark": sum(x.mark == y.mark for x, y in pairs) / n,
        "same_best": sum(x.best == y.best for x, y in pairs) / n,
        "mean_abs_loss_diff": sum(abs((x.loss or 0) - (y.loss or 0)) for x, y in pairs) / n,
        "same_good_or_not": sum((x.mark == "good") == (y.mark == "good") for x, y in pairs) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4, help="matches per player count (2 and 4 players)")
    parser.add_argument("--budgets", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--reference", type=int, default=1600)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    matches = [play(players, 1000 * players + k) for players in (2, 4) for k in range(args.matches)]
    started = time.perf_counter()
    reference = [review_match(m, budget=args.reference, seed=99) for m in matches]
    rows: dict[str, Any] = {"reference_budget": args.reference, "matches": len(matches), "budgets": {}}
    for budget in args.budgets:
        clock = time.perf_counter()
        first = [review_match(m, budget=budget, seed=0) for m in matches]
        seconds = time.perf_counter() - clock
        second = [review_match(m, budget=budget, seed=1) for m in matches]
        plies = sum(len(r.moves) for review in first for r in review.rounds)
        row = {
            "seconds_per_move": seconds / plies,
            "seed_vs_seed": compare(merge(first), merge(second)),
            "vs_reference": compare(merge(first), merge(reference)),
        }
        rows["budgets"][budget] = row
        print(budget, json.dumps(row), flush=True)
    rows["seconds"] = time.perf_counter() - started
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")


def merge(reviews: list[Review]) -> Review:
    """All matches' rounds as one review (to compare move lists)."""
    return Review(reviews[0].budget, reviews[0].seed, (), tuple(r for review in reviews for r in review.rounds))


if __name__ == "__main__":
    main()

"""The bot levels' fixed ratings, and whether they predict the levels' results: one arena run between the
levels at their own budgets, the levels' ratings fitted on it by maximum likelihood, and every prediction
checked against what happened on deals the fit did not see.

    python benchmarks/ratings.py plan                              # matches needed, and the CPU they cost
    nice -n 15 python benchmarks/ratings.py play --seed 3801       # the arena run (one process)
    python benchmarks/ratings.py fit                               # summary.json, the plot, the tables
    python benchmarks/ratings.py newcomer                          # a new account's first five matches

``play`` writes every match to benchmarks/results/ratings-arena/results.json as it goes (not committed:
the command regenerates it; ``--resume`` continues a stopped run with the same matches); ``fit`` writes
benchmarks/results/ratings/summary.json and docs/bots/ratings-calibration.png, and prints the Markdown
tables of docs/bots/ratings.md and the levels' ratings for src/chickenfoot/server/ratings/levels.py.

Full 10-round classic double-9 matches on duplicate deals (each deal replayed with the line-up rotated
through every seat). Every level plays at its own iteration budget on one process, without its time cap
(``expert`` searches 20,000 iterations as its two processes do between them), so the results do not depend
on the machine's load.

The fit: heads-up, Thurstone–Mosteller (a level beats another with probability
Φ((μa − μb) / √(2β² + σa² + σb²))); at three and four players, Plackett–Luce over the finishing order
(first place with probability e^(μi/c) / Σ e^(μj/c), c = √Σ(σj² + β²)), the models the server rates people
with (src/chickenfoot/server/ratings/model.py). The levels' μ maximise the likelihood of the run's results,
``medium`` held at 25 (1500, a new account's rating); their σ are the standard errors, with deals as the
independent units (duplicate deals are not independent matches). Calibration: the deals split in two
halves by parity; each half is predicted by the fit on the other.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
from openskill.models import PlackettLuce, ThurstoneMostellerFull

from chickenfoot.arena.games import Game, play
from chickenfoot.bots import DIFFICULTIES, LEVELS, Budget
from chickenfoot.rules import Rules
from chickenfoot.server.ratings.model import BETA, DEFAULT_MU, Family, Rating, family_of, shown, win_chances

RESULTS = Path(__file__).parent / "results"
RUN = RESULTS / "ratings-arena" / "results.json"
SUMMARY = RESULTS / "ratings" / "summary.json"
PLOT = Path(__file__).parent.parent / "docs" / "bots" / "ratings-calibration.png"
ANCHOR = "medium"
"""The level held at μ = 25 (shown 1500): a new account starts as good as the level a seat gets by default."""
Z = NormalDist().inv_cdf(0.975)

# --- the plan -----------------------------------------------------------------------------------------

PLAN: tuple[tuple[tuple[str, ...], int], ...] = (
    # Heads-up: each pair of neighbouring levels, and easy–hard to check that the scale is transitive.
    (("medium", "easy"), 150),
    (("hard", "medium"), 100),
    (("hard", "easy"), 50),
    # Three players: the family's other table size, rated on the same scale as four.
    (("hard", "medium", "easy"), 60),
    # Four players as quick play seats them: one player against three bots of one level, both ways round.
    (("medium", "easy", "easy", "easy"), 80),
    (("easy", "medium", "medium", "medium"), 80),
    (("hard", "medium", "medium", "medium"), 40),
    (("medium", "hard", "hard", "hard"), 40),
    (("hard", "easy", "easy", "easy"), 30),
    (("easy", "hard", "hard", "hard"), 30),
    # The expensive ones last: expert searches 20,000 iterations a move.
    (("expert", "hard"), 24),
    (("expert", "hard", "medium", "easy"), 10),
    (("expert", "hard", "hard", "hard"), 8),
)
"""Each line-up and its number of deals (a match per deal and rotation)."""

GUESSES = {
    # Prior guesses for the plan, from earlier runs (docs/bots/ladder.md, the ratings run of seeds 2801/2802):
    # heads-up, the first level's share of wins; at three or four, the first level's share of first places.
    ("medium", "easy"): 0.65,
    ("hard", "medium"): 0.9,
    ("hard", "easy"): 0.93,
    ("hard", "medium", "easy"): 0.6,
    ("medium", "easy", "easy", "easy"): 0.4,
    ("easy", "medium", "medium", "medium"): 0.15,
    ("hard", "medium", "medium", "medium"): 0.6,
    ("medium", "hard", "hard", "hard"): 0.05,
    ("hard", "easy", "easy", "easy"): 0.65,
    ("easy", "hard", "hard", "hard"): 0.04,
    ("expert", "hard"): 0.7,
    ("expert", "hard", "medium", "easy"): 0.55,
    ("expert", "hard", "hard", "hard"): 0.4,
}
SEAT_CPU = {"easy": 0.02, "medium": 0.05, "hard": 0.4, "expert": 13.0}
"""CPU seconds one seat of a level costs in a heads-up match (measured on a few matches; a seat at a table of
n plays about 2/n as many moves)."""


def cpu_estimate(lineup: Sequence[str]) -> float:
    return sum(SEAT_CPU[level] for level in lineup) * 2 / len(lineup)


def run_plan() -> None:
    """The matches each line-up needs, as a 95% interval's half-width on its first level's share."""
    print("| line-up | deals | matches | guessed share | 95% half-width | CPU s (estimate) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    total = 0.0
    for lineup, deals in PLAN:
        matches = deals * len(lineup)
        p = GUESSES[lineup]
        half = Z * math.sqrt(p * (1 - p) / matches)
        cpu = cpu_estimate(lineup) * matches
        total += cpu
        print(f"| {', '.join(lineup)} | {deals} | {matches} | {p:.2f} | ±{half:.3f} | {cpu:.0f} |")
    print(f"\ntotal: {sum(d * len(lu) for lu, d in PLAN)} matches, about {total:.0f} s CPU")
    print(f"a half-width h at share p needs n = z²·p(1−p)/h² matches (z = {Z:.2f}); e.g. p = 0.65, h = 0.06: n = 243")


# --- the run ------------------------------------------------------------------------------------------


def fixed_budgets() -> None:
    """Every level at its own iteration budget on one process, without the time cap (load-independent)."""
    for level in LEVELS:
        difficulty = DIFFICULTIES[level]
        if difficulty.budget.iterations is not None:
            DIFFICULTIES[level] = dataclasses.replace(
                difficulty, budget=Budget(iterations=difficulty.budget.iterations), workers=1
            )


def run_play(seed: int, resume: bool) -> None:
    fixed_budgets()
    command = f"nice -n 15 python benchmarks/ratings.py play --seed {seed}"
    done: list[dict[str, Any]] = []
    cpu_before = 0.0
    if resume and RUN.exists():
        previous = json.loads(RUN.read_text())
        if previous["seed"] != seed:
            sys.exit(f"{RUN} holds the run of seed {previous['seed']}, not {seed}")
        done, cpu_before = previous["matches"], previous["cpu_seconds"]
    played = {(tuple(m["lineup"]), m["deal"], m["rotation"]) for m in done}
    start, wall = time.process_time(), time.perf_counter()
    RUN.parent.mkdir(parents=True, exist_ok=True)

    def save() -> None:
        meta = {
            "command": command,
            "seed": seed,
            "plan": [[list(lineup), deals] for lineup, deals in PLAN],
            "cpu_seconds": round(cpu_before + time.process_time() - start),
        }
        partial = RUN.with_suffix(".partial")
        partial.write_text(json.dumps(meta | {"matches": done}))
        os.replace(partial, RUN)

    for lineup, deals in PLAN:
        for deal in range(deals):
            for rotation in range(len(lineup)):
                if (lineup, deal, rotation) in played:
                    continue
                result = play(Game(lineup, Rules(), seed, deal, rotation))
                done.append(
                    {
                        "lineup": list(lineup),
                        "deal": deal,
                        "rotation": rotation,
                        "ranks": [s.rank for s in result.slots],
                    }
                )
            save()
        cpu = time.process_time() - start
        print(f"{lineup}: {len(done)} matches, {cpu:.0f} s CPU, {time.perf_counter() - wall:.0f} s", file=sys.stderr)
    save()


# --- the models ---------------------------------------------------------------------------------------

Levels = dict[str, Rating]
Match = dict[str, Any]


def phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def scale(ratings: Sequence[Rating]) -> float:
    """Plackett–Luce's c: the spread of a table's performances."""
    return math.sqrt(sum(r.sigma**2 + BETA**2 for r in ratings))


def log_likelihood(levels: Levels, match: Match, stretch: float = 1.0) -> float:
    """The log-probability of the match's finishing order under its family's model (ties: half each way
    heads-up; at three or four each tied seat against the seats not yet placed); ``stretch`` multiplies
    Plackett–Luce's scale (a β of its own for some table size)."""
    seats = [levels[bot] for bot in match["lineup"]]
    ranks = match["ranks"]
    if len(seats) == 2:
        a, b = seats
        p = phi((a.mu - b.mu) / math.sqrt(2 * BETA**2 + a.sigma**2 + b.sigma**2))
        won = 1.0 if ranks[0] < ranks[1] else 0.0 if ranks[0] > ranks[1] else 0.5
        return won * math.log(max(p, 1e-300)) + (1 - won) * math.log(max(1 - p, 1e-300))
    c = scale(seats) * stretch
    strengths = [r.mu / c for r in seats]
    total = 0.0
    for rank in sorted(set(ranks)):
        remaining = [s for s, r in enumerate(ranks) if r >= rank]
        top = max(strengths[s] for s in remaining)
        log_sum = top + math.log(sum(math.exp(strengths[s] - top) for s in remaining))
        total += sum(strengths[s] - log_sum for s, r in enumerate(ranks) if r == rank)
    return total


def first_place(levels: Levels, lineup: Sequence[str]) -> list[float]:
    """Each seat's chance of finishing first by the model (the server's ``win_chances``)."""
    return win_chances([levels[bot] for bot in lineup], family(lineup))


def ahead(levels: Levels, lineup: Sequence[str], a: int, b: int) -> float:
    """The chance that seat ``a`` finishes ahead of seat ``b`` by the model."""
    seats = [levels[bot] for bot in lineup]
    if len(seats) == 2:
        return first_place(levels, lineup)[a]
    c = scale(seats)
    return 1 / (1 + math.exp((seats[b].mu - seats[a].mu) / c))


def family(lineup: Sequence[str]) -> Family:
    known = family_of(len(lineup))
    assert known is not None
    return known


# The ratings and model shipped before this run (levels.py fitted on seeds 2801/2802 by one pass of
# OpenSkill; predictions by OpenSkill's ``predict_win``): what players were shown.
BEFORE_LEVELS: dict[Family, Levels] = {
    "2": {
        "easy": Rating(12.81, 2.12),
        "medium": Rating(13.57, 2.10),
        "hard": Rating(33.98, 2.30),
        "expert": Rating(38.20, 2.36),
    },
    "3-4": {
        "easy": Rating(16.90, 3.44),
        "medium": Rating(14.04, 3.41),
        "hard": Rating(32.43, 3.37),
        "expert": Rating(36.58, 3.52),
    },
}


def before_first_place(levels: Levels, lineup: Sequence[str]) -> list[float]:
    model: Any = ThurstoneMostellerFull() if len(lineup) == 2 else PlackettLuce()
    return [
        float(p) for p in model.predict_win([[model.rating(mu=levels[b].mu, sigma=levels[b].sigma)] for b in lineup])
    ]


def before_ahead(levels: Levels, lineup: Sequence[str], a: int, b: int) -> float:
    return before_first_place(levels, [lineup[a], lineup[b]])[0]


# --- the fit ------------------------------------------------------------------------------------------


def fit(
    matches: Sequence[Match], sigmas: dict[str, float] | None = None
) -> tuple[Levels, dict[str, float], dict[str, dict[str, float]]]:
    """The levels' μ by maximum likelihood (``ANCHOR`` at 25; Newton's method on the free μ), and each
    level's standard error from the anchor (deals as clusters: the sandwich estimate)."""
    present = [level for level in LEVELS if any(level in m["lineup"] for m in matches)]
    free = [level for level in present if level != ANCHOR]
    sigma = sigmas or {level: 0.0 for level in present}

    def levels_of(x: np.ndarray) -> Levels:
        mus = {ANCHOR: DEFAULT_MU} | {level: DEFAULT_MU + float(v) for level, v in zip(free, x, strict=True)}
        return {level: Rating(mus[level], sigma[level]) for level in present}

    def total(x: np.ndarray, subset: Sequence[Match]) -> float:
        levels = levels_of(x)
        return sum(log_likelihood(levels, m) for m in subset)

    def gradient(x: np.ndarray, subset: Sequence[Match], h: float = 1e-4) -> np.ndarray:
        return np.array([(total(x + h * e, subset) - total(x - h * e, subset)) / (2 * h) for e in np.eye(len(x))])

    def hessian(x: np.ndarray, h: float = 1e-3) -> np.ndarray:
        columns = [(gradient(x + h * e, matches) - gradient(x - h * e, matches)) / (2 * h) for e in np.eye(len(x))]
        return (np.array(columns) + np.array(columns).T) / 2

    x = np.zeros(len(free))
    for _ in range(50):
        step = np.linalg.solve(hessian(x), gradient(x, matches))
        step = np.clip(step, -5, 5)  # far from the optimum the quadratic model overshoots
        x = x - step
        if np.max(np.abs(step)) < 1e-6:
            break
    by_deal: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_deal[m["deal"]].append(m)
    scores = np.array([gradient(x, deal) for deal in by_deal.values()])
    bread = np.linalg.inv(-hessian(x))
    covariance_free = bread @ (scores.T @ scores) @ bread
    # Each level's distance from the anchor, whose own σ is 0: it is where the scale starts.
    errors = {level: float(math.sqrt(covariance_free[free.index(level)][free.index(level)])) for level in free}
    errors[ANCHOR] = 0.0
    # Neighbouring levels: how far apart, and how surely (the anchor's μ is fixed, the others' covary).
    levels = levels_of(x)
    gaps = {}
    for weaker, stronger in itertools.pairwise(present):
        difference = np.zeros(len(free))
        for level, sign in ((stronger, 1.0), (weaker, -1.0)):
            if level in free:
                difference[free.index(level)] = sign
        se = math.sqrt(float(difference @ covariance_free @ difference))
        gap = levels[stronger].mu - levels[weaker].mu
        gaps[f"{weaker}–{stronger}"] = {"gap": round(gap, 2), "se": round(se, 2), "z": round(gap / se, 1)}
    return levels, errors, gaps


def fitted(matches: Sequence[Match]) -> tuple[Levels, dict[str, dict[str, float]]]:
    """The fit with each level's σ its standard error (two passes: the σ enter the models' scale), and the
    gaps between neighbouring levels."""
    _, errors, _ = fit(matches)
    levels, errors, gaps = fit(matches, errors)
    return {level: Rating(r.mu, errors[level]) for level, r in levels.items()}, gaps


# --- calibration --------------------------------------------------------------------------------------


@dataclasses.dataclass
class Cell:
    """One prediction checked against the run: a level's first places in a line-up, or one level
    finishing ahead of another in a line-up."""

    family: Family
    lineup: tuple[str, ...]
    what: str
    predicted_before: list[float] = dataclasses.field(default_factory=list)
    predicted_after: list[float] = dataclasses.field(default_factory=list)
    outcomes: dict[int, list[float]] = dataclasses.field(default_factory=lambda: defaultdict(list))
    """Observed outcomes (1, 0, or a tie's share) by deal."""

    def observed(self) -> dict[str, float]:
        """The share, its deal-clustered standard error, the design effect and a 95% Wilson interval on
        the effective number of matches."""
        values = [v for deal in self.outcomes.values() for v in deal]
        n = len(values)
        p = sum(values) / n
        deal_sums = [sum(deal) - p * len(deal) for deal in self.outcomes.values()]
        clusters = len(deal_sums)
        variance = clusters / (clusters - 1) * sum(s * s for s in deal_sums) / n**2
        binomial = p * (1 - p) / n
        design = variance / binomial if binomial > 0 else 1.0
        # Duplicate deals can make a share steadier than independent matches would (design effect below 1),
        # but a few deals estimate that poorly: the interval is never narrower than the binomial one.
        low, high = wilson(p, n / max(design, 1.0))
        return {"n": n, "share": p, "se": math.sqrt(variance), "design_effect": design, "low": low, "high": high}


def wilson(p: float, n: float) -> tuple[float, float]:
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def cells_of(
    matches: Sequence[Match], before: dict[Family, Levels], after_by_fold: dict[int, dict[Family, Levels]]
) -> list[Cell]:
    cells: dict[tuple[tuple[str, ...], str], Cell] = {}

    def cell(lineup: tuple[str, ...], what: str) -> Cell:
        key = (lineup, what)
        if key not in cells:
            cells[key] = Cell(family(lineup), lineup, what)
        return cells[key]

    for m in matches:
        lineup, ranks = tuple(m["lineup"]), m["ranks"]
        fam = family(lineup)
        after = after_by_fold[m["deal"] % 2][fam]
        first = [s for s, r in enumerate(ranks) if r == min(ranks)]
        wins_before = before_first_place(before[fam], lineup)
        wins_after = first_place(after, lineup)
        for level in dict.fromkeys(lineup):
            seats = [s for s, b in enumerate(lineup) if b == level]
            c = cell(lineup, f"{level} first")
            c.predicted_before.append(sum(wins_before[s] for s in seats) / len(seats))
            c.predicted_after.append(sum(wins_after[s] for s in seats) / len(seats))
            won = sum(1 / len(first) for s in seats if s in first) / len(seats)
            c.outcomes[m["deal"]].append(won)
        if len(lineup) == 2:
            continue
        for a_level, b_level in itertools.combinations(dict.fromkeys(lineup), 2):
            c = cell(lineup, f"{a_level} ahead of {b_level}")
            pairs = [
                (a, b)
                for a in range(len(lineup))
                for b in range(len(lineup))
                if lineup[a] == a_level and lineup[b] == b_level
            ]
            c.predicted_before.append(sum(before_ahead(before[fam], lineup, a, b) for a, b in pairs) / len(pairs))
            c.predicted_after.append(sum(ahead(after, lineup, a, b) for a, b in pairs) / len(pairs))
            share = sum(1.0 if ranks[a] < ranks[b] else 0.0 if ranks[a] > ranks[b] else 0.5 for a, b in pairs) / len(
                pairs
            )
            c.outcomes[m["deal"]].append(share)
    # Heads-up, one cell per pair (the second level's first places say the same).
    return [c for c in cells.values() if not (len(c.lineup) == 2 and c.what != f"{c.lineup[0]} first")]


def check(cells: Sequence[Cell], when: str) -> dict[str, Any]:
    """How many predictions lie inside the observed 95% interval, and a χ² of all of them: each cell's
    (observed − predicted)² over the predicted share's binomial variance times the cell's design effect
    (at least 1; cells of one line-up share matches, so the χ² is a rough summary, not a test)."""
    inside, chi2 = 0, 0.0
    for c in cells:
        o = c.observed()
        predicted = float(np.mean(getattr(c, f"predicted_{when}")))
        inside += o["low"] <= predicted <= o["high"]
        variance = max(predicted * (1 - predicted), 1e-6) * max(o["design_effect"], 1.0) / o["n"]
        chi2 += (o["share"] - predicted) ** 2 / variance
    return {"cells": len(cells), "inside_95": inside, "chi2": round(chi2, 1)}


# --- fit: the report ----------------------------------------------------------------------------------


def run_fit() -> None:
    data = json.loads(RUN.read_text())
    matches: list[Match] = data["matches"]
    summary: dict[str, Any] = {
        "commands": [data["command"] + f"  # {data['cpu_seconds']} s CPU", "python benchmarks/ratings.py fit"],
        "seed": data["seed"],
        "plan": data["plan"],
        "anchor": ANCHOR,
        "matches": len(matches),
    }
    by_family: dict[Family, list[Match]] = defaultdict(list)
    for m in matches:
        by_family[family(m["lineup"])].append(m)
    final: dict[Family, Levels] = {}
    folds: dict[int, dict[Family, Levels]] = {0: {}, 1: {}}
    for fam, ms in by_family.items():
        final[fam], gaps = fitted(ms)
        for fold in (0, 1):
            folds[fold][fam], _ = fitted([m for m in ms if m["deal"] % 2 != fold])
        summary[fam] = {
            "matches": len(ms),
            "gaps": gaps,
            "levels": {
                level: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "shown": shown(round(r.mu, 2))}
                for level, r in final[fam].items()
            },
            "winner_log_loss": {
                "before": round(
                    -sum(winner_log_likelihood(before_first_place, BEFORE_LEVELS[fam], m) for m in ms) / len(ms), 4
                ),
                "after": round(
                    -sum(winner_log_likelihood(first_place, folds[1 - m["deal"] % 2][fam], m) for m in ms) / len(ms), 4
                ),
            },
        }
    summary["three_players_scale"] = three_player_scale(by_family["3-4"], final["3-4"])
    summary["spread"] = spread(final)
    cells = cells_of(matches, BEFORE_LEVELS, {0: folds[1], 1: folds[0]})
    summary["cells"] = [
        {
            "family": c.family,
            "lineup": list(c.lineup),
            "what": c.what,
            "before": round(float(np.mean(c.predicted_before)), 3),
            "after": round(float(np.mean(c.predicted_after)), 3),
        }
        | {k: round(v, 3) for k, v in c.observed().items()}
        for c in cells
    ]
    summary["check"] = {
        fam: {when: check([c for c in cells if c.family == fam], when) for when in ("before", "after")}
        for fam in ("2", "3-4")
    }
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    draw(cells, summary)
    print_tables(summary)


def winner_log_likelihood(chances_of: Any, levels: Levels, match: Match) -> float:
    """The log-probability of the match's winner (a tie for first: the mean over the tied seats)."""
    chances = chances_of(levels, match["lineup"])
    first = [s for s, r in enumerate(match["ranks"]) if r == min(match["ranks"])]
    return sum(math.log(max(chances[s], 1e-12)) for s in first) / len(first)


def three_player_scale(matches: Sequence[Match], levels: Levels) -> dict[str, Any]:
    """Do tables of three need a β of their own? The likelihood of the three-player matches with
    Plackett–Luce's scale stretched by k (the levels held at the family's fit): the best k and its 95%
    likelihood-ratio interval (k = 1: the family's one β serves both sizes)."""
    three = [m for m in matches if len(m["lineup"]) == 3]
    if not three:
        return {}
    grid = [round(0.4 + 0.01 * i, 2) for i in range(221)]
    values = [sum(log_likelihood(levels, m, k) for m in three) for k in grid]
    best = max(range(len(grid)), key=values.__getitem__)
    inside = [k for k, v in zip(grid, values, strict=True) if values[best] - v <= 1.92]  # χ²₁(95%) / 2
    return {"matches": len(three), "best_k": grid[best], "interval_95": [min(inside), max(inside)]}


def spread(final: dict[Family, Levels]) -> dict[str, float]:
    """How far apart the levels are at three or four players against heads-up (least squares over the
    levels of their distances from the anchor), and the β at three or four that would make them as far
    apart as heads-up: Plackett–Luce's odds depend on μ/β only, so the levels' μ scale with β."""
    pairs = [(final["2"][level].mu - DEFAULT_MU, final["3-4"][level].mu - DEFAULT_MU) for level in final["3-4"]]
    ratio = sum(a * b for a, b in pairs) / sum(b * b for _, b in pairs)
    return {"ratio": round(ratio, 3), "beta": round(BETA, 3), "beta_3_4_same_spread": round(BETA * ratio, 3)}


def draw(cells: Sequence[Cell], summary: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(10, 9.5))
    for row, fam in enumerate(("2", "3-4")):
        for col, when in enumerate(("before", "after")):
            ax = axes[row][col]
            ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
            for c in cells:
                if c.family != fam:
                    continue
                o = c.observed()
                predicted = float(np.mean(getattr(c, f"predicted_{when}")))
                inside = o["low"] <= predicted <= o["high"]
                marker = "o" if c.what.endswith("first") else "s"
                if fam == "2":
                    ax.annotate(
                        "–".join(c.lineup),
                        (predicted, o["share"]),
                        fontsize=7,
                        xytext=(-40, 6),
                        textcoords="offset points",
                    )
                ax.errorbar(
                    predicted,
                    o["share"],
                    yerr=[[o["share"] - o["low"]], [o["high"] - o["share"]]],
                    fmt=marker,
                    color="tab:blue" if inside else "tab:red",
                    markersize=4,
                    capsize=2,
                    linewidth=1,
                )
            result = summary["check"][fam][when]
            title = (
                "before: shipped ratings, OpenSkill predict_win" if when == "before" else "after: refit, held-out deals"
            )
            ax.set_title(
                f"{fam} players, {title}\n{result['inside_95']}/{result['cells']} inside their 95% interval", fontsize=9
            )
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel("predicted", fontsize=8)
            ax.set_ylabel("observed (95% interval, deals as clusters)", fontsize=8)
            ax.tick_params(labelsize=7)
    fig.suptitle(
        f"Bot levels: predicted against observed, seed {summary['seed']} ({summary['matches']} matches)\n"
        "● a level finishing first   ■ one level finishing ahead of another   red: outside the interval",
        fontsize=9,
    )
    fig.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=100)


def print_tables(summary: dict[str, Any]) -> None:
    for fam in ("2", "3-4"):
        report = summary[fam]
        print(f"\n### {fam} players ({report['matches']} matches)\n")
        print("| level | before: rating (μ ± σ) | after: rating (μ ± σ) |\n| --- | --- | --- |")
        for level, row in report["levels"].items():
            old = BEFORE_LEVELS[fam][level]
            new = f"{row['shown']} ({row['mu']} ± {row['sigma']})"
            print(f"| `{level}` | {old.shown} ({old.mu:.2f} ± {old.sigma:.2f}) | {new} |")
        print(f"\ngaps between neighbouring levels: {report['gaps']}")
        print(f"\nwinner log-loss (before: the shipped model; after: held-out deals): {report['winner_log_loss']}")
        print("\n| line-up | what | matches | predicted before | predicted after | observed (95%) | design effect |")
        print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
        for c in summary["cells"]:
            if c["family"] == fam:
                print(
                    f"| {', '.join(c['lineup'])} | {c['what']} | {c['n']} | {c['before']:.3f} | {c['after']:.3f} "
                    f"| {c['share']:.3f} ({c['low']:.3f}–{c['high']:.3f}) | {c['design_effect']:.2f} |"
                )
    print(f"\ncheck: {summary['check']}\nthree players: {summary['three_players_scale']}")
    print(f"spread: {summary['spread']}")
    print("\nLEVEL_RATINGS = {")
    for fam in ("2", "3-4"):
        row = ", ".join(
            f'"{level}": Rating({r["mu"]:.2f}, {r["sigma"]:.2f})' for level, r in summary[fam]["levels"].items()
        )
        print(f'    "{fam}": {{{row}}},')
    print("}")


# --- a newcomer's first matches ---------------------------------------------------------------------


def before_update(ratings: Sequence[Rating], ranks: Sequence[int], fam: Family) -> list[Rating]:
    """The shipped update: OpenSkill's, with nothing bounded."""
    model: Any = ThurstoneMostellerFull() if fam == "2" else PlackettLuce()
    after = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=[float(r) for r in ranks])
    return [Rating(t[0].mu, t[0].sigma, r.matches + 1) for t, r in zip(after, ratings, strict=True)]


def newcomer_rows(levels: dict[Family, Levels], rate: Any, provisional_sigma: float) -> list[list[str]]:
    """What a new account's first matches do: against each level (heads-up, or three bots of it as quick
    play seats them), the first win's and first loss's change, and the rating after five of either."""

    def text(r: Rating) -> str:
        return f"{r.shown}{'?' if r.sigma > provisional_sigma else ''}"

    rows = []
    for fam, players in (("2", 2), ("3-4", 4)):
        for level, bot in levels[fam].items():
            cells = [f"{fam}", f"`{level}` ({bot.shown})"]
            for won in (True, False):
                me = Rating()
                deltas = []
                for _ in range(5):
                    ranks = [1, *range(2, players + 1)] if won else [players, *range(1, players)]
                    after = rate([me] + [bot] * (players - 1), ranks, fam)[0]
                    deltas.append(after.shown - me.shown)
                    me = after
                cells += [f"{deltas[0]:+d}", text(me)]
            rows.append(cells)
    return rows


def run_newcomer() -> None:
    from chickenfoot.server.ratings.levels import LEVEL_RATINGS
    from chickenfoot.server.ratings.model import PROVISIONAL_SIGMA, update

    head = "| family | level (rating) | 1st win | after 5 wins | 1st loss | after 5 losses |"
    head += "\n| --- | --- | ---: | ---: | ---: | ---: |"
    for title, rows in (
        (
            "before (shipped levels, OpenSkill unbounded, provisional while σ > 4)",
            newcomer_rows(BEFORE_LEVELS, before_update, 4.0),
        ),
        (
            f"after (levels.py, model.update, provisional while σ > {PROVISIONAL_SIGMA})",
            newcomer_rows(LEVEL_RATINGS, update, PROVISIONAL_SIGMA),
        ),
    ):
        print(f"\n{title}\n\n{head}")
        for row in rows:
            print("| " + " | ".join(row) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("plan")
    playing = sub.add_parser("play")
    playing.add_argument("--seed", type=int, required=True)
    playing.add_argument("--resume", action="store_true", help="continue a stopped run of the same seed")
    sub.add_parser("fit")
    sub.add_parser("newcomer")
    args = parser.parse_args()
    if args.command == "plan":
        run_plan()
    elif args.command == "play":
        run_play(args.seed, args.resume)
    elif args.command == "newcomer":
        run_newcomer()
    else:
        run_fit()


if __name__ == "__main__":
    main()

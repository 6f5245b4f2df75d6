"""Fit the search's learned rollout policy to the search's own choices.

    python scripts/train_rollout.py [--rounds 120] [--players 2 4] [--iterations 10000] [--seed 1]

Rounds are played by the search itself at ``--iterations`` (rollouts by the ``heaviest`` policy, exact
endgames off); every decision among several kinds of move is kept with the move the search chose.
Moves alike in every feature (one tile on several ends of one number) are one option: the policy
cannot tell them apart, nor need it. A conditional logit (a softmax over the options of a linear
score on :data:`~chickenfoot.bots.policy.TILE_FEATURES`, :data:`~chickenfoot.bots.policy.MOVE_FEATURES`
and a pass) is fitted to the choices by Newton's method on the rounds of even number and checked on
the odd ones, against the ``heaviest`` policy's choices. The coefficients go to the package's weights file
(``src/chickenfoot/bots/rollout.json``), the fit's figures to ``benchmarks/results/rollout-training.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from chickenfoot import Round, Rules
from chickenfoot.bots import Budget, SearchBot
from chickenfoot.bots.policy import (
    HEAVIEST,
    MOVE_FEATURES,
    TILE_FEATURES,
    WEIGHTS_FILE,
    Coefficients,
    coefficients_to_json,
    move_features,
)
from chickenfoot.bots.search import best_move
from chickenfoot.move import PASS
from chickenfoot.tiles import IS_DOUBLE, PIP_SUM

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "src" / "chickenfoot" / "bots" / WEIGHTS_FILE
REPORT = ROOT / "benchmarks" / "results" / "rollout-training.json"
NAMES = (*TILE_FEATURES, *MOVE_FEATURES, "pass")
L2 = 1e-3
"""Ridge on the coefficients, per decision: keeps the Newton steps finite when a feature barely varies."""

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice of the search: a row of :data:`NAMES` per option, 1 for the one chosen (else 0)."""

    round_number: int
    players: int
    features: Matrix
    target: Matrix


def features(r: Round, code: int) -> list[float]:
    """The row of :data:`NAMES` for the legal move ``code`` of ``r``: a pass is its indicator alone."""
    if code < 0:
        return [0.0] * (len(NAMES) - 1) + [1.0 if code == PASS else 0.0]
    tile = code >> 8
    points = r.rules.double_blank_points if tile == 0 else PIP_SUM[tile]
    return [float(points), float(IS_DOUBLE[tile]), *map(float, move_features(r, code)), 0.0]


def collect(rounds: int, players: int, iterations: int, seed: int, first: int) -> list[Decision]:
    """Rounds played by the search at ``iterations``, every choice among several options kept; round
    numbers start at ``first``."""
    rng = random.Random(seed)
    bot = SearchBot(rng.getrandbits(32), Budget(iterations=iterations))
    bot.exact_endgames = False  # the solver's numbers are values of deals, not visits
    decisions = []
    for k in range(rounds):
        r = Round.deal(Rules(), players, rng.getrandbits(32))
        while not r.is_over():
            view = r.view(r.to_move)
            codes = [m.code for m in view.legal_moves]
            if len(codes) == 1:
                r.push_code(codes[0])
                continue
            chosen = best_move(bot.statistics(view))
            options = list(dict.fromkeys(tuple(features(r, c)) for c in codes))
            if len(options) > 1:
                picked = tuple(features(r, chosen))
                target = np.array([float(option == picked) for option in options])
                decisions.append(Decision(first + k, players, np.array(options, dtype=np.float64), target))
            r.push_code(chosen)
    return decisions


def fit(decisions: list[Decision], steps: int = 30) -> Matrix:
    """The coefficients that maximise the log likelihood of the choices under the conditional logit (Newton)."""
    theta = np.zeros(len(NAMES))
    for _ in range(steps):
        gradient = -2 * L2 * len(decisions) * theta
        hessian = -2 * L2 * len(decisions) * np.eye(len(NAMES))
        for d in decisions:
            q = softmax(d.features @ theta)
            gradient += d.features.T @ (d.target - q)
            mean = q @ d.features
            centred = d.features - mean
            hessian -= centred.T @ (centred * q[:, None])
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-9:
            break
    return theta


def softmax(scores: Matrix) -> Matrix:
    e: Matrix = np.exp(scores - scores.max())
    total = float(e.sum())
    return e / total


def score_rows(coefficients: Coefficients) -> Matrix:
    """A policy's coefficients on :data:`NAMES`, as the rollout scores a move."""
    return np.array([*coefficients.tile, *coefficients.move, coefficients.pass_score])


def agreement(decisions: list[Decision], theta: Matrix) -> dict[str, float]:
    """How often the policy's option (the highest score) is the search's choice."""
    same = sum(float(d.target[int(np.argmax(d.features @ theta))]) for d in decisions)
    return {"agreement": round(same / len(decisions), 4)}


def log_likelihood(decisions: list[Decision], theta: Matrix) -> float:
    """Mean log likelihood of the choices under the softmax of ``theta``."""
    total = sum(float(d.target @ np.log(softmax(d.features @ theta) + 1e-300)) for d in decisions)
    return round(total / len(decisions), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=120, help="rounds per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    decisions: list[Decision] = []
    for k, players in enumerate(args.players):
        decisions += collect(args.rounds, players, args.iterations, args.seed + k, k * args.rounds)
        elapsed = time.perf_counter() - started
        print(f"{players} players: {len(decisions)} decisions so far, {elapsed:.0f} s", flush=True)
    train = [d for d in decisions if d.round_number % 2 == 0]
    test = [d for d in decisions if d.round_number % 2 == 1]
    theta = fit(train)
    learned = Coefficients(tuple(theta[:2]), tuple(theta[2:-1]), float(theta[-1]))
    heaviest = score_rows(HEAVIEST)
    command = "python scripts/train_rollout.py " + " ".join(sys.argv[1:])
    held_out: dict[str, Any] = {"decisions": len(test)}
    for players in [None, *args.players]:
        part = [d for d in test if players in (None, d.players)]
        key = "all" if players is None else f"{players}p"
        held_out[key] = {
            "decisions": len(part),
            "learned": agreement(part, theta) | {"log_likelihood": log_likelihood(part, theta)},
            "heaviest": agreement(part, heaviest),
            "uniform": {
                "agreement": round(sum(1 / len(d.target) for d in part) / len(part), 4),
                "log_likelihood": log_likelihood(part, np.zeros(len(NAMES))),
            },
        }
    report = {
        "command": command,
        "iterations": args.iterations,
        "rounds_per_player_count": args.rounds,
        "training_decisions": len(train),
        "coefficients": coefficients_to_json(learned),
        "held_out": held_out,
        "seconds": round(time.perf_counter() - started, 1),
        "load_average": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(report, indent=1))
    WEIGHTS.write_text(
        json.dumps({"coefficients": coefficients_to_json(learned), "command": command}, indent=1) + "\n",
        encoding="utf-8",
    )
    REPORT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Move-by-move review of a match: what each move cost its player, judged from that player's own view.

For every move of the match, the seat to move's view at that moment (never a hidden tile) goes to
:func:`~chickenfoot.bots.evaluate.evaluate`, which gives each legal move's expected final round points for
every seat. A reviewed seat's move is marked by its **loss**: how much worse its expected margin
(own points minus the opponents' mean) is than the best move's, in points:

| loss (expected points) | mark |
| --- | --- |
| below 2 | good |
| 2 to 5 | inaccuracy |
| 5 to 10 | mistake |
| 10 and more | blunder |

Moves with no choice are not marked. Per round and per reviewed seat, the summary gives the
expected points lost per decision (a move with a choice), an **accuracy** — 100 × the mean over
decisions of ``exp(-loss / 10)``: 100 for best moves only, 37 for a 10-point loss on each — and
the three costliest moves with the better move.

Every move is evaluated with its own seed derived from the review's seed, round and move number,
so the same record, budget and seed give the same review, whichever seats are reviewed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chickenfoot.bots.evaluate import MoveValue, evaluate
from chickenfoot.errors import PositionError
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.round import Round

REVIEW_FORMAT = "chickenfoot-review/1"
DEFAULT_BUDGET = 200
"""Sampled deals per evaluated move (docs/library/review.md: how the marks move with it)."""
MARKS: tuple[tuple[float, str], ...] = ((10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy"), (0.0, "good"))
"""(lowest loss, mark), largest first."""
ACCURACY_SCALE = 10.0
"""Points of loss that bring a move's accuracy down to 1/e."""
COSTLIEST = 3
CHUNK = 4
"""Moves reviewed as one piece of work (each piece replays its round from the deal)."""

VERDICTS = {
    "good": Code.REVIEW_GOOD,
    "inaccuracy": Code.REVIEW_INACCURACY,
    "mistake": Code.REVIEW_MISTAKE,
    "blunder": Code.REVIEW_BLUNDER,
}
"""Each mark's verdict (``review.verdict.*``): the words a reader sees for it."""

Progress = Callable[[int, int], None]
"""Called with (moves evaluated, moves in all) as the review goes."""


def mark_for(loss: float) -> str:
    """The mark of a move that lost ``loss`` expected points."""
    return next(name for lowest, name in MARKS if loss >= lowest)


def move_seed(seed: int, round_number: int, ply: int) -> int:
    """The evaluation seed of one move: independent of which other moves are reviewed."""
    return random.Random(f"{seed}:{round_number}:{ply}").getrandbits(63)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a round: what it was expected to bring, and for reviewed choices the best move."""

    ply: int
    """Index of the move in its round (0-based)."""
    seat: int
    """The seat that made the move."""
    played: Move
    """The move it made."""
    expected: tuple[float, ...]
    """Every seat's expected final round points after the move played, seen by its mover."""
    best: Move | None = None
    """The move with the best expected margin (``None``: not reviewed, or no choice)."""
    best_expected: tuple[float, ...] | None = None
    """Every seat's expected final round points after :attr:`best`."""
    loss: float | None = None
    """Expected margin lost against the best move (``None``: not reviewed, or no choice)."""

    @property
    def mark(self) -> str | None:
        """``good``, ``inaccuracy``, ``mistake`` or ``blunder`` by :attr:`loss` (:data:`MARKS`); ``None`` when
        the move was not judged."""
        return None if self.loss is None else mark_for(self.loss)

    def verdict(self) -> Said | None:
        """The mark in words, with the better move unless the move was good (``None``: not marked)."""
        if self.loss is None or self.best is None:
            return None
        mark = mark_for(self.loss)
        if mark == "good":
            return Said.of(VERDICTS[mark], loss=self.loss)
        return Said.of(VERDICTS[mark], loss=self.loss, best=self.best.advice())

    def explanation(self) -> Said | None:
        """The mover's expected points after the move played, and after the best when it differs."""
        if self.best is None or self.best_expected is None:
            return None
        own = self.expected[self.seat]
        if self.best == self.played:
            return Said.of(Code.REVIEW_EXPECTED, seat=self.seat, own=own)
        return Said.of(Code.REVIEW_EXPECTED_BEST, seat=self.seat, own=own, best_own=self.best_expected[self.seat])

    def costly(self) -> Said:
        """One line of a costliest-moves list: the move's number, the move played, the better one, the loss."""
        best = self.best if self.best is not None else self.played
        loss = self.loss if self.loss is not None else 0.0
        return Said.of(
            Code.REVIEW_COSTLY, number=self.ply + 1, played=self.played.advice(), best=best.advice(), loss=loss
        )

    def to_dict(self) -> dict[str, Any]:
        """The move's review as JSON, as the server serves it; a judged move adds its best move, loss, mark and
        their words (as messages)."""
        data: dict[str, Any] = {
            "ply": self.ply,
            "seat": self.seat,
            "played": str(self.played),
            "expected": list(self.expected),
        }
        verdict, explanation = self.verdict(), self.explanation()
        if verdict is not None and explanation is not None and self.best_expected is not None:
            data |= {
                "best": str(self.best),
                "best_expected": list(self.best_expected),
                "loss": self.loss,
                "mark": self.mark,
                "verdict": verdict.wire(),
                "explanation": explanation.wire(),
            }
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveReview:
        """A move's review read back from :meth:`to_dict`."""
        best = data.get("best")
        return cls(
            ply=int(data["ply"]),
            seat=int(data["seat"]),
            played=Move.parse(data["played"]),
            expected=tuple(float(p) for p in data["expected"]),
            best=Move.parse(best) if best is not None else None,
            best_expected=tuple(float(p) for p in data["best_expected"]) if best is not None else None,
            loss=float(data["loss"]) if best is not None else None,
        )


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A reviewed seat's play over some moves."""

    seat: int
    """The seat."""
    decisions: int
    """Moves with a choice."""
    loss_per_move: float
    """Expected points lost per decision (0 with no decision)."""
    accuracy: float
    """100 × the mean over decisions of ``exp(-loss / 10)``: 100 for best moves only."""
    costliest: tuple[tuple[int, MoveReview], ...]
    """The costliest moves with their round numbers, worst first."""

    @classmethod
    def of(cls, seat: int, moves: Iterable[tuple[int, MoveReview]]) -> SeatSummary:
        """The summary of ``seat`` over ``moves``, each given with its round number."""
        judged = [(n, m) for n, m in moves if m.seat == seat and m.loss is not None]
        losses = [m.loss for _, m in judged if m.loss is not None]
        worst = sorted((x for x in judged if x[1].loss), key=lambda x: -(x[1].loss or 0.0))[:COSTLIEST]
        return cls(
            seat=seat,
            decisions=len(losses),
            loss_per_move=sum(losses) / len(losses) if losses else 0.0,
            accuracy=100 * sum(math.exp(-loss / ACCURACY_SCALE) for loss in losses) / len(losses) if losses else 100.0,
            costliest=tuple(worst),
        )

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON, each costliest move with its line in words (as a message)."""
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "loss_per_move": round(self.loss_per_move, 2),
            "accuracy": round(self.accuracy, 1),
            "costliest": [
                {
                    "round": n,
                    "ply": m.ply,
                    "played": str(m.played),
                    "best": str(m.best),
                    "loss": m.loss,
                    "mark": m.mark,
                    "line": m.costly().wire(),
                }
                for n, m in self.costliest
            ],
        }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """The review of one round: each of its moves in order and the points it ended with."""

    number: int
    """1-based."""
    moves: tuple[MoveReview, ...]
    """Every move of the round, in order."""
    points: tuple[int, ...] | None
    """The round's actual points (``None`` if it was not finished)."""

    def summary(self, seats: Sequence[int]) -> list[SeatSummary]:
        """Each of ``seats`` over this round."""
        return [SeatSummary.of(seat, ((self.number, m) for m in self.moves)) for seat in seats]


@dataclass(frozen=True, slots=True)
class Review:
    """A match's review: every move's expected points, marks for the reviewed seats' choices."""

    budget: int
    """Sampled deals per evaluated move."""
    seed: int
    """The seed every move's evaluation seed derives from: the same record, budget and seed give the same
    review."""
    seats: tuple[int, ...]
    """The seats whose choices are marked."""
    rounds: tuple[RoundReview, ...]
    """Every round's review, in order."""

    def summary(self) -> list[SeatSummary]:
        """Each reviewed seat over the whole match."""
        return [SeatSummary.of(seat, ((r.number, m) for r in self.rounds for m in r.moves)) for seat in self.seats]

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON (``chickenfoot-review/1``), as the server stores and serves it."""
        return {
            "format": REVIEW_FORMAT,
            "budget": self.budget,
            "seed": self.seed,
            "seats": list(self.seats),
            "rounds": [
                {
                    "round": r.number,
                    "points": list(r.points) if r.points is not None else None,
                    "moves": [m.to_dict() for m in r.moves],
                    "summary": [s.to_dict() for s in r.summary(self.seats)],
                }
                for r in self.rounds
            ],
            "summary": [s.to_dict() for s in self.summary()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Review:
        """A review read back from :meth:`to_dict` (its summaries are recomputed from the moves)."""
        if data.get("format") != REVIEW_FORMAT:
            raise PositionError(f"format must be {REVIEW_FORMAT!r}")
        try:
            return cls(
                budget=int(data["budget"]),
                seed=int(data["seed"]),
                seats=tuple(int(s) for s in data["seats"]),
                rounds=tuple(
                    RoundReview(
                        int(r["round"]),
                        tuple(MoveReview.from_dict(m) for m in r["moves"]),
                        tuple(r["points"]) if r["points"] is not None else None,
                    )
                    for r in data["rounds"]
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad review: {exc}") from None


def replay_rounds(match: Match) -> list[tuple[Round, list[Move]]]:
    """Each round of ``match`` freshly dealt (nothing played yet), with the moves that were played."""
    return [
        (Round(match.rules, hands, boneyard, start_double=played.start_double), [s.move for s in played.history])
        for played, (hands, boneyard) in zip(match.rounds, match.deals, strict=True)
    ]


def review_move(r: Round, move: Move, reviewed: bool, budget: int, seed: int) -> MoveReview:
    """The review of ``move`` by the seat to move of ``r``, from that seat's view alone."""
    seat = r.to_move
    view = r.view(seat)
    judge = reviewed and len(view.legal_moves) > 1
    values = evaluate(view, budget, seed, moves=None if judge else [move])
    played = next(v for v in values if v.move == move)
    expected = rounded(played.points)
    if not judge:
        return MoveReview(r.ply, seat, move, expected)
    best: MoveValue = values[0]
    loss = round(played.margin - best.margin, 2)
    return MoveReview(r.ply, seat, move, expected, best.move, rounded(best.points), loss)


def rounded(points: Sequence[float]) -> tuple[float, ...]:
    """Expected points to a hundredth: what is stored, so a stored review reads back the same."""
    return tuple(round(p, 2) for p in points)


def review_plies(
    match: Match, number: int, plies: range, seats: Sequence[int], budget: int, seed: int
) -> list[MoveReview]:
    """Reviews of moves ``plies`` of round ``number`` (1-based): a part of :func:`review_match`."""
    r, moves = replay_rounds(match)[number - 1]
    for move in moves[: plies.start]:
        r.push(move)
    out = []
    for move in moves[plies.start : plies.stop]:
        out.append(review_move(r, move, r.to_move in seats, budget, move_seed(seed, number, r.ply)))
        r.push(move)
    return out


def chunks(match: Match, size: int) -> list[tuple[int, range]]:
    """Every move of ``match`` as (round number, plies) pieces of at most ``size`` moves."""
    return [
        (number, range(start, min(start + size, len(played.history))))
        for number, played in enumerate(match.rounds, start=1)
        for start in range(0, len(played.history), size)
    ]


def assemble(match: Match, seats: Sequence[int], budget: int, seed: int, moves: Sequence[MoveReview]) -> Review:
    """The review of ``match`` from every move's review, in order."""
    rounds, at = [], 0
    for number, played in enumerate(match.rounds, start=1):
        count = len(played.history)
        points = tuple(played.points()) if played.is_over() else None
        rounds.append(RoundReview(number, tuple(moves[at : at + count]), points))
        at += count
    return Review(budget, seed, tuple(seats), tuple(rounds))


def reviewed_seats(match: Match, seats: Iterable[int] | None) -> tuple[int, ...]:
    """``seats`` checked and sorted (default: every seat)."""
    chosen = tuple(sorted(set(range(match.players) if seats is None else seats)))
    if any(not 0 <= s < match.players for s in chosen):
        raise ValueError(f"seats are numbered 0 to {match.players - 1}")
    return chosen


def review_match(
    match: Match,
    seats: Iterable[int] | None = None,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Review every move of ``match``; ``seats`` (default: all) get marks for their choices."""
    chosen = reviewed_seats(match, seats)
    moves: list[MoveReview] = []
    total = sum(len(r.history) for r in match.rounds)
    for number, plies in chunks(match, CHUNK):
        moves += review_plies(match, number, plies, chosen, budget, seed)
        if progress is not None:
            progress(len(moves), total)
    return assemble(match, chosen, budget, seed, moves)


__all__ = [
    "DEFAULT_BUDGET",
    "MARKS",
    "VERDICTS",
    "MoveReview",
    "Review",
    "RoundReview",
    "SeatSummary",
    "assemble",
    "chunks",
    "mark_for",
    "review_match",
    "review_plies",
    "reviewed_seats",
]

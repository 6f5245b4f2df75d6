"""The review: marks from each player's own view, reproducible, the same however it is split up."""

from __future__ import annotations

import json
import math
import random

import pytest

from chickenfoot import Match, Round, Rules
from chickenfoot.bots import make_bot
from chickenfoot.bots.policy import rollout_policy
from chickenfoot.bots.search import rollout
from chickenfoot.i18n import LANGUAGES, render_wire
from chickenfoot.knowledge import sample_deal
from chickenfoot.move import Move
from chickenfoot.review import (
    ACCURACY_SCALE,
    MARKS,
    VERDICTS,
    MoveReview,
    Review,
    RoundReview,
    SeatSummary,
    assemble,
    chunks,
    mark_for,
    move_seed,
    review_match,
    review_move,
    review_plies,
)

BUDGET = 12


def short_match(players: int, seed: int) -> Match:
    """One round between a random and greedy bots: mistakes to find, quickly."""
    match = Match(Rules(rounds=1), players, seed)
    bots = [make_bot("random" if s == 0 else "greedy", seed + s) for s in range(players)]
    while not match.is_over():
        match.push(bots[match.to_move].choose(match.round.view(match.to_move)))
    return match


def twin_rounds(seed: int) -> tuple[Round, Round, int, list[Move]]:
    """A round partly played and a twin: every tile its seat never saw dealt anew (the boneyard order
    too), the same public moves replayed, and the seat's view the same."""
    rng = random.Random(seed)
    r = Round.deal(Rules(), 3, seed)
    while len(r.placed()) < 10 + seed % 4 or len(r.legal_moves()) < 2:
        r.push(rng.choice(r.legal_moves()))
    seat = r.to_move
    view = r.view(seat)
    for _ in range(50):
        twin = sample_deal(view, rng).round
        if twin.view(seat) == view and twin.hands != r.hands:
            return r, twin, seat, [step.move for step in r.history]
    raise AssertionError("no twin deal found")


def positions(r: Round, moves: list[Move]) -> list[Round]:
    """``r`` taken back to its deal, then each position before each of ``moves``."""
    start = r.copy()
    while start.ply:
        start.pop()
    out = []
    for move in moves:
        out.append(start.copy())
        start.push(move)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_review_reads_no_hidden_tile(seed: int) -> None:
    real, twin, seat, moves = twin_rounds(seed)
    reviewed = 0
    peeks_differ = False
    for a, b, move in zip(positions(real, moves), positions(twin, moves), moves, strict=True):
        if a.to_move != seat or len(a.legal_moves()) < 2:
            continue
        assert a.view(seat) == b.view(seat)
        seed_of_move = move_seed(seed, 1, a.ply)
        assert review_move(a, move, True, BUDGET, seed_of_move) == review_move(b, move, True, BUDGET, seed_of_move)
        reviewed += 1
        # A review that peeked (played out the true deal) would tell the twins apart.
        policy = rollout_policy(a.rules)
        for code in a.legal_codes():
            x, y = a.copy(), b.copy()
            x.push_code(code)
            y.push_code(code)
            peeks_differ |= rollout(x, random.Random(1), policy) != rollout(y, random.Random(1), policy)
    assert reviewed >= 2
    assert peeks_differ


def test_same_record_budget_and_seed_give_the_same_review_however_split() -> None:
    match = short_match(2, 21)
    review = review_match(match, budget=BUDGET, seed=4)
    assert review == review_match(Match.from_record(match.record()), budget=BUDGET, seed=4)
    pieces = [m for number, plies in chunks(match, 7) for m in review_plies(match, number, plies, (0, 1), BUDGET, 4)]
    assert assemble(match, (0, 1), BUDGET, 4, pieces) == review
    other = review_match(match, budget=BUDGET, seed=5)
    assert [m.expected for m in other.rounds[0].moves] != [m.expected for m in review.rounds[0].moves]
    # Marking fewer seats changes no number, only which moves carry marks.
    one = review_match(match, seats=[0], budget=BUDGET, seed=4)
    assert [m.expected for m in one.rounds[0].moves] == [m.expected for m in review.rounds[0].moves]
    assert {m.seat for m in one.rounds[0].moves if m.mark is not None} == {0}


def test_every_move_is_reviewed_and_choices_are_marked() -> None:
    match = short_match(2, 8)
    review = review_match(match, budget=BUDGET)
    (r,) = review.rounds
    played = match.rounds[0]
    assert [m.played for m in r.moves] == [s.move for s in played.history]
    assert r.points == tuple(played.points())
    replay = Round(match.rules, *match.deals[0], start_double=played.start_double)
    for m in r.moves:
        choices = len(replay.legal_moves())
        assert (m.mark is not None) == (choices > 1)
        if m.loss is not None:
            assert m.loss >= 0 and m.best in replay.legal_moves()
            assert m.mark == mark_for(m.loss)
        replay.push(m.played)
    assert [s.decisions for s in r.summary((0, 1))] == [
        sum(m.seat == seat and m.loss is not None for m in r.moves) for seat in (0, 1)
    ]


def test_marks_and_summaries_follow_the_documented_thresholds() -> None:
    assert [mark_for(x) for x in (0, 1.99, 2, 4.99, 5, 9.99, 10, 40)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"
    ]  # fmt: skip
    assert [name for _, name in MARKS] == ["blunder", "mistake", "inaccuracy", "good"]
    moves = [
        MoveReview(ply, 0, Move.parse("draw"), (1.0, 2.0), Move.parse("pass"), (0.0, 2.0), loss)
        for ply, loss in enumerate([0.0, 3.0, 12.0, 6.0])
    ] + [MoveReview(4, 1, Move.parse("pass"), (1.0, 2.0))]
    summary = SeatSummary.of(0, ((2, m) for m in moves))
    assert summary.decisions == 4
    assert summary.loss_per_move == pytest.approx(21 / 4)
    expected = 100 * sum(math.exp(-x / ACCURACY_SCALE) for x in (0, 3, 12, 6)) / 4
    assert summary.accuracy == pytest.approx(expected)
    assert [(n, m.loss) for n, m in summary.costliest] == [(2, 12.0), (2, 6.0), (2, 3.0)]
    assert SeatSummary.of(1, ((2, m) for m in moves)).decisions == 0


def test_a_review_round_trips_through_json() -> None:
    review = review_match(short_match(2, 3), budget=BUDGET)
    data = json.loads(json.dumps(review.to_dict()))
    assert Review.from_dict(data) == review
    assert Review.from_dict(data).to_dict() == review.to_dict()
    assert data["rounds"][0]["summary"][0]["seat"] == 0
    with pytest.raises(Exception, match="format"):
        Review.from_dict({"format": "other"})
    assert isinstance(review.rounds[0], RoundReview)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_verdicts_are_messages_in_every_language(lang: str) -> None:
    """Each marked move carries its verdict and explanation as messages (the page words them); they
    render in every language with every placeholder filled, and say the mark, the loss and the better move."""
    review = review_match(short_match(2, 8), budget=BUDGET).to_dict()
    moves = [m for r in review["rounds"] for m in r["moves"] if "mark" in m]
    marks = {m["mark"] for m in moves}
    assert marks >= {"good"} and marks - {"good"}, marks  # a random bot's round has both
    for move in moves:
        verdict, explanation = move["verdict"], move["explanation"]
        assert verdict["code"] == VERDICTS[move["mark"]].id and verdict["loss"] == move["loss"]
        if move["mark"] != "good":
            assert verdict["best"] == Move.parse(move["best"]).advice().wire()
        assert explanation["seat"] == move["seat"] and explanation["own"] == move["expected"][move["seat"]]
        for said in (verdict, explanation):
            text = render_wire(said, lang, ["Ann", "Bo"])
            assert text and "{" not in text, text
    for summary in review["summary"]:
        for costly in summary["costliest"]:
            line = render_wire(costly["line"], lang, ["Ann", "Bo"])
            assert line.startswith(f"{costly['ply'] + 1}. ") and "{" not in line
    if lang != "en":
        good = next(m for m in moves if m["mark"] == "good")
        assert render_wire(good["verdict"], lang) != render_wire(good["verdict"], "en")

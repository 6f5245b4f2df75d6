"""Forced moves (docs/rules.md §7: an opening draw, a draw, a pass) are one fact of the round and its views."""

from __future__ import annotations

import random

import pytest

from chickenfoot import Round, Rules

from .helpers import build, play


def forced(round_: Round) -> str | None:
    move = round_.forced_move()
    return None if move is None else str(move)


def test_the_hub_is_placed_by_its_holder_not_made_for_them() -> None:
    r = build(["9-4 8-8 7-2", "3-3 6-1", "5-0 9-9", "2-1"], "3-1 0-0")
    assert [str(m) for m in r.legal_moves()] == ["9-9"]
    assert r.forced_move() is None and r.view(2).forced is None


def test_an_opening_draw_a_draw_and_a_pass_are_forced() -> None:
    opening = build(["9-1 2-0", "9-2 3-0"], "9-9 4-0", start=9, to_move=0)
    assert forced(opening) == "draw"
    r = play(build(["9-9 1-0", "9-1 9-2 9-3 2-0"], "3-0"), "9-9", "9-1@9-9")
    assert forced(r) == "draw"
    play(r, "draw", "9-2@9-9")
    assert forced(r) == "pass"  # the boneyard is empty and nothing fits


def test_a_drawn_tile_that_may_be_played_or_passed_is_a_choice() -> None:
    r = play(build(["9-9 1-0", "9-1 2-0"], "9-2 3-0"), "9-9", "9-1@9-9", "draw")
    assert r.drawn_tile is not None
    assert [m.kind for m in r.legal_moves()] == ["play", "pass"] and r.forced_move() is None
    must = play(build(["9-9 1-0", "9-1 2-0"], "9-2 3-0", drawn_tile="must"), "9-9", "9-1@9-9", "draw")
    assert [m.kind for m in must.legal_moves()] == ["play"] and must.forced_move() is None


@pytest.mark.parametrize("seed", range(40))
def test_forced_is_exactly_a_sole_draw_or_pass_and_only_the_mover_sees_it(seed: int) -> None:
    rules = Rules(draw_limit="until_playable" if seed % 2 else "one", drawn_tile="must" if seed % 3 else "may")
    r = Round.deal(rules, players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    while not r.is_over():
        legal = r.legal_moves()
        sole = legal[0] if len(legal) == 1 and legal[0].kind in ("draw", "pass") else None
        assert r.forced_move() == sole
        for seat in (None, *range(r.players)):
            assert r.view(seat).forced == (sole if seat == r.to_move else None)
        r.push(rng.choice(legal))
    assert r.forced_move() is None

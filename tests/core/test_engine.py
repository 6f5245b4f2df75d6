"""Engine details the rules leave free but callers rely on: reproducible deals, copies, the move cache."""

from __future__ import annotations

import random

from chickenfoot import Round, Rules
from chickenfoot.round import shuffled

from .helpers import CROSS, build, legal, play


def test_shuffle_draws_as_the_standard_library_does() -> None:
    for seed in range(300):
        for count in (28, 55, 91, 136, 190):
            expected = list(range(count))
            random.Random(seed).shuffle(expected)
            assert shuffled(count, random.Random(seed)) == expected


def test_deal_by_seed_is_the_deal_by_a_generator_seeded_alike() -> None:
    for seed in range(50):
        by_seed = Round.deal(Rules(), 4, seed=seed)
        by_rng = Round.deal(Rules(), 4, rng=random.Random(seed))
        assert by_seed.hands == by_rng.hands and by_seed.boneyard_tiles() == by_rng.boneyard_tiles()
    # Seat s gets the s-th run of the shuffled set; the rest, in order, is the boneyard.
    order = list(range(55))
    random.Random(7).shuffle(order)
    r = Round.deal(Rules(), 3, seed=7)
    assert [t.id for t in r.hand(1)] == sorted(order[9:18])
    assert [t.id for t in r.boneyard_tiles()] == order[27:]


def test_copy_is_independent_and_can_pop() -> None:
    r = play(build(["1-0 8-8 4-4", "2-0 8-7 3-3"], "6-6", CROSS, to_move=0), "1-0@9-1")
    before = legal(r)
    assert before == ["2-0@1-0", "2-0@9-2", "3-3@9-3"]
    copy = r.copy()
    play(copy, "2-0@9-2")
    assert legal(r) == before and r.ply == 1 and copy.ply == 2
    copy.pop()
    copy.pop()
    assert legal(copy) == ["1-0@9-1", "4-4@9-4"] and legal(r) == before


def test_legal_codes_follow_every_push_and_pop() -> None:
    r = build(["1-0 8-8 4-4", "2-0 8-7 3-3"], "6-6", CROSS, to_move=0)
    first = list(r.legal_codes())
    r.push_code(first[0])
    assert r.legal_codes() != first
    r.pop()
    assert r.legal_codes() == first


def test_playout_ends_the_round_and_is_reproducible() -> None:
    for seed in range(30):
        a, b = Round.deal(Rules(), 4, seed=seed), Round.deal(Rules(), 4, seed=seed)
        assert a.playout(random.Random(seed)) == b.playout(random.Random(seed))
        assert a.is_over() and a.history == b.history
        assert sum(len(a.hand(s)) for s in range(4)) + a.boneyard_size + len(a.placed()) == 55

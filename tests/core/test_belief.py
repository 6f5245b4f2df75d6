"""Belief-weighted deals: valid weights, deals that agree with the view, nothing hidden read, and on a
hand-made position the weights of the model of play, the same through the pure and compiled samplers."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

from chickenfoot import Round
from chickenfoot.belief import TEMPERATURE, Belief
from chickenfoot.bots import sampling
from chickenfoot.bots.sampling import SearchRound
from chickenfoot.knowledge import Knowledge, twin
from chickenfoot.move import Move
from chickenfoot.tiles import TILES, Tile, full_set
from chickenfoot.view import SeatView

from .helpers import build
from .test_knowledge import POSITIONS, RULES, position, violations


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@POSITIONS
def test_pool_weights_are_probabilities_over_deals_that_agree_with_the_view(
    rules: object, players: int, seed: int, plies: int
) -> None:
    r = position(rules, players, seed, plies)  # type: ignore[arg-type]
    if r.is_over():
        return
    view = r.view(r.to_move)
    knowledge = Knowledge(view)
    belief = Belief(knowledge)
    pool = belief.pool(random.Random(seed), 24)
    assert len(pool.picks) == len(pool.weights) == 24
    assert all(w >= 0 for w in pool.weights) and math.isclose(sum(pool.weights), 1.0)
    assert 1.0 - 1e-9 <= pool.effective_size() <= 24 + 1e-9
    for picks in pool.picks:
        assert len(set(picks)) == len(picks)
        assert all(tile in candidates for tile, (_, candidates) in zip(picks, knowledge.order, strict=True))
        assert_agrees(view, *knowledge.place(picks, random.Random(0)))
    # The rounds the search plays, compiled or pure, come from such deals.
    rng = random.Random(seed)
    make_round = sampling.weighted_sampler(belief, rng)
    for _ in range(8):
        sampled = make_round(rng)
        assert_agrees(view, sampled.hands, sampled.boneyard)


def assert_agrees(view: SeatView, hands: list[int], boneyard: list[int]) -> None:
    """The seat's own hand, the hand and boneyard sizes, and every draw and pass of the history."""
    assert view.seat is not None
    assert hands[view.seat] == sum(1 << t.id for t in view.hand)
    assert [h.bit_count() for h in hands] == list(view.hand_sizes) and len(boneyard) == view.boneyard_size
    assert violations(view, hands) == []


def opened() -> Round:
    """Double-6: seat 0 places the hub, seat 1 starts an arm with 6-1 although it holds 6-5."""
    r = build(
        ["6-6 0-0 1-0 2-0", "6-1 6-5 3-2 4-3"],
        "6-4 6-3 6-2 6-0 5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-2 4-1 4-0 3-3 3-1 3-0 2-2 2-1 1-1",
        start=6,
        max_pip=6,
    )
    r.push(Move.parse("6-6"))
    r.push(Move.parse("6-1@6-6"))
    return r


def chance_of_the_play(hand: tuple[Tile, ...]) -> float:
    """The model's chance that seat 1, holding 6-1 and ``hand``, plays 6-1 on the hub (any tile
    showing 6 could go there), from the pips alone."""
    z = math.exp(7 / TEMPERATURE) + sum(math.exp(t.pips / TEMPERATURE) for t in hand if t.carries(6))
    return math.exp(7 / TEMPERATURE) / z


def exact_share(unseen: list[Tile], tile: Tile, weighted: bool) -> float:
    """Seat 1's chance to hold ``tile`` among its 3 hidden tiles, over every such hand: uniform, or
    weighted by the model's chance of the play it made."""
    held = total = 0.0
    for hand in itertools.combinations(unseen, 3):
        w = chance_of_the_play(hand) if weighted else 1.0
        total += w
        held += w if tile in hand else 0.0
    return held / total


def samplers(
    knowledge: Knowledge, belief: Belief
) -> list[Callable[[random.Random], Callable[[random.Random], SearchRound]]]:
    """Ways to draw a fresh pool and sample rounds from it: the pure one, and the compiled one when built."""
    ways: list[Callable[[random.Random], Callable[[random.Random], SearchRound]]] = [lambda rng: belief.pool(rng).round]
    if sampling.COMPILED:
        ways.append(lambda rng: sampling.weighted_sampler(belief, rng))
    return ways


def test_the_weighted_sampler_prefers_deals_where_the_observed_play_was_likely() -> None:
    view = opened().view(0)
    knowledge = Knowledge(view)
    belief = Belief(knowledge)
    assert belief.informative
    unseen = [t for t in full_set(6) if view.unseen_mask() >> t.id & 1]
    heavy = Tile.parse("6-5")
    uniform, weighted = exact_share(unseen, heavy, False), exact_share(unseen, heavy, True)
    assert weighted < 0.8 * uniform  # the model makes the position informative
    # Every deal's weight is proportional to the model's chance of the play.
    pool = belief.pool(random.Random(3), 64)
    ratios = [
        w / chance_of_the_play(tuple(TILES[t] for t in picks))
        for picks, w in zip(pool.picks, pool.weights, strict=True)
    ]
    assert all(math.isclose(r, ratios[0], rel_tol=1e-9) for r in ratios)
    # Drawn by weight, seat 1 holds 6-5 about as often as the exact posterior says, through both samplers.
    for draw in samplers(knowledge, belief):
        rng = random.Random(11)
        hits = n = 0
        for _ in range(12):
            make_round = draw(rng)
            for _ in range(300):
                hits += make_round(rng).hands[1] >> heavy.id & 1
                n += 1
        assert abs(hits / n - weighted) < 0.035, (hits / n, weighted, uniform)


def test_a_pool_depends_on_the_view_alone() -> None:
    """On twin rounds (other hidden tiles, the same view) the same seed gives the same weighted pool."""
    found = 0
    for seed in range(200):
        r = position(RULES[0], 2 + seed % 3, seed, 10 + seed % 30)
        if r.is_over():
            continue
        other = twin(r, r.to_move, random.Random(seed))
        if other is None or other.hands == r.hands:
            continue
        pools = [Belief(Knowledge(x.view(r.to_move))).pool(random.Random(seed), 16) for x in (r, other)]
        assert pools[0].picks == pools[1].picks and pools[0].weights == pools[1].weights
        found += 1
        if found == 5:
            return
    raise AssertionError(f"only {found} twin positions found")


@pytest.mark.skipif(not sampling.COMPILED, reason="the compiled core is not built")
def test_the_compiled_sampler_refuses_a_belief_that_does_not_fit_its_slots() -> None:
    view = opened().view(0)
    knowledge = Knowledge(view)
    belief = Belief(knowledge)
    fast = sampling.sampler(knowledge)
    assert not isinstance(fast, type(knowledge.round))
    wrong = [dataclasses.replace(belief.choices[0], positions=(len(knowledge.order),))]
    with pytest.raises(ValueError, match="slots"):
        fast.believe(random.Random(0), 8, belief.scale, wrong, knowledge.picks)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="scale"):
        fast.believe(random.Random(0), 8, [0.0] * 28, belief.choices, knowledge.picks)  # type: ignore[attr-defined]

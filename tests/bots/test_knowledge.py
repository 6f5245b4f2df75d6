"""Sampled deals never contradict what the seat knows (checked independently of the slot model)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chickenfoot import Round, Rules
from chickenfoot.bots import knowledge, make_bot
from chickenfoot.bots.knowledge import NUMBERS, Sampler, hand_slots, known_voids
from chickenfoot.move import DRAW, PASS
from chickenfoot.tiles import Tile
from chickenfoot.view import SeatView

RULES = [
    Rules(),
    Rules(draw_limit="until_playable"),
    Rules(drawn_tile="must"),
    Rules(max_pip=6),
    Rules(hub_arms=6, max_pip=12),
]


def violations(view: SeatView, hands: list[int]) -> list[str]:
    """Facts of the public history a deal breaks, by counting: at a draw or pass with numbers N open,
    a seat held no tile showing N, so its hand now holds at most as many such tiles as it drew since."""
    found = []
    history = view.history
    for i, step in enumerate(history):
        seat = step.seat
        if seat == view.seat or step.opening:
            continue
        after_draw = i > 0 and history[i - 1].seat == seat and history[i - 1].move.code == DRAW
        if step.move.code == DRAW or (step.move.code == PASS and not after_draw):
            numbers = sum(1 << n for n in step.open_numbers)
            later_draws = sum(1 for s in history[i:] if s.seat == seat and s.move.code == DRAW)
            showing = sum(1 for t in range(len(NUMBERS)) if hands[seat] >> t & 1 and NUMBERS[t] & numbers)
            if showing > later_draws:
                found.append(f"step {i}: seat {seat} holds {showing} tiles showing {step.open_numbers}")
    return found


def position(rules: Rules, players: int, seed: int, plies: int) -> Round:
    r = Round.deal(rules, players, seed)
    bots = [make_bot("random" if s % 2 else "greedy", seed + s) for s in range(players)]
    for _ in range(plies):
        if r.is_over():
            break
        r.push(bots[r.to_move].choose(r.view(r.to_move)))
    return r


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 80),
)
def test_sampled_deals_agree_with_the_view(rules: Rules, players: int, seed: int, plies: int) -> None:
    r = position(rules, players, seed, plies)
    if r.is_over():
        return
    view = r.view(r.to_move)
    assert violations(view, r.hands) == []  # the checker accepts the truth
    sampler = Sampler(view)
    rng = random.Random(seed)
    for _ in range(5):
        hands, boneyard = sampler.sample(rng)
        assert hands[view.seat] == r.hands[view.seat]
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        assert len(boneyard) == view.boneyard_size
        unseen = view.unseen_mask()
        union = 0
        for s, h in enumerate(hands):
            if s != view.seat:
                assert not h & union and h & ~unseen == 0
                union |= h
        assert sorted([*boneyard, *(t for t in range(len(NUMBERS)) if union >> t & 1)]) == sorted(
            t for t in range(len(NUMBERS)) if unseen >> t & 1
        )
        assert violations(view, hands) == []
        sampled = sampler.round(rng)
        assert sampled.legal_codes() == r.legal_codes()


def test_a_seat_that_drew_is_known_to_lack_the_open_numbers() -> None:
    # Seat 1 cannot follow the hub's 9 and draws 1-0 (unplayable): it holds no 9 now.
    hands = [[Tile(9, 9), Tile(9, 3), Tile(5, 5)], [Tile(4, 4), Tile(8, 2)]]
    r = Round(Rules(), hands, [Tile(1, 0), Tile(6, 6), Tile(7, 3)])
    r.push(r.legal_moves()[0])
    r.push(r.legal_moves()[0])  # seat 1 draws 1-0
    assert r.to_move == 0
    view = r.view(0)
    assert known_voids(view)[1] == 1 << 9
    assert [slot.forbidden for slot in hand_slots(view)[1]] == [1 << 9] * 3
    for _ in range(20):
        hands_, _ = Sampler(view).sample(random.Random(_))
        assert not any(hands_[1] >> Tile(9, n).id & 1 for n in range(10))


def test_the_matching_fallback_also_agrees_with_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(knowledge, "SAMPLE_TRIES", 0)
    for seed in range(12):
        r = position(Rules(draw_limit="until_playable"), 5, seed, 30 + seed * 3)
        if r.is_over():
            continue
        view = r.view(r.to_move)
        hands, boneyard = Sampler(view).sample(random.Random(seed))
        assert violations(view, hands) == []
        assert [h.bit_count() for h in hands] == list(view.hand_sizes) and len(boneyard) == view.boneyard_size

"""Sampled hidden states and deals never contradict what the seat knows (checked independently of the slot model)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chickenfoot import Round, Rules, knowledge
from chickenfoot.bots import make_bot
from chickenfoot.knowledge import NUMBERS, Knowledge, SamplingError, Slot, hand_slots, known_voids, sample_deal
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


POSITIONS = given(
    rules=st.sampled_from(RULES),
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 80),
)
"""A round some plies into play (:func:`position`), under each rule set, with 2 to 5 players."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@POSITIONS
def test_sampled_deals_agree_with_the_view(rules: Rules, players: int, seed: int, plies: int) -> None:
    r = position(rules, players, seed, plies)
    if r.is_over():
        return
    view = r.view(r.to_move)
    assert violations(view, r.hands) == []  # the checker accepts the truth
    sampler = Knowledge(view)
    rng = random.Random(seed)
    for _ in range(5):
        hands, boneyard = sampler.sample(rng)
        assert hands[r.to_move] == r.hands[r.to_move]
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
        hands_, _ = Knowledge(view).sample(random.Random(_))
        assert not any(hands_[1] >> Tile(9, n).id & 1 for n in range(10))


def test_the_matching_fallback_also_agrees_with_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(knowledge, "SAMPLE_TRIES", 0)
    for seed in range(12):
        r = position(Rules(draw_limit="until_playable"), 5, seed, 30 + seed * 3)
        if r.is_over():
            continue
        view = r.view(r.to_move)
        hands, boneyard = Knowledge(view).sample(random.Random(seed))
        assert violations(view, hands) == []
        assert [h.bit_count() for h in hands] == list(view.hand_sizes) and len(boneyard) == view.boneyard_size


def admits(slots: list[Slot], hand: int) -> bool:
    """Whether the tiles of ``hand`` can be given one to each slot that allows it (a matching)."""
    tiles = [t for t in range(len(NUMBERS)) if hand >> t & 1]
    if len(tiles) != len(slots):
        return False
    owner: dict[int, int] = {}

    def augment(tile: int, seen: set[int]) -> bool:
        for index, slot in enumerate(slots):
            if index in seen or not slot.allows(tile):
                continue
            seen.add(index)
            if index not in owner or augment(owner[index], seen):
                owner[index] = tile
                return True
        return False

    return all(augment(tile, set()) for tile in tiles)


ALL_RULES = [
    *RULES,
    Rules(draw_limit="until_playable", drawn_tile="must"),
    Rules(draw_limit="until_playable", max_pip=6),
    Rules(drawn_tile="must", max_pip=6),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(ALL_RULES),
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 90),
    offset=st.integers(0, 4),
)
def test_both_samplers_agree_with_the_view(rules: Rules, players: int, seed: int, plies: int, offset: int) -> None:
    r = position(rules, players, seed, plies)
    if r.is_over():
        return
    seat = (r.to_move + offset) % players  # any seat, not only the one to move
    view = r.view(seat)
    model = Knowledge(view)
    # The model never rules out the truth.
    assert all(s == seat or admits(model.slots[s], r.hands[s]) for s in range(players))
    rng = random.Random(seed)
    # A whole deal: the public history replayed on it gives this very view.
    deal = model.deal(rng)
    assert deal.round.view(seat) == view
    assert sample_deal(view, rng).round.view(seat) == view
    # The current state: the same view but for the history it was not played through.
    sampled = model.round(rng)
    assert replace(sampled.view(seat), history=()) == replace(view, history=())
    assert violations(view, sampled.hands) == []


def opening(rules: Rules) -> Round:
    """Seat 1 draws the starting double 9-9 in the opening: it holds it and must place it now."""
    hands = [[Tile(8, 1), Tile(7, 2)], [Tile(6, 3), Tile(5, 4)]]
    first = [Tile(3, 1), Tile(4, 0), Tile(9, 9)]
    rest = [
        Tile(h, low) for h in range(10) for low in range(h + 1) if Tile(h, low) not in [*first, *hands[0], *hands[1]]
    ]
    return Round(rules, hands, first + rest)


def test_a_seat_that_drew_the_starting_double_in_the_opening_holds_it() -> None:
    r = opening(Rules())
    # Nobody holds 9-9; the opening draws start with seat (9 - 9) mod 2 = 0.
    assert r.to_move == 0
    r.push(r.legal_moves()[0])  # seat 0 draws 3-1
    r.push(r.legal_moves()[0])  # seat 1 draws 4-0
    r.push(r.legal_moves()[0])  # seat 0 draws 9-9 and must place it
    assert r.to_move == 0
    view = r.view(1)
    slots = hand_slots(view)[0]
    assert [slot.tiles == 1 << Tile(9, 9).id for slot in slots].count(True) == 1
    for seed in range(10):
        hands, boneyard = Knowledge(view).sample(random.Random(seed))
        assert hands[0] >> Tile(9, 9).id & 1 and Tile(9, 9).id not in boneyard
        assert sample_deal(view, random.Random(seed)).round.view(1) == view


def test_a_drawn_tile_drawn_past_was_unplayable_and_one_still_held_is_playable() -> None:
    # Seat 1 cannot follow the 9s: it draws 2-1 (unplayable, draws again), then the last tile 9-0: with the
    # boneyard empty it would have been handed on had it been unplayable.
    hands = [[Tile(9, 9), Tile(8, 3), Tile(5, 5)], [Tile(4, 4), Tile(8, 2)]]
    r = Round(Rules(draw_limit="until_playable"), hands, [Tile(2, 1), Tile(9, 0)])
    r.push(r.legal_moves()[0])  # the hub
    r.push(r.legal_moves()[0])  # seat 1 draws 2-1
    assert r.to_move == 1
    r.push(r.legal_moves()[0])  # seat 1 draws 9-0, still to decide
    assert r.to_move == 1 and r.view(1).drawn == Tile(9, 0)
    slots = hand_slots(r.view(0))[1]
    assert [(slot.forbidden, slot.required) for slot in slots] == [(1 << 9, 0)] * 3 + [(0, 1 << 9)]
    assert known_voids(r.view(0))[1] == 0  # the drawn tile may show a 9
    for seed in range(10):
        hands_, _ = Knowledge(r.view(0)).sample(random.Random(seed))
        nines = [t for t in range(len(NUMBERS)) if hands_[1] >> t & 1 and NUMBERS[t] >> 9 & 1]
        assert len(nines) == 1


def test_a_spectator_has_nothing_to_sample() -> None:
    r = Round.deal(Rules(), 2, 1)
    with pytest.raises(SamplingError, match="spectator"):
        Knowledge(r.view(None))


def test_the_seat_to_move_at_the_deal_holds_the_starting_double_unless_it_opens_the_draws() -> None:
    checked = 0
    for seed in range(40):
        r = Round.deal(Rules(), 3, seed)
        first = (9 - r.start_double) % 3
        start = Tile(r.start_double, r.start_double).id
        holder = r.to_move
        other = (holder + 1) % 3
        slots = hand_slots(r.view(other))
        fixed = [s for s in range(3) for slot in slots[s] if slot.tiles == 1 << start]
        assert fixed == ([holder] if holder != first else [])
        # Nobody else may hold it.
        assert all(not slot.allows(start) for s in range(3) if s != holder for slot in slots[s])
        checked += holder != first
    assert checked > 10

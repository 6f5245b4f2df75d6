"""A bot's choice depends only on its seat's view: hidden tiles and boneyard order do not matter."""

from __future__ import annotations

import inspect
import random
from dataclasses import fields

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import BOTS, Bot, Budget, make_bot
from chickenfoot.move import Move
from chickenfoot.tiles import TILES, ids_of, mask_of
from chickenfoot.view import SeatView


def replay(rules: Rules, hands: list[int], boneyard: list[int], moves: list[Move]) -> Round | None:
    r = Round.from_masks(rules, list(hands), list(boneyard), rules.max_pip)
    for move in moves:
        if not r.is_legal(move):
            return None
        r.push(move)
    return r


def twin_positions(seed: int) -> tuple[SeatView, SeatView]:
    """Two rounds that look the same to the seat to move but hide different tiles in a different order."""
    rules = Rules()
    rng = random.Random(seed)
    tiles = list(range(rules.tile_count))
    rng.shuffle(tiles)
    hands = [mask_of(tiles[s * 7 : (s + 1) * 7]) for s in range(4)]
    boneyard = tiles[28:]
    r = Round.from_masks(rules, list(hands), list(boneyard), rules.max_pip)
    greedy = make_bot("greedy", seed)
    for _ in range(14 + seed % 6):
        if r.is_over():
            break
        r.push(greedy.choose(r.view(r.to_move)))
    assert not r.is_over()
    me = r.to_move
    moves = [step.move for step in r.history]
    target = r.view(me)
    drawn = len(boneyard) - r.boneyard_size
    for _ in range(200):
        # Swap a tile still hidden in an opponent's dealt hand with one never drawn, and reshuffle the undrawn rest.
        other = rng.choice([s for s in range(4) if s != me])
        held = [t for t in ids_of(hands[other] & r.hands[other])]
        if not held:
            continue
        a, b = rng.choice(held), rng.randrange(drawn, len(boneyard))
        new_hands = list(hands)
        new_boneyard = list(boneyard)
        new_hands[other] = hands[other] & ~(1 << a) | 1 << new_boneyard[b]
        new_boneyard[b] = a
        rest = new_boneyard[drawn:]
        rng.shuffle(rest)
        new_boneyard[drawn:] = rest
        twin = replay(rules, new_hands, new_boneyard, moves)
        if twin is not None and twin.view(me) == target and twin.hands != r.hands:
            return target, twin.view(me)
    pytest.skip("no hidden swap keeps this history legal")


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("seed", range(4))
def test_choice_depends_only_on_the_view(name: str, seed: int) -> None:
    first, second = twin_positions(seed)
    budget = Budget(iterations=60)
    assert make_bot(name, 3).choose(first, budget) == make_bot(name, 3).choose(second, budget)


def test_the_bot_api_takes_a_view_never_a_round() -> None:
    for cls in {type(make_bot(name)) for name in BOTS} | {Bot}:
        params = inspect.signature(cls.choose).parameters
        assert params["view"].annotation in ("SeatView", SeatView)
    r = Round.deal(Rules(), 4, 1)
    view = r.view(0)
    assert not any(isinstance(getattr(view, f.name), Round) for f in fields(view))
    assert set(view.hand) == {TILES[t] for t in ids_of(r.hands[0])}

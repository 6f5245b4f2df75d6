"""Sampled deals agree with everything the seat saw, and do change what it could not see."""

from __future__ import annotations

import random

import pytest
from interop_helpers import random_positions

from chickenfoot.interop.features import ObservationEncoder
from chickenfoot.knowledge import SamplingError, sample_deal
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile


def test_sampled_deals_give_the_same_view_and_features() -> None:
    rng = random.Random(5)
    changed = 0
    for round_, seat in random_positions(120, seed=3):
        view = round_.view(seat)
        deal = sample_deal(view, rng)
        assert deal.round.view(seat) == view
        encoder = ObservationEncoder(round_.rules, round_.players)
        assert (encoder.encode(deal.round.view(seat)) == encoder.encode(view)).all()
        assert (encoder.action_mask(deal.round.view(seat)) == encoder.action_mask(view)).all()
        changed += deal.round.hands != round_.hands or deal.round.boneyard != round_.boneyard
    assert changed > 60, "the sampler should usually move hidden tiles"


def test_a_position_without_its_history_cannot_be_sampled() -> None:
    round_ = Round(Rules(max_pip=6), [[Tile(6, 1)], [Tile(5, 1)]], [Tile(4, 4)], layout=[(Tile(6, 6), None)])
    with pytest.raises(SamplingError, match="played from their deal"):
        sample_deal(round_.view(0), random.Random(0))
    with pytest.raises(SamplingError, match="spectator"):
        sample_deal(round_.view(None), random.Random(0))

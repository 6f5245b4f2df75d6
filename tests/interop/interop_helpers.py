"""Shared by the research-interface tests: rounds played part-way with random legal moves."""

from __future__ import annotations

import random

import pytest

from chickenfoot.round import Round
from chickenfoot.rules import Rules

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")


def random_positions(count: int, seed: int = 0) -> list[tuple[Round, int]]:
    """``count`` rounds under varied rules and table sizes, each stopped at a random point before its end,
    with a random seat to look from."""
    rng = random.Random(seed)
    rule_sets = [Rules(), Rules(draw_limit="until_playable"), Rules(drawn_tile="must"), Rules(max_pip=6, hub_arms=6)]
    positions = []
    for index in range(count):
        rules = rule_sets[index % len(rule_sets)]
        players = rng.choice([2, 3, 4, 8]) if rules.max_pip == 9 else rng.choice([2, 3, 4])
        round_ = Round.deal(rules, players, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(150)):
            if round_.is_over():
                break
            round_.push(rng.choice(round_.legal_moves()))
        if round_.is_over():
            round_.pop()
        positions.append((round_, rng.randrange(players)))
    return positions

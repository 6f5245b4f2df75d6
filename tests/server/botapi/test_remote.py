"""A seat's view rebuilt from its ``state`` message is the engine's own view of that seat."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.match import Match
from chickenfoot.remote import seat_view
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    plies=st.integers(0, 400),
    preset=st.sampled_from(["classic", "six-arms", "double-12"]),
)
def test_the_state_message_carries_the_whole_view(seed: int, players: int, plies: int, preset: str) -> None:
    match = Match(Rules.preset(preset).replace(rounds=3), players, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if match.is_over():
            break
        if match.round.is_over():
            match.next_round()
        else:
            match.push(rng.choice(match.round.legal_moves()))
    presence = Presence(
        tuple(None for _ in range(players)),
        ("human",) * players,
        (True,) * players,
        (False,) * players,
        (None,) * players,
    )
    for seat in range(players):
        view = match.view(seat)
        assert seat_view(state_for("ABCDEF", "playing", match, view, presence)) == view

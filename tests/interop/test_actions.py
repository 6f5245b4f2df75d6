"""The action numbering is a bijection with every move the engine can make."""

from __future__ import annotations

import pytest
from interop_helpers import random_positions

from chickenfoot.errors import IllegalMoveError
from chickenfoot.interop.actions import ActionCodec
from chickenfoot.move import Move


@pytest.mark.parametrize("max_pip", [6, 9, 12, 18])
def test_codec_is_a_bijection(max_pip: int) -> None:
    codec = ActionCodec(max_pip)
    assert len(set(codec.codes)) == codec.size
    for action in range(codec.size):
        assert codec.action_of(codec.move_of(action)) == action
    tiles = (max_pip + 1) * (max_pip + 2) // 2
    doubles, others = max_pip + 1, tiles - (max_pip + 1)
    assert codec.size == others * 2 * max_pip + doubles * (max_pip + 1) + 2


def test_every_legal_move_has_its_own_action() -> None:
    checked = 0
    for round_, _ in random_positions(300, seed=11):
        codec = ActionCodec.for_max_pip(round_.rules.max_pip)
        moves = round_.legal_moves()
        actions = [codec.action_of(move) for move in moves]
        assert len(set(actions)) == len(moves), "two legal moves share an action"
        assert [codec.move_of(a) for a in actions] == moves
        checked += len(moves) > 1
    assert checked > 50


def test_bad_actions_are_rejected_with_a_message() -> None:
    codec = ActionCodec.for_max_pip(9)
    with pytest.raises(IllegalMoveError, match="out of range"):
        codec.move_of(codec.size)
    with pytest.raises(IllegalMoveError, match="never be played"):
        codec.action_of(Move.parse("5-3@9-9"))

"""docs/rules.md §7: tiles and moves parse in either tile order and print canonically."""

from __future__ import annotations

import pytest

from chickenfoot.errors import NotationError
from chickenfoot.move import Move
from chickenfoot.tiles import Tile


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("9-4", "9-4"), ("4-9", "9-4"), ("12-0", "12-0"), ("0-12", "12-0"), ("6-6", "6-6"), (" 18-3 ", "18-3")],
)
def test_tile_high_number_first_input_either_order(text: str, canonical: str) -> None:
    assert str(Tile.parse(text)) == canonical
    assert Tile.parse(canonical) == Tile.parse(text)


@pytest.mark.parametrize(
    ("text", "canonical", "kind"),
    [
        ("9-9", "9-9", "hub"),
        ("9-4@9-9", "9-4@9-9", "play"),
        ("4-9@9-9", "9-4@9-9", "play"),
        ("4-4@4-9", "4-4@9-4", "play"),
        ("7-4@4-4", "7-4@4-4", "play"),
        ("4-7@4-4", "7-4@4-4", "play"),
        ("draw", "draw", "draw"),
        ("pass", "pass", "pass"),
    ],
)
def test_move_round_trip_is_canonical(text: str, canonical: str, kind: str) -> None:
    move = Move.parse(text)
    assert str(move) == canonical and move.kind == kind
    assert Move.parse(str(move)) == move


def test_move_parts() -> None:
    move = Move.parse("4-9@9-9")
    assert (move.tile, move.target) == (Tile(9, 4), Tile(9, 9))
    hub = Move.parse("9-9")
    assert (hub.tile, hub.target) == (Tile(9, 9), None)
    assert (Move.parse("draw").tile, Move.parse("pass").target) == (None, None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("9-4", "needs @TARGET"),
        ("9-9@9-9", "cannot go on itself"),
        ("9-4@", "bad tile"),
        ("19-4@9-9", "up to 18"),
        ("9-x", "expected H-H"),
        ("", "expected H-H"),
        ("Draw", "expected H-H"),
        ("9--4@9-9", "bad tile"),
        ("-1-4@9-9", "bad tile"),
        ("٩-4@9-9", "bad tile"),
    ],
)
def test_bad_notation_is_a_one_line_error(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem) as info:
        Move.parse(text)
    assert "\n" not in str(info.value)


def test_every_tile_and_move_of_a_double_18_set_round_trips() -> None:
    tiles = [Tile(h, low) for h in range(19) for low in range(h + 1)]
    for tile in tiles:
        assert Tile.parse(f"{tile.low}-{tile.high}") == tile
    for tile in tiles[::7]:
        for target in tiles[::11]:
            if tile != target:
                text = f"{tile.low}-{tile.high}@{target.low}-{target.high}"
                assert str(Move.parse(text)) == f"{tile}@{target}"

"""docs/rules.md §8: position files round-trip, and every kind of inconsistency is named."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from chickenfoot import Move, Round, Rules
from chickenfoot.errors import PositionError
from chickenfoot.position import position_to_dict, read_position, write_position

EXAMPLE: dict[str, Any] = {
    "format": "chickenfoot-position/1",
    "rules": {
        "max_pip": 9,
        "hub_arms": 4,
        "toes": 3,
        "drawn_tile": "may",
        "draw_limit": "one",
        "double_blank_points": 50,
    },
    "start_double": 9,
    "hands": [["9-4", "8-8", "7-2"], ["3-3", "6-1"], ["5-0", "9-9"], ["2-1"]],
    "boneyard": ["3-1", "0-0"],
    "layout": [],
    "to_move": 2,
    "drawn": None,
}

# Mid-round: a cross on 9-9 and a foot on 4-4 with one toe; seat 1 to move.
FOOT: dict[str, Any] = {
    **EXAMPLE,
    "hands": [["8-8", "7-2"], ["4-2", "6-1"], ["5-0"], ["2-1", "3-3"]],
    "boneyard": ["3-0", "0-0"],
    "layout": [
        ["9-9", None],
        ["9-1", "9-9"],
        ["9-2", "9-9"],
        ["9-3", "9-9"],
        ["9-4", "9-9"],
        ["4-4", "9-4"],
        ["4-1", "4-4"],
    ],
    "to_move": 1,
}


def with_(base: dict[str, Any], **changes: Any) -> str:
    data = copy.deepcopy(base)
    data.update(changes)
    return json.dumps(data)


def rejected(text: str) -> str:
    with pytest.raises(PositionError) as info:
        read_position(text)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_example_reads_and_writes_back_the_same() -> None:
    r = read_position(json.dumps(EXAMPLE))
    assert [str(m) for m in r.legal_moves()] == ["9-9"]
    out = json.loads(write_position(r))
    assert out == {**EXAMPLE, "hands": [["9-4", "8-8", "7-2"], ["6-1", "3-3"], ["9-9", "5-0"], ["2-1"]]} | {
        "over": False,
        "points": None,
    }
    again = read_position(write_position(r))
    assert write_position(again) == write_position(r)


def test_mid_round_position_round_trips() -> None:
    r = read_position(json.dumps(FOOT))
    assert [str(m) for m in r.legal_moves()] == ["4-2@4-4"]
    assert write_position(read_position(write_position(r))) == write_position(r)


def test_random_positions_round_trip_through_text() -> None:
    rng = random.Random(3)
    for seed in range(40):
        rules = Rules(hub_arms=rng.choice([4, 6, 8]), draw_limit=rng.choice(["one", "until_playable"]))
        r = Round.deal(rules, players=rng.randint(2, 6), seed=seed)
        for _ in range(rng.randint(0, 80)):
            if r.is_over():
                break
            r.push(rng.choice(r.legal_moves()))
        text = write_position(r)
        back = read_position(text)
        assert write_position(back) == text
        assert back.legal_moves() == r.legal_moves() and back.points() == r.points()


def test_over_and_points_are_written_once_over_and_checked_on_reading() -> None:
    r = read_position(json.dumps(EXAMPLE))
    for word in ("9-9", "draw", "9-4@9-9", "draw"):
        r.push(Move.parse(word))
    out = position_to_dict(r)
    assert out["over"] is True and out["points"] == [25, 63, 5, 7]
    assert "points [1, 2, 3, 4] do not match" in rejected(json.dumps({**out, "points": [1, 2, 3, 4]}))
    assert "over is false but the round is over" in rejected(json.dumps({**out, "over": False}))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (with_(EXAMPLE, boneyard=["3-1", "9-4"]), "tile 9-4 appears twice"),
        (with_(EXAMPLE, boneyard=["3-1", "10-0"]), "10-0 in the boneyard is above max_pip 9"),
        (with_(EXAMPLE, format="chickenfoot-position/2"), "format must be"),
        (with_(EXAMPLE, extra=1), "unknown field 'extra'"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "hand_size": 7}), "unknown rules field 'hand_size'"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "drawn_tile": "maybe"}), "drawn_tile must be"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "draw_limit": "two"}), "draw_limit must be"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "hub_arms": 5}), "hub_arms must be one of 4, 6, 8"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "max_pip": 6, "hub_arms": 8}), "cannot exceed max_pip"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "toes": 4}), "toes must be 3"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "max_pip": "9"}), "max_pip must be"),
        (with_(EXAMPLE, rules={**EXAMPLE["rules"], "double_blank_points": 2.5}), "double_blank_points must be"),
        (with_(EXAMPLE, rules=[]), "rules must be a JSON object"),
        (with_(EXAMPLE, hands=[["9-9", "1-0"]]), "at least 2 hands"),
        (with_(EXAMPLE, hands="9-9"), "at least 2 hands"),
        (with_(EXAMPLE, hands=[["9-4"], "3-3"]), "hands[1] must be a list of tiles"),
        (with_(EXAMPLE, hands=[["9-4"], [94]]), "hands[1][0]: expected a tile"),
        (with_(EXAMPLE, hands=[["9-4"], ["3-3"], ["5-0"], ["2-1"]]), "starting double 9-9 is in no hand"),
        (with_(EXAMPLE, to_move=0), "seat 2 holds the starting double 9-9 and must open"),
        (with_(EXAMPLE, to_move=4), "to_move must be a seat from 0 to 3"),
        (with_(EXAMPLE, to_move="2"), "to_move must be a whole number"),
        (with_(EXAMPLE, start_double=10), "start_double must be from 0 to 9"),
        (with_(EXAMPLE, start_double=True), "start_double must be a whole number"),
        (with_(EXAMPLE, drawn="x"), "drawn: bad tile"),
        (with_(EXAMPLE, drawn="3-1"), "drawn tile 3-1 is not in the hand of seat 2"),
        (with_(EXAMPLE, drawn="5-0"), "drawn tile 5-0 during the opening must be the starting double"),
        (with_(FOOT, layout=[["9-1", "9-9"], ["9-9", None]]), "layout must begin with the hub [9-9, null]"),
        (with_(FOOT, layout=[["5-5", None]]), "layout must begin with the hub"),
        (with_(FOOT, layout=[["9-9", None], ["9-1", None]]), "layout entry 1 (9-1) has no target"),
        (with_(FOOT, layout=[["9-9", None], ["9-1", "9-9"], ["1-0", "9-1"]]), "hub 9-9 needs 3 more arms carrying 9"),
        (with_(FOOT, layout=[*FOOT["layout"], ["3-2", "9-3"]]), "Chicken foot on 4-4: 2 more toes carrying 4"),
        (with_(FOOT, layout=[*FOOT["layout"][:5], ["5-5", "9-4"]]), "5-5 does not match the open 4 of 9-4"),
        (with_(FOOT, layout=[*FOOT["layout"][:5], ["7-6", "9-5"]]), "9-5 is not in the layout"),
        (with_(FOOT, layout=[*FOOT["layout"], ["6-6", "4-4"]]), "6-6 does not carry 4"),
        (with_(FOOT, layout=[["9-9", None], ["9-1", "9-9"], ["9-9", "9-1"]]), "tile 9-9 appears twice"),
        (with_(FOOT, layout=[["9-9", None], "9-1"]), "layout[1] must be [TILE, TARGET]"),
        (with_(FOOT, layout={}), "layout must be a list"),
        (with_(FOOT, drawn="6-1"), "drawn tile 6-1 cannot be played"),
        (with_(FOOT, over="no"), 'over is "no"'),
    ],
)
def test_inconsistent_position_is_rejected_naming_the_problem(text: str, problem: str) -> None:
    assert problem in rejected(text)


@pytest.mark.parametrize("field", list(EXAMPLE))
def test_missing_field_is_named(field: str) -> None:
    data = copy.deepcopy(EXAMPLE)
    del data[field]
    assert f"missing field {field!r}" in rejected(json.dumps(data))


def test_position_need_not_hold_a_whole_set() -> None:
    r = read_position(with_(FOOT, boneyard=[]))
    assert r.boneyard_size == 0 and [str(m) for m in r.legal_moves()] == ["4-2@4-4"]

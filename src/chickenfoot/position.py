"""The position file (docs/rules.md §8): a whole round's state, every hand visible.

>>> r = read_position('''{"format": "chickenfoot-position/1",
...   "rules": {"max_pip": 9, "hub_arms": 4, "toes": 3, "drawn_tile": "may",
...             "draw_limit": "one", "double_blank_points": 50},
...   "start_double": 9, "hands": [["9-4", "8-8", "7-2"], ["3-3", "6-1"], ["5-0", "9-9"], ["2-1"]],
...   "boneyard": ["3-1", "0-0"], "layout": [], "to_move": 2, "drawn": null}''')
>>> [str(m) for m in r.legal_moves()]
['9-9']
>>> read_position(write_position(r)).legal_moves() == r.legal_moves()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chickenfoot.errors import ChickenfootError, PositionError, quoted_english, shown
from chickenfoot.reading import list_field, load_json, object_field, same_numbers, tile, tile_list, whole_number
from chickenfoot.round import Round
from chickenfoot.rules import POSITION_RULE_FIELDS, Rules
from chickenfoot.tiles import Tile

FORMAT = "chickenfoot-position/1"
"""The ``format`` field every position file carries; a file with any other value is refused."""
_REQUIRED = ("format", "rules", "start_double", "hands", "boneyard", "layout", "to_move", "drawn")
_OPTIONAL = ("over", "points")


def _rules(value: object) -> Rules:
    value = object_field(value, "rules")
    unknown = sorted(set(value) - set(POSITION_RULE_FIELDS))
    if unknown:
        raise PositionError(f"unknown rules field {quoted_english(unknown[0])}")
    try:
        return Rules.from_dict(value)
    except ChickenfootError as exc:
        raise PositionError(f"rules: {exc}") from None


def position_from_dict(data: Mapping[str, Any]) -> Round:
    """Build and validate the round a position object describes."""
    data = object_field(data, "a position")
    for key in _REQUIRED:
        if key not in data:
            raise PositionError(f"missing field {key!r}")
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise PositionError(f"unknown field {quoted_english(unknown[0])}")
    if data["format"] != FORMAT:
        raise PositionError(f"format must be {FORMAT!r}, got {shown(data['format'])}")
    rules = _rules(data["rules"])
    hands_value = list_field(data["hands"], "hands", "at least 2 hands")
    if len(hands_value) < 2:
        raise PositionError(f"hands must hold at least 2 hands, got {len(hands_value)}")
    hands = [tile_list(hand, f"hands[{seat}]") for seat, hand in enumerate(hands_value)]
    boneyard = tile_list(data["boneyard"], "boneyard")
    layout: list[tuple[Tile, Tile | None]] = []
    for index, entry in enumerate(list_field(data["layout"], "layout", "[TILE, TARGET] entries")):
        if not isinstance(entry, list) or len(entry) != 2:
            raise PositionError(f"layout[{index}] must be [TILE, TARGET], got {shown(entry)}")
        target = None if entry[1] is None else tile(entry[1], f"layout[{index}] target")
        layout.append((tile(entry[0], f"layout[{index}]"), target))
    drawn = None if data["drawn"] is None else tile(data["drawn"], "drawn")
    round_ = Round(
        rules,
        hands,
        boneyard,
        start_double=whole_number(data["start_double"], "start_double"),
        layout=layout,
        to_move=whole_number(data["to_move"], "to_move"),
        drawn=drawn,
    )
    if "over" in data and data["over"] is not round_.is_over():
        raise PositionError(f"over is {shown(data['over'])} but the round is {'' if round_.is_over() else 'not '}over")
    if "points" in data:
        expected = round_.points() if round_.is_over() else None
        if not same_numbers(data["points"], expected):
            raise PositionError(f"points {shown(data['points'])} do not match the position ({shown(expected)})")
    return round_


def read_position(text: str) -> Round:
    """Parse a position file; raises :class:`PositionError` naming the problem."""
    return position_from_dict(load_json(text))


def _names(tiles: list[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def position_to_dict(round_: Round) -> dict[str, Any]:
    """The position object of a round, with ``over`` and ``points`` added."""
    over = round_.is_over()
    return {
        "format": FORMAT,
        "rules": round_.rules.to_dict(position_only=True),
        "start_double": round_.start_double,
        "hands": [_names(sorted(round_.hand(s), reverse=True)) for s in range(round_.players)],
        "boneyard": _names(round_.boneyard_tiles()),
        "layout": [[str(t), None if g is None else str(g)] for t, g in round_.placed()],
        "to_move": round_.to_move,
        "drawn": None if round_.drawn_tile is None else str(round_.drawn_tile),
        "over": over,
        "points": round_.points() if over else None,
    }


def write_position(round_: Round) -> str:
    """The position file of a round (JSON, UTF-8 text), one field per line."""
    fields = (f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in position_to_dict(round_).items())
    return "{\n" + ",\n".join(fields) + "\n}\n"

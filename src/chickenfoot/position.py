"""The position file (RULES.md §8): a whole round's state, every hand visible.

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

from chickenfoot.errors import ChickenfootError, PositionError
from chickenfoot.round import Round
from chickenfoot.rules import POSITION_RULE_FIELDS, Rules
from chickenfoot.tiles import Tile

FORMAT = "chickenfoot-position/1"
_REQUIRED = ("format", "rules", "start_double", "hands", "boneyard", "layout", "to_move", "drawn")
_OPTIONAL = ("over", "points")


def _tile(value: object, where: str) -> Tile:
    if not isinstance(value, str):
        raise PositionError(f'{where}: expected a tile like "9-4", got {json.dumps(value)}')
    try:
        return Tile.parse(value)
    except ChickenfootError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _tile_list(value: object, where: str) -> list[Tile]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of tiles")
    return [_tile(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{where} must be a whole number, got {json.dumps(value)}")
    return value


def _rules(value: object) -> Rules:
    if not isinstance(value, Mapping):
        raise PositionError("rules must be a JSON object")
    unknown = sorted(set(value) - set(POSITION_RULE_FIELDS))
    if unknown:
        raise PositionError(f"unknown rules field {unknown[0]!r}")
    try:
        return Rules.from_dict(value)
    except ChickenfootError as exc:
        raise PositionError(f"rules: {exc}") from None


def position_from_dict(data: Mapping[str, Any]) -> Round:
    """Build and validate the round a position object describes."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    for key in _REQUIRED:
        if key not in data:
            raise PositionError(f"missing field {key!r}")
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise PositionError(f"unknown field {unknown[0]!r}")
    if data["format"] != FORMAT:
        raise PositionError(f"format must be {FORMAT!r}, got {json.dumps(data['format'])}")
    rules = _rules(data["rules"])
    hands_value = data["hands"]
    if not isinstance(hands_value, list) or len(hands_value) < 2:
        raise PositionError("hands must be a list of at least 2 hands")
    hands = [_tile_list(hand, f"hands[{seat}]") for seat, hand in enumerate(hands_value)]
    boneyard = _tile_list(data["boneyard"], "boneyard")
    layout_value = data["layout"]
    if not isinstance(layout_value, list):
        raise PositionError("layout must be a list of [TILE, TARGET] entries")
    layout: list[tuple[Tile, Tile | None]] = []
    for index, entry in enumerate(layout_value):
        if not isinstance(entry, list) or len(entry) != 2:
            raise PositionError(f"layout[{index}] must be [TILE, TARGET]")
        target = None if entry[1] is None else _tile(entry[1], f"layout[{index}] target")
        layout.append((_tile(entry[0], f"layout[{index}]"), target))
    drawn = None if data["drawn"] is None else _tile(data["drawn"], "drawn")
    round_ = Round(
        rules,
        hands,
        boneyard,
        start_double=_int(data["start_double"], "start_double"),
        layout=layout,
        to_move=_int(data["to_move"], "to_move"),
        drawn=drawn,
    )
    if "over" in data and data["over"] is not round_.is_over():
        raise PositionError(
            f"over is {json.dumps(data['over'])} but the round is {'' if round_.is_over() else 'not '}over"
        )
    if "points" in data:
        expected = round_.points() if round_.is_over() else None
        if data["points"] != expected:
            raise PositionError(
                f"points {json.dumps(data['points'])} do not match the position ({json.dumps(expected)})"
            )
    return round_


def read_position(text: str) -> Round:
    """Parse a position file; raises :class:`PositionError` naming the problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not valid JSON: {exc}") from None
    return position_from_dict(data)


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

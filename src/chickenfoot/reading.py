"""Reading what people hand the library: files, JSON documents and numbers, strictly.

Every reader of user documents (position files, match records, saved games, options) goes through
here, so each kind of malformed input is refused the same way: one :class:`PositionError` line
that names what was wrong, and nothing half-read.

>>> load_json('{"to_move": 2}')
{'to_move': 2}
>>> load_json('{"to_move": NaN}')
Traceback (most recent call last):
...
chickenfoot.errors.PositionError: not valid JSON: NaN is not a number JSON allows
>>> whole_number(True, "to_move")
Traceback (most recent call last):
...
chickenfoot.errors.PositionError: to_move must be a whole number, got true
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from chickenfoot.errors import MAX_DIGITS, PositionError, UnreadableFile, quoted_english, shown
from chickenfoot.move import MOVE_PATTERN
from chickenfoot.tiles import MAX_PIP, TILE_PATTERN, Tile

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


MAX_BYTES = 16 * 1024 * 1024
"""The largest document read: a whole match record is a few tens of kilobytes (``/dev/zero`` is endless)."""


def read_text(file: str | Path) -> str:
    """The UTF-8 text of a file, or of standard input for ``-``."""
    name = "standard input" if str(file) == "-" else str(file)
    try:
        if str(file) == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with Path(file).expanduser().open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UnreadableFile(name, exc) from None
    if len(data) > MAX_BYTES:
        raise PositionError(f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MiB: not a position or a match")
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    """UTF-8 bytes as text; refuses anything else with the place of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PositionError(f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def _refuse(message: str) -> NoReturn:
    raise ValueError(message)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        _refuse(f"a number of {len(text.lstrip('-'))} digits is too long")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        _refuse(f"a number of {len(text)} characters is too long")
    return float(text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            _refuse(f"the field {quoted_english(key)} appears twice")
        data[key] = value
    return data


def load_json(text: str) -> Any:
    """Parse JSON strictly: no NaN or Infinity, no repeated field, numbers of at most ``MAX_DIGITS`` digits."""
    if not text.strip():
        raise PositionError("not valid JSON: the text is empty")
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=lambda name: _refuse(f"{name} is not a number JSON allows"),
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as exc:
        raise PositionError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise PositionError("not valid JSON: nested too deeply to read") from None
    except ValueError as exc:
        raise PositionError(f"not valid JSON: {exc}") from None


def whole_number(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    """A JSON whole number (not a boolean, a float or a numeric string) within ``low``..``high``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{where} must be a whole number, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if low is not None and high is not None else f"at least {low}"
        raise PositionError(f"{where} must be {bounds}, got {shown(value)}")
    return value


def parse_whole_number(text: str, where: str) -> int:
    """A whole number typed by a person: ASCII digits with an optional sign, nothing else.

    ``int()`` would also take ``٣`` (Arabic-Indic three), ``1_000`` and surrounding spaces.

    >>> parse_whole_number("-12", "the seed"), parse_whole_number(" 7 ", "rounds")
    (-12, 7)
    >>> parse_whole_number("٣", "rounds")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.PositionError: rounds must be a whole number like 12, got "\\u0663"
    """
    word = text.strip()
    if not _WHOLE_NUMBER.fullmatch(word) or len(word.lstrip("+-")) > MAX_DIGITS:
        raise PositionError(f"{where} must be a whole number like 12, got {shown(word)}")
    return int(word)


def text_field(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise PositionError(f"{where} must be a string, got {shown(value)}")
    return value


def list_field(value: object, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of {what}, got {shown(value)}")
    return value


def object_field(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(f"{where} must be a JSON object, got {shown(value)}")
    return value


def tile(value: object, where: str) -> Tile:
    """A tile written as ``"9-4"``."""
    if not isinstance(value, str):
        raise PositionError(f'{where}: expected a tile like "9-4", got {shown(value)}')
    if re.fullmatch(TILE_PATTERN, value) is None:
        raise PositionError(
            f'{where}: bad tile {quoted_english(value)}: expected two numbers like "9-4" (numbers go up to {MAX_PIP}),'
            " without spaces or leading zeros"
        )
    return Tile.parse(value)


def move_text(value: object, where: str) -> str:
    """A move written as in docs/rules.md §7 (``"9-4@9-9"``, ``"draw"``): spelled as files spell it."""
    text = text_field(value, where)
    if re.fullmatch(MOVE_PATTERN, text) is None:
        raise PositionError(
            f"{where}: bad move {quoted_english(text)}: expected H-H, TILE@TARGET, draw or pass,"
            " without spaces or leading zeros"
        )
    return text


def tile_list(value: object, where: str) -> list[Tile]:
    return [tile(item, f"{where}[{i}]") for i, item in enumerate(list_field(value, where, "tiles"))]


def same_numbers(value: object, expected: list[int] | None) -> bool:
    """JSON equality of a list of whole numbers (or null): ``1.0`` and ``true`` are not the whole number 1."""
    if expected is None or not isinstance(value, list):
        return value is expected
    return len(value) == len(expected) and all(
        type(got) is int and got == want for got, want in zip(value, expected, strict=True)
    )

"""The protocol parser against JSON-ish garbage: a message, or one line saying what was wrong, never a crash."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.protocol import (
    MoveMessage,
    client_message_schema,
    parse_client_message,
)

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
types = st.sampled_from(["move", "hint", "next_round", "ping", "Move", "", "dance"]) | json_values
messages = st.fixed_dictionaries(
    {"type": types},
    optional={"move": json_values | st.text(max_size=30), "version": json_values | st.integers(), "x": json_values},
)


def verdict(text: str | bytes) -> str | None:
    """``None`` when the parser accepts ``text``, else its error line (checked to be one clear line)."""
    try:
        parse_client_message(text)
    except Refusal as exc:
        line = str(exc)
        assert line and "\n" not in line and len(line) <= 300, line
        return line
    return None


@given(messages)
@settings(max_examples=300)
def test_message_shaped_garbage(message: dict[str, Any]) -> None:
    error = verdict(json.dumps(message))
    if error is None:
        assert message["type"] in ("move", "hint", "next_round", "ping")
    elif isinstance(message.get("move"), str) and "bad move" in error:
        assert repr(message["move"][:64]) in error  # the whole move as typed


@given(json_values)
@settings(max_examples=200)
def test_any_json_value(value: Any) -> None:
    verdict(json.dumps(value))


@given(st.binary(max_size=200) | st.text(max_size=200))
@settings(max_examples=200)
def test_bytes_and_text_that_are_not_json(data: str | bytes) -> None:
    verdict(data)


@given(st.integers(min_value=1, max_value=5000), st.sampled_from(["[", '{"a":', '[{"type":']))
@settings(max_examples=30)
def test_deep_nesting(depth: int, opener: str) -> None:
    assert verdict(opener * depth) is not None


@given(st.integers(min_value=0, max_value=4000))
@settings(max_examples=30)
def test_numbers_of_any_size(digits: int) -> None:
    version = "9" * digits or "0"
    error = verdict(f'{{"type": "move", "move": "draw", "version": {version}}}')
    assert (error is None) == (int(version) < 2**53)


def test_a_valid_move_round_trips() -> None:
    message = parse_client_message('{"type": "move", "move": "9-4@9-9", "version": 3}')
    assert message == MoveMessage(type="move", move="9-4@9-9", version=3)


def test_the_documented_schema_is_the_generated_one() -> None:
    doc = PROTOCOL_DOC.read_text()
    found = re.search(r"<!-- client-schema -->\n```json\n(.*?)\n```", doc, re.S)
    assert found, "docs/protocol.md lacks the client message schema"
    assert json.loads(found.group(1)) == client_message_schema()

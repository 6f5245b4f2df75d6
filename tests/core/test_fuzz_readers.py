"""Fuzzing the readers of people's documents: garbage and mutated documents give one PositionError line.

The position reader, the match-record reader and the saved-game reader are fed JSON-ish garbage,
valid documents with parts replaced, deleted or added at any depth, and text with bytes cut or
inserted. Whatever comes in, the reader either returns or raises :class:`PositionError` with one
short line; any other exception fails the test.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Round, Rules
from chickenfoot.errors import PositionError
from chickenfoot.position import position_to_dict, read_position, write_position
from chickenfoot.reading import decode
from chickenfoot.tui.session import Session

from .test_position import EXAMPLE, FOOT

PERFT = Path(__file__).parent / "perft"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["9-9", "9-4", "4-9@9-9", "draw", "pass", "human", "expert", "may", "one", "chickenfoot-match/1", "٣", "٣-3"]
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(WORDS)
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=25,
)


def played_round(seed: int, moves: int) -> Round:
    round_ = Round.deal(Rules(max_pip=6, hub_arms=6, drawn_tile="must"), players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if round_.is_over():
            break
        round_.push(rng.choice(round_.legal_moves()))
    return round_


def played_match(seed: int, moves: int) -> Match:
    match = Match(Rules(max_pip=6, rounds=3, draw_limit="until_playable"), players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over():
            break
        if match.round.is_over():
            match.next_round()
        match.push(rng.choice(match.legal_moves()))
    return match


POSITIONS: list[Any] = [
    EXAMPLE,
    FOOT,
    *(json.loads(path.read_text(encoding="utf-8"))["position"] for path in sorted(PERFT.glob("*.json"))),
    *(position_to_dict(played_round(seed, moves)) for seed, moves in [(1, 3), (2, 20), (3, 200)]),
]
RECORDS: list[Any] = [
    played_match(1, 10).record(),
    played_match(2, 200).record(),
    {**played_match(3, 60).record(), "seats": ["human", "easy"]},
]


def mutate(document: Any, data: st.DataObject) -> Any:
    """The document with one part, at any depth, replaced by garbage, deleted, or given a sibling."""
    document = copy.deepcopy(document)
    parent, key = None, None
    node = document
    while isinstance(node, dict | list) and node and data.draw(st.booleans(), label="deeper"):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, data.draw(st.sampled_from(keys), label="key")
        node = node[key]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
    if parent is None or key is None:
        return data.draw(json_values, label="document") if action == "replace" else document
    if action == "replace":
        parent[key] = data.draw(json_values, label="value")
    elif isinstance(parent, dict):
        if action == "delete":
            del parent[key]
        else:
            parent[data.draw(st.text(max_size=10), label="new key")] = data.draw(json_values, label="value")
    elif action == "delete":
        del parent[key]
    else:
        parent.insert(key, data.draw(json_values, label="value"))
    return document


def mutate_text(text: str, data: st.DataObject) -> str:
    """The text with a slice cut out or something inserted."""
    start = data.draw(st.integers(0, len(text)), label="start")
    if data.draw(st.booleans(), label="cut"):
        return text[:start] + text[start + data.draw(st.integers(1, 40), label="length") :]
    inserted = data.draw(st.text(max_size=8) | st.sampled_from(["[" * 5000, "9" * 5000, "NaN", '"\\ud800"', "٣"]))
    return text[:start] + inserted + text[start:]


def refused_cleanly(reader: Callable[[str], object], text: str) -> object | None:
    """What the reader returns, or ``None`` after a PositionError of one short line."""
    try:
        return reader(text)
    except PositionError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 400, message
        return None


def check_position(text: str) -> None:
    round_ = refused_cleanly(read_position, text)
    if round_ is not None:
        assert isinstance(round_, Round)
        again = read_position(write_position(round_))  # what was accepted writes back and reads the same
        assert write_position(again) == write_position(round_)


def check_record(text: str) -> None:
    match = refused_cleanly(Match.loads, text)
    if match is not None:
        assert isinstance(match, Match)
        assert Match.from_record(match.record()).record() == match.record()
    refused_cleanly(Session.loads, text)


@FUZZ
@given(json_values)
def test_garbage_json_gives_position_errors_only(value: Any) -> None:
    text = json.dumps(value)
    check_position(text)
    check_record(text)


@FUZZ
@given(st.sampled_from(POSITIONS), st.data())
def test_mutated_positions_give_position_errors_only(position: Any, data: st.DataObject) -> None:
    check_position(json.dumps(mutate(position, data)))


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_mutated_records_give_position_errors_only(record: Any, data: st.DataObject) -> None:
    check_record(json.dumps(mutate(record, data)))


@FUZZ
@given(st.sampled_from([*POSITIONS, *RECORDS]), st.data())
def test_cut_and_spliced_text_gives_position_errors_only(document: Any, data: st.DataObject) -> None:
    text = mutate_text(json.dumps(document), data)
    check_position(text)
    check_record(text)


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_give_position_errors_only(data: bytes) -> None:
    text = refused_cleanly(lambda _: decode(data, "the file"), "")
    if isinstance(text, str):
        check_position(text)
        check_record(text)


def test_the_fuzzed_documents_start_out_valid() -> None:
    """The mutations start from documents the readers accept, so they reach deep into them."""
    for position in POSITIONS:
        read_position(json.dumps(position))
    for record in RECORDS:
        Match.loads(json.dumps(record))
        Session.loads(json.dumps(record))
    assert any(Match.from_record(record).round_number > 1 for record in RECORDS)

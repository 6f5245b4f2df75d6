"""The JSON Schemas of the position file and the match record hold every file the project has and writes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Round, Rules
from chickenfoot.position import position_to_dict

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"


def validator(name: str) -> Any:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


POSITION = validator("position.schema.json")
MATCH = validator("match.schema.json")


def fixtures() -> list[tuple[Path, dict[str, Any]]]:
    """Every position the repository holds: the perft fixtures, the fuzzer's seeds, the docs' examples."""
    found = []
    for file in sorted((ROOT / "tests" / "core" / "perft").glob("*.json")):
        found.append((file, json.loads(file.read_text(encoding="utf-8"))["position"]))
    for file in sorted((ROOT / "scripts" / "fuzz" / "corpus").glob("position-*.json")):
        found.append((file, json.loads(file.read_text(encoding="utf-8"))))
    for file in sorted((ROOT / "docs" / "rules" / "examples").glob("*.json")):
        data = json.loads(file.read_text(encoding="utf-8"))
        if data["format"] == "chickenfoot-position/1":
            found.append((file, data))
    return found


FIXTURES = fixtures()


@pytest.mark.parametrize(("file", "position"), FIXTURES, ids=[str(f.relative_to(ROOT)) for f, _ in FIXTURES])
def test_every_fixture_position_is_valid(file: Path, position: dict[str, Any]) -> None:
    POSITION.validate(position)


def test_the_fixtures_are_found() -> None:
    assert len(FIXTURES) >= 13


def test_every_record_the_repository_holds_is_valid() -> None:
    files = sorted((ROOT / "scripts" / "fuzz" / "corpus").glob("record-*.json"))
    files += [f for f in (ROOT / "docs" / "rules" / "examples").glob("*.json") if "match" in f.read_text()[:60]]
    assert len(files) >= 3
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        if file.name == "record-move-not-a-string.json":  # the fuzzer's seed of a bad record
            assert not MATCH.is_valid(data)
        else:
            MATCH.validate(data)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 8),
    max_pip=st.sampled_from([9, 12, 18]),
    hub_arms=st.sampled_from([4, 6, 8]),
    drawn_tile=st.sampled_from(["may", "must"]),
    draw_limit=st.sampled_from(["one", "until_playable"]),
)
def test_every_written_position_is_valid(
    seed: int, players: int, max_pip: int, hub_arms: int, drawn_tile: str, draw_limit: str
) -> None:
    """Positions written along a random round: the deal, every eighth move (a drawn tile among them) and the end."""
    rules = Rules(max_pip=max_pip, hub_arms=hub_arms, drawn_tile=drawn_tile, draw_limit=draw_limit)  # type: ignore[arg-type]
    round_ = Round.deal(rules, players=players, seed=seed)
    rng = random.Random(seed)
    POSITION.validate(position_to_dict(round_))
    moves = 0
    while not round_.is_over():
        round_.push(rng.choice(round_.legal_moves()))
        moves += 1
        if moves % 8 == 0 or round_.drawn_tile is not None:
            POSITION.validate(position_to_dict(round_))
    POSITION.validate(position_to_dict(round_))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_every_written_record_is_valid(seed: int, players: int) -> None:
    match = Match(Rules(max_pip=6, rounds=3), players=players, seed=seed)
    rng = random.Random(seed)
    MATCH.validate(match.record())
    while not match.is_over():
        if match.round.is_over():
            MATCH.validate(match.record())
            match.next_round()
        match.push(rng.choice(match.legal_moves()))
    MATCH.validate(match.record())


def test_the_schemas_refuse_what_the_format_refuses() -> None:
    good = json.loads((ROOT / "docs" / "rules" / "examples" / "open-foot.json").read_text(encoding="utf-8"))
    assert POSITION.is_valid(good)
    for broken in (
        {**good, "format": "chickenfoot-position/2"},
        {**good, "hands": [["9-4"]]},
        {**good, "drawn": "19-4"},
        {**good, "layout": [["9-9"]]},
        {**good, "extra": 1},
        {**good, "rules": {**good["rules"], "hub_arms": 5}},
    ):
        assert not POSITION.is_valid(broken)

"""The JSON Schemas of the position file and the match record hold every file the project has and writes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Match, PositionError, Round, Rules
from chickenfoot.move import MOVE_PATTERN
from chickenfoot.position import position_to_dict, read_position
from chickenfoot.reading import move_text, tile
from chickenfoot.tiles import TILE_PATTERN

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


# --- one spelling of tiles and moves: the readers' and the schemas' ---------------------------------------

regress = pytest.importorskip("regress")


def schema_accepts(pattern: str, text: str) -> bool:
    """Whether ``text`` matches a schema's ``pattern`` as JSON Schema reads patterns: ECMA-262 (through
    regress, as check-jsonschema reads them), where ``$`` is the end of the text. Python's ``re``, which the
    ``jsonschema`` package uses, lets ``$`` match before a final newline too; the readers do not."""
    return regress.Regex(pattern).find(text) is not None


def reader_accepts(read: Any, text: str) -> bool:
    try:
        read(text, "it")
    except PositionError:
        return False
    return True


def test_the_schemas_spell_tiles_and_moves_as_the_readers_do() -> None:
    assert POSITION.schema["$defs"]["tile"]["pattern"] == TILE_PATTERN
    assert MATCH.schema["$defs"]["tile"]["pattern"] == TILE_PATTERN
    assert MATCH.schema["$defs"]["move"]["pattern"] == MOVE_PATTERN


NUMBER = st.integers(0, 20).map(str)
SPELLED_TILE = st.tuples(NUMBER, NUMBER).map("-".join)
NEAR_MISS = st.one_of(
    SPELLED_TILE.map(lambda tile: f" {tile} "),
    SPELLED_TILE.map(lambda tile: f"0{tile}"),
    SPELLED_TILE.map(lambda tile: tile.replace("-", "-0")),
    SPELLED_TILE.map(lambda tile: tile + "\n"),
    SPELLED_TILE.map(lambda tile: tile.replace("-", "--")),
    SPELLED_TILE.map(lambda tile: tile.replace("9", "٩")),
    SPELLED_TILE.map(lambda tile: tile.replace("-", "‑")),
)
TILE_TEXT = st.one_of(SPELLED_TILE, NEAR_MISS, st.text(max_size=8))
MOVE_TEXT = st.one_of(
    st.sampled_from(["draw", "pass", "Draw", " pass", "draw\n", ""]),
    TILE_TEXT,
    st.tuples(TILE_TEXT, TILE_TEXT).map("@".join),
    st.text(max_size=12),
)


@settings(max_examples=400, deadline=None)
@given(text=TILE_TEXT)
def test_a_tile_is_read_exactly_when_the_schema_accepts_it(text: str) -> None:
    assert reader_accepts(tile, text) == schema_accepts(TILE_PATTERN, text)


@settings(max_examples=400, deadline=None)
@given(text=MOVE_TEXT)
def test_a_recorded_move_is_read_exactly_when_the_schema_accepts_its_spelling(text: str) -> None:
    assert reader_accepts(move_text, text) == schema_accepts(MOVE_PATTERN, text)


@pytest.mark.parametrize("text", ["05-05", " 9-4 ", "9-4\n", "9 -4", "19-4", "9-4-1", "٩-4", ""])
def test_tiles_spelled_otherwise_are_refused_by_both(text: str) -> None:
    assert not reader_accepts(tile, text) and not schema_accepts(TILE_PATTERN, text)


@pytest.mark.parametrize("text", ["9-4", "4-9", "18-0", "0-0", "12-12"])
def test_tiles_in_either_order_are_accepted_by_both(text: str) -> None:
    assert reader_accepts(tile, text) and schema_accepts(TILE_PATTERN, text)


def test_the_rules_page_names_every_field_a_position_file_needs() -> None:
    """docs/rules.md §8 alone is enough to write a position the reader takes."""
    rules_page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = rules_page.split("## §8", 1)[1].split("\n## ", 1)[0]
    missing = [field for field in POSITION.schema["required"] if f"`{field}`" not in section]
    assert not missing, f"docs/rules.md §8 does not name {missing}"


def written_positions() -> list[tuple[str, str]]:
    """Every position file written out in a page's ``json`` block."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for block in re.findall(r"^```json\n(.*?)^```", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL):
            if '"chickenfoot-position/1"' in block:
                found.append((str(page.relative_to(ROOT)), block))
    return found


WRITTEN = written_positions()


@pytest.mark.parametrize(("page", "text"), WRITTEN, ids=[page for page, _ in WRITTEN])
def test_every_position_a_page_writes_out_is_valid_and_read(page: str, text: str) -> None:
    POSITION.validate(json.loads(text))
    read_position(text)


def test_the_rules_page_writes_a_position_out() -> None:
    assert any(page == "docs/rules.md" for page, _ in WRITTEN)

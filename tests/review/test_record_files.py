"""Match records as files: unknown and mistyped fields are refused, and ``review`` and ``replay`` name
the file in their one error line, as ``play --load`` does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chickenfoot.errors import PositionError
from chickenfoot.match import Match, read_match
from chickenfoot.rules import Rules
from tui.helpers import played


def record() -> dict[str, Any]:
    return played(rounds=1).record()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"player": 2}, "unknown field 'player'"),
        ({"comment": "a good game"}, "unknown field 'comment'"),
        ({"seats": "human,greedy"}, 'seats must be a list of seat kinds, one per player (2), got "human,greedy"'),
        ({"seats": ["human"]}, "seats must be a list of seat kinds, one per player (2)"),
        ({"seats": ["human", 3]}, "seats must be a list of seat kinds"),
        ({"seed": 1.5}, "seed must be a whole number, got 1.5"),
        ({"players": "2"}, 'players must be a whole number, got "2"'),
        ({"rules": []}, "rules must be a JSON object"),
        ({"rounds": {}}, "rounds must be a list of rounds"),
    ],
)
def test_a_record_with_an_unknown_or_mistyped_field_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError) as refused:
        Match.from_record(record() | change)
    assert message in str(refused.value)


def test_a_round_with_an_unknown_field_is_refused() -> None:
    data = record()
    data["rounds"][0]["dealer"] = 0
    with pytest.raises(PositionError, match=r"^rounds\[0\]: unknown field 'dealer'$"):
        Match.from_record(data)


def test_the_fields_a_record_may_hold_are_read(tmp_path: Path) -> None:
    data = record()
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(data | {"seats": ["human", "greedy"]}))
    match, seats = read_match(saved)
    assert (match.record(), seats) == (data, ["human", "greedy"])
    plain = tmp_path / "download.json"
    plain.write_text(json.dumps(data | {"seed": None}))
    assert read_match(plain)[1] is None


def test_a_record_lost_on_time_names_the_seat_to_move_where_it_ends() -> None:
    """A server's table may end a match of two when the time of the player to move runs out: its record says
    who, and is read back as the engine's unfinished match; any other seat, or a finished round, is refused."""
    unfinished = Match(Rules(max_pip=6), 2, seed=3)
    for _ in range(3):
        unfinished.push(unfinished.legal_moves()[0])
    data, mover = unfinished.record(), unfinished.to_move
    match = Match.from_record(data | {"lost_on_time": mover})
    assert match.record() == data and not match.is_over() and match.to_move == mover
    for lost, words in ((1 - mover, f"got {1 - mover}"), (2, "from 0 to 1, got 2"), (True, "whole number, got true")):
        with pytest.raises(PositionError, match="lost_on_time must be") as refused:
            Match.from_record(data | {"lost_on_time": lost})
        assert words in str(refused.value)
    with pytest.raises(PositionError, match="lost_on_time must be the seat to move where the record ends"):
        Match.from_record(record() | {"lost_on_time": 0})  # every round played: nobody was to move


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("command", ["review", "replay"])
@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{}", "format must be 'chickenfoot-match/1'"),
        ("{", "not valid JSON"),
        (None, "unknown field 'comment'"),
    ],
)
def test_review_and_replay_name_the_file_in_their_error_line(
    tmp_path: Path, command: str, content: str | None, words: str
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record() | {"comment": "x"}) if content is None else content)
    result = run(command, str(path))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"chickenfoot: error: {path}: ") and result.stderr.count("\n") == 1
    assert words in result.stderr and "Traceback" not in result.stderr

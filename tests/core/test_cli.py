"""docs/rules.md §9: the rules tools, in-process through Typer's runner and a few through a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chickenfoot.cli import app
from chickenfoot.move import Move
from chickenfoot.perft import perft
from chickenfoot.position import read_position, write_position

from .test_position import EXAMPLE, FOOT

runner = CliRunner()
EXAMPLE_TEXT = json.dumps(EXAMPLE)
FOOT_TEXT = json.dumps(FOOT)


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code != 0
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("chickenfoot: error: ")
    assert "Traceback" not in err
    for word in words:
        assert word in err


def test_moves_one_per_line_from_stdin() -> None:
    assert invoke("moves", "-", stdin=EXAMPLE_TEXT) == (0, "9-9\n", "")
    assert invoke("moves", "-", stdin=FOOT_TEXT) == (0, "4-2@4-4\n", "")


def test_moves_from_a_file_and_none_when_over(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(EXAMPLE_TEXT, encoding="utf-8")
    assert invoke("moves", str(path))[1] == "9-9\n"
    over = invoke("apply", str(path), "9-9", "draw", "9-4@9-9", "draw")[1]
    path.write_text(over, encoding="utf-8")
    assert invoke("moves", str(path)) == (0, "", "")


def test_apply_prints_the_resulting_position() -> None:
    code, out, err = invoke("apply", "-", "9-9", "draw", stdin=EXAMPLE_TEXT)
    assert (code, err) == (0, "")
    expected = read_position(EXAMPLE_TEXT)
    for word in ("9-9", "draw"):
        expected.push(Move.parse(word))
    assert out == write_position(expected)
    assert json.loads(out)["to_move"] == 0 and json.loads(out)["hands"][3] == ["3-1", "2-1"]


def test_apply_accepts_either_tile_order() -> None:
    assert invoke("apply", "-", "9-9", "draw", "4-9@9-9", stdin=EXAMPLE_TEXT)[0] == 0


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        (["5-0@9-9"], ["illegal move 5-0@9-9", "the round opens with 9-9"]),
        (["draw"], ["illegal move draw", "has a legal play and must play"]),
        (["9-9", "pass"], ["illegal move pass", "no legal play and must draw"]),
        (["9-9", "draw", "8-8@9-9"], ["illegal move 8-8@9-9", "does not carry the hub's 9"]),
        (["9-9", "draw", "6-1@9-9"], ["illegal move 6-1@9-9", "not in the hand of seat 0"]),
        (["9-9", "draw", "9-4@9-9", "draw", "pass"], ["illegal move pass", "the round is over"]),
        (["9-9", "nonsense"], ["bad move 'nonsense'"]),
        (["9-9", "9-4"], ["bad move '9-4'", "needs @TARGET"]),
    ],
)
def test_apply_illegal_move_is_one_line_naming_it_and_why(moves: list[str], words: list[str]) -> None:
    assert_one_line_error(*invoke("apply", "-", *moves, stdin=EXAMPLE_TEXT), *words)


def test_perft_counts_sequences_of_exactly_depth_moves() -> None:
    counts = [invoke("perft", "-", str(d), stdin=EXAMPLE_TEXT)[1] for d in range(6)]
    assert counts == ["1\n", "1\n", "1\n", "1\n", "1\n", "0\n"]  # the round is over after 4 moves
    assert invoke("perft", "-", "3", stdin=FOOT_TEXT)[1] == f"{perft(read_position(FOOT_TEXT), 3)}\n"


def test_perft_divide_lines_then_the_total() -> None:
    code, out, err = invoke("perft", "-", "3", "--divide", stdin=FOOT_TEXT)
    assert (code, err) == (0, "")
    *lines, total = out.splitlines()
    split = {line.split(": ")[0]: int(line.split(": ")[1]) for line in lines}
    assert list(split) == [str(m) for m in read_position(FOOT_TEXT).legal_moves()]
    assert int(total) == sum(split.values()) == perft(read_position(FOOT_TEXT), 3)
    assert invoke("perft", "-", "0", "--divide", stdin=FOOT_TEXT)[1] == "1\n"


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (["moves", "-"], "{", ["standard input: not valid JSON"]),
        (["moves", "-"], "[]", ["a position must be a JSON object"]),
        (["moves", "/nonexistent/p.json"], None, ["cannot read /nonexistent/p.json", "No such file"]),
        (["perft", "-", "2"], json.dumps({**EXAMPLE, "to_move": 9}), ["to_move must be a seat"]),
        (["apply", "-", "9-9"], json.dumps({**EXAMPLE, "drawn": "0-0"}), ["drawn tile 0-0 is not in the hand"]),
    ],
)
def test_bad_input_is_one_line_on_stderr(args: list[str], stdin: str | None, words: list[str]) -> None:
    assert_one_line_error(*invoke(*args, stdin=stdin), *words)


def test_bad_depth_is_refused_without_a_traceback() -> None:
    for args in (["-", "two"], ["-", "--", "-1"], ["-"]):
        code, out, err = invoke("perft", *args, stdin=EXAMPLE_TEXT)
        assert code != 0 and out == "" and "Error" in err and "Traceback" not in err


def real(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_real_process_illegal_move() -> None:
    result = real("apply", "-", "9-9", "9-4@9-9", stdin=EXAMPLE_TEXT)
    assert result.returncode != 0 and result.stdout == ""
    assert result.stderr == "chickenfoot: error: illegal move 9-4@9-9: 9-4 is not in the hand of seat 3\n"


def test_real_process_perft_divide_and_bad_file() -> None:
    result = real("perft", "-", "2", "--divide", stdin=FOOT_TEXT)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == str(perft(read_position(FOOT_TEXT), 2))
    bad = real("moves", "-", stdin="{}")
    assert bad.returncode != 0 and bad.stderr == "chickenfoot: error: standard input: missing field 'format'\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["perft", "-", "two"], ["depth"]),
        (["perft", "-", "--", "-1"], ["depth"]),
        (["perft"], ["FILE"]),
        (["apply", "-"], ["MOVE"]),
        (["castle"], ["castle"]),
    ],
)
def test_real_process_usage_errors_are_one_line(args: list[str], words: list[str]) -> None:
    result = real(*args, stdin=EXAMPLE_TEXT)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.returncode, result.stdout, result.stderr, *words)


def test_real_process_plays_the_example_to_a_blocked_end() -> None:
    assert real("moves", "-", stdin=EXAMPLE_TEXT).stdout.split() == ["9-9"]
    # 9-9; seat 3 draws 3-1 (no 9); seat 0 plays 9-4; seat 1 draws the last tile, 0-0: nobody holds a 9.
    out = json.loads(real("apply", "-", "9-9", "draw", "9-4@9-9", "draw", stdin=EXAMPLE_TEXT).stdout)
    assert out["over"] is True and out["points"] == [25, 63, 5, 7]
    assert real("perft", "-", "4", stdin=EXAMPLE_TEXT).stdout.strip() == "1"
    assert real("perft", "-", "5", stdin=EXAMPLE_TEXT).stdout.strip() == "0"

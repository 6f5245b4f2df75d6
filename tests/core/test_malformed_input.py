"""Malformed position files and moves, through real ``chickenfoot`` processes: one line, a non-zero exit.

Each class of malformed input gets exactly one line on stderr naming what was wrong, nothing on
stdout, no traceback and exit code 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .test_position import EXAMPLE

Outcome = tuple[int, str, str]


def run(*args: str, stdin: bytes = b"") -> Outcome:
    result = subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], input=stdin, capture_output=True, check=False, timeout=120
    )
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def run_all(commands: dict[str, tuple[list[str], bytes]]) -> dict[str, Outcome]:
    """Several commands at once: each is a whole process start, and they wait on each other for nothing."""
    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = {name: pool.submit(run, *args, stdin=stdin) for name, (args, stdin) in commands.items()}
        return {name: future.result() for name, future in futures.items()}


def assert_one_line(result: Outcome, *words: str) -> None:
    code, out, err = result
    assert code == 1, (code, err)
    assert out == ""
    assert err.startswith("chickenfoot: error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and len(err) < 300, err
    for word in words:
        assert word in err, err


def example_with(old: str, new: str) -> bytes:
    text = json.dumps(EXAMPLE)
    assert old in text
    return text.replace(old, new, 1).encode()


FILES: list[Any] = [
    pytest.param(b"[" * 100_000 + b"]" * 100_000, ["not valid JSON: nested too deeply"], id="deeply-nested"),
    pytest.param(example_with('"to_move": 2', '"to_move": ' + "9" * 5000), ["a number of 5000 digits"], id="huge-int"),
    pytest.param(example_with('"to_move": 2', '"to_move": NaN'), ["NaN is not a number"], id="nan"),
    pytest.param(example_with('"to_move": 2', '"to_move": -Infinity'), ["-Infinity"], id="infinity"),
    pytest.param(example_with('"to_move": 2', '"to_move": 2.0'), ["to_move must be a whole number"], id="float"),
    pytest.param(
        example_with('"to_move": 2', '"to_move": "\u0663"'),
        ['to_move must be a whole number, got "\\u0663"'],
        id="arabic-indic-digit",
    ),
    pytest.param(
        example_with('"to_move": 2', '"to_move": 2, "to_move": 0'),
        ["the field 'to_move' appears twice"],
        id="repeated-field",
    ),
    pytest.param(
        example_with('"6-1"', '["6-1"]'), ['hands[1][1]: expected a tile like "9-4", got ["6-1"]'], id="deep-type"
    ),
    pytest.param(example_with('"6-1"', '"\u0666-1"'), ["hands[1][1]: bad tile"], id="arabic-indic-tile"),
    pytest.param(example_with('"6-1"', '"' + "6" * 5000 + '-1"'), ["numbers go up to 18"], id="huge-tile"),
    pytest.param(example_with('"rules": {', '"rules": {"x": [[[1]]], '), ["unknown rules field 'x'"], id="rules"),
    pytest.param(b"", ["the text is empty"], id="empty"),
    pytest.param(bytes(range(256)) * 4, ["is not UTF-8 text (byte 0x80 at offset 128)"], id="binary"),
    pytest.param(example_with('"9-4"', '"9-4\u00e9"')[:-1] + b"\xe9}", ["is not UTF-8 text"], id="bad-utf8"),
]


@pytest.fixture(scope="module")
def file_outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, bytes, Outcome]]:
    folder = tmp_path_factory.mktemp("files")
    paths = {}
    for case in FILES:
        content, _ = case.values
        paths[case.id] = folder / f"{case.id}.json"
        paths[case.id].write_bytes(content)
    outcomes = run_all({name: (["moves", str(path)], b"") for name, path in paths.items()})
    return {name: (paths[name], paths[name].read_bytes(), outcome) for name, outcome in outcomes.items()}


@pytest.mark.parametrize(("content", "words"), FILES)
def test_malformed_position_files(
    file_outcomes: dict[str, tuple[Path, bytes, Outcome]],
    request: pytest.FixtureRequest,
    content: bytes,
    words: list[str],
) -> None:
    path, after, outcome = file_outcomes[request.node.callspec.id]
    assert_one_line(outcome, str(path), *words)
    assert after == content


def test_malformed_standard_input() -> None:
    assert_one_line(run("perft", "-", "2", stdin=b"\xff\xfe{}"), "standard input is not UTF-8 text (byte 0xff")
    assert_one_line(run("apply", "-", "9-9", stdin=b'{"a": 1' * 30_000), "standard input: not valid JSON")
    assert_one_line(run("moves", "/dev/zero"), "/dev/zero is larger than 16 MiB")  # an endless file


MOVES: list[Any] = [
    ("9-4@9-9x", ["bad move '9-4@9-9x': bad tile '9-9x'"]),
    ("9-4@9-9@9-9", ["bad move '9-4@9-9@9-9'"]),
    ("@9-9", ["bad move '@9-9'"]),
    ("\u0669-\u0669", ["bad move '\u0669-\u0669'"]),
    ("9-4@" + "1" * 5000 + "-1", ["bad move '9-4@111", "(5006 characters)", "numbers go up to 18"]),
    ("9-9\x1b[2J", ["bad move '9-9\\x1b[2J'"]),
]


def test_malformed_moves_are_named_whole() -> None:
    stdin = json.dumps(EXAMPLE).encode()
    outcomes = run_all({move: (["apply", "-", "9-9", "draw", move], stdin) for move, _ in MOVES})
    for move, words in MOVES:
        assert_one_line(outcomes[move], *words)


def test_numbers_in_other_scripts_are_not_depths() -> None:
    code, out, err = run("perft", "-", "\u0663", stdin=json.dumps(EXAMPLE).encode())
    assert code == 2 and out == "" and err.count("\n") == 1 and "depth" in err and "Traceback" not in err

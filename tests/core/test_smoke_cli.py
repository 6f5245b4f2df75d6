"""The rules tools on the example position of RULES.md §8."""

import json
import subprocess
import sys

EXAMPLE = {
    "format": "chickenfoot-position/1",
    "rules": {
        "max_pip": 9,
        "hub_arms": 4,
        "toes": 3,
        "drawn_tile": "may",
        "draw_limit": "one",
        "double_blank_points": 50,
    },
    "start_double": 9,
    "hands": [["9-4", "8-8", "7-2"], ["3-3", "6-1"], ["5-0", "9-9"], ["2-1"]],
    "boneyard": ["3-1", "0-0"],
    "layout": [],
    "to_move": 2,
    "drawn": None,
}


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_example_position_plays_to_a_blocked_end() -> None:
    text = json.dumps(EXAMPLE)
    assert run("moves", "-", stdin=text).stdout.split() == ["9-9"]
    # 9-9; seat 3 draws 3-1 (no 9); seat 0 plays 9-4; seat 1 draws the last tile, 0-0: nobody holds a 9.
    result = run("apply", "-", "9-9", "draw", "9-4@9-9", "draw", stdin=text)
    out = json.loads(result.stdout)
    assert out["over"] is True and out["points"] == [25, 63, 5, 7]
    assert run("perft", "-", "4", stdin=text).stdout.strip() == "1"
    assert run("perft", "-", "5", stdin=text).stdout.strip() == "0"

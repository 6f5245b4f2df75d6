"""Bad ``chickenfoot arena`` arguments, through real processes: one line and exit code 1, before any game."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BASE = ["arena", "--bots", "easy,easy", "--rounds", "1", "--matches", "1"]


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *BASE, *args], capture_output=True, text=True, check=False, timeout=120
    )


def test_bad_arguments_get_one_line_before_any_game(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a directory", encoding="utf-8")
    cases = {
        "deep": (["--rule", "hub_arms=" + "[" * 100_000], 'hub_arms must be one of 4, 6, 8 (got "[[['),
        "digits": (["--rule", "max_pip=" + "9" * 5000], 'max_pip must be a whole number from 6 to 18 (got "999'),
        "nan": (["--rule", "max_pip=NaN"], 'max_pip must be a whole number from 6 to 18 (got "NaN")'),
        "infinite": (["--rule", "max_pip=1e999"], "max_pip must be a whole number from 6 to 18 (got Infinity)"),
        "other-script": (["--rule", "max_pip=\u0669"], 'max_pip must be a whole number from 6 to 18 (got "\\u0669")'),
        "wrong-type": (
            ["--rule", 'drawn_tile={"may": [1]}'],
            "drawn_tile must be 'may' or 'must' (got {\"may\": [1]})",
        ),
        "no-key": (["--rule", "=3"], "bad --rule '=3': expected KEY=VALUE"),
        "unknown-rule": (["--rule", "colour=red"], "unknown rules field 'colour'"),
        "out-is-a-file": (["--out", str(taken)], f"cannot write results to {taken}"),
        "matches": (["--matches", "100000000000"], "--matches must be from 1 to 1000000"),
        "workers": (["--workers", "100000000"], "--workers must be from 1 to 256"),
        "bot": (["--bots", "easy,wizard"], "unknown bot 'wizard'"),
    }
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = {name: pool.submit(arena, *args) for name, (args, _) in cases.items()}
    for name, (_, words) in cases.items():
        result = results[name].result()
        assert result.returncode == 1, (name, result.stderr)
        assert result.stdout == "", name
        assert result.stderr.startswith("chickenfoot: error: ") and result.stderr.count("\n") == 1, result.stderr
        assert words in result.stderr and len(result.stderr) < 300, (name, result.stderr)
    assert taken.read_text(encoding="utf-8") == "not a directory"


def test_a_count_in_another_script_is_a_usage_error() -> None:
    result = arena("--matches", "\u0663")  # int() would read it as 3
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert "--matches" in result.stderr and "Traceback" not in result.stderr

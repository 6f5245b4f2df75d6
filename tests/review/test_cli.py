"""``chickenfoot review`` and ``chickenfoot replay`` on match files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.review import review_match
from tui.helpers import played


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chickenfoot", *args], capture_output=True, text=True, timeout=300)


def test_review_prints_json_equal_to_the_library_and_writes_a_chart(tmp_path: Path) -> None:
    match = played(rounds=1)
    file = tmp_path / "match.json"
    file.write_text(json.dumps({**match.record(), "seats": ["human", "medium"]}))
    chart = tmp_path / "chart.png"
    result = run("review", str(file), "--budget", "6", "--json", "--chart", str(chart))
    assert result.returncode == 0, result.stderr
    # A saved game names its seats: only the human's choices are marked.
    assert json.loads(result.stdout) == review_match(match, [0], budget=6).to_dict()
    assert chart.read_bytes().startswith(b"\x89PNG")
    table = run("review", str(file), "--budget", "6", "--seats", "0,1")
    assert table.returncode == 0, table.stderr
    assert "Round 1" in table.stdout and "Accuracy" in table.stdout and "Seat 1 in the match" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json"], "cannot read"),
        (["bad.json"], "format"),
        (["match.json", "--seats", "x"], "--seats"),
        (["match.json", "--seats", "5"], "seats are numbered"),
    ],
)
def test_bad_review_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "bad.json").write_text("{}")
    (tmp_path / "match.json").write_text(played(rounds=1).dumps())
    result = run("review", *[str(tmp_path / a) if a.endswith(".json") else a for a in args])
    assert result.returncode == 1
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_review_tables_follow_lang_and_the_environment(tmp_path: Path) -> None:
    """Headings, marks and verdict words come from the catalogs: --lang, else LANGUAGE/LC_*/LANG."""
    file = tmp_path / "match.json"
    file.write_text(played(rounds=1).dumps())
    lithuanian = run("review", str(file), "--budget", "2", "--lang", "lt")
    assert lithuanian.returncode == 0, lithuanian.stderr
    for code in (Code.REVIEW_CLI_SEAT, Code.REVIEW_CLI_DECISIONS, Code.REVIEW_ACCURACY, Code.REVIEW_CLI_MARKS):
        assert render(code, "lt") in lithuanian.stdout
    assert render(Code.REVIEW_CLI_ROUND, "lt", round=1) in lithuanian.stdout
    header = render(Code.REVIEW_CLI_HEADER, "lt", count=2, seed=0)
    assert " ".join(lithuanian.stdout.split()).startswith(header)
    for english in ("Seat", "Decisions", "Accuracy", "Marks", "Costliest", "in the match", "better", "all good"):
        assert english not in lithuanian.stdout
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "lv_LV.UTF-8", "LANG": "en_GB.UTF-8"}
    latvian = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "review", str(file), "--budget", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert latvian.returncode == 0, latvian.stderr
    assert render(Code.REVIEW_ACCURACY, "lv") in latvian.stdout and "Accuracy" not in latvian.stdout
    missing = run("review", str(tmp_path / "missing.json"), "--lang", "fy")
    reason = render(Code.FILE_NOT_FOUND, "fy")
    expected = render(Code.FILE_READ_FAILED, "fy", file=str(tmp_path / "missing.json"), reason=reason)
    assert missing.returncode == 1 and missing.stderr == f"chickenfoot: error: {expected}\n"
    unknown = run("review", str(file), "--lang", "xx")
    assert unknown.returncode == 1 and unknown.stderr.startswith("chickenfoot: error: unknown language 'xx'")

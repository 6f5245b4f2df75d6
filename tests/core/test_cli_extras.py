"""Commands whose extra is missing say which one to install; the pure-Python core is announced."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chickenfoot import cli
from chickenfoot.extras import MODULES

from .test_cli import EXAMPLE_TEXT, assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_every_extra_named_is_one_of_the_package_and_installed_here() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert set(MODULES) <= set(declared)
    import importlib.util

    assert [m for modules in MODULES.values() for m in modules if importlib.util.find_spec(m) is None] == []


@pytest.mark.parametrize(
    ("args", "module", "extra"),
    [
        (["play"], "textual", "tui"),
        (["replay", "match.json"], "textual", "tui"),
        (["serve"], "fastapi", "web"),
        (["serve"], "orjson", "web"),
        (["arena", "--matches", "1"], "openskill", "arena"),
        (["arena", "--matches", "1", "--ray", "local"], "ray", "ray"),
        (["review", "match.json"], "rich", "review"),
        (["review", "match.json", "--chart", "chart.png"], "matplotlib", "review"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it_before_any_work(
    args: list[str], module: str, extra: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # match.json does not exist: the extra is checked before the file is read
    monkeypatch.setitem(sys.modules, module, None)  # what an uninstalled module looks like to import
    result = runner.invoke(cli.app, args)
    assert_one_line_error(
        result.exit_code, result.stdout, result.stderr, f"'{extra}' extra", f"pip install 'chickenfoot[{extra}]'"
    )
    assert list(tmp_path.iterdir()) == []


def test_plain_play_needs_no_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)
    result = runner.invoke(cli.app, ["play", "--plain", "--seed", "1", "--players", "2"], input="quit\n")
    assert result.exit_code == 0, result.stderr
    assert "extra" not in result.stderr


def test_the_pure_core_is_noted_once_per_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "compiled_core", lambda: False)
    cli.note_pure_core.cache_clear()
    cli.note_pure_core()
    cli.note_pure_core()
    cli.note_pure_core.cache_clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("chickenfoot: note: bots search on the pure-Python core")


def run_real(*args: str, pure: bool, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CHICKENFOOT_PURE"} | ({"CHICKENFOOT_PURE": "1"} if pure else {})
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=ROOT,
    )


def test_a_real_process_on_the_pure_core_says_so_where_bots_search(tmp_path: Path) -> None:
    arena = ("arena", "--bots", "greedy,random", "--rounds", "1", "--matches", "1")
    pure = run_real(*arena, pure=True)
    assert pure.returncode == 0, pure.stderr
    assert pure.stderr.count("pure-Python core") == 1
    assert run_real("--version", pure=True).stdout.endswith("(pure-Python core)\n")
    quiet = run_real("moves", "-", pure=True, stdin=EXAMPLE_TEXT)  # no bot searches in the rules tools
    assert quiet.returncode == 0 and quiet.stderr == ""
    if cli.compiled_core():
        assert "pure-Python" not in run_real(*arena, pure=False).stderr

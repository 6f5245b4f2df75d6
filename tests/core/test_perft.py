"""Perft on hand-built positions whose counts were worked out by hand (see each file's comment)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chickenfoot.cli import app
from chickenfoot.perft import divide, perft
from chickenfoot.position import position_from_dict

FIXTURES = sorted((Path(__file__).parent / "perft").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_fixtures_are_there() -> None:
    names = {path.stem for path in FIXTURES}
    assert names >= {"hub_phase", "open_foot", "drawn_may", "drawn_must", "until_playable", "near_blocked"}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_perft_matches_the_hand_count(path: Path) -> None:
    fixture = load(path)
    r = position_from_dict(fixture["position"])
    for depth, expected in fixture["perft"].items():
        assert perft(r, int(depth)) == expected, f"depth {depth}"
        if int(depth) >= 1:
            assert sum(count for _, count in divide(r, int(depth))) == expected


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_perft_command_matches_the_hand_count(path: Path) -> None:
    fixture = load(path)
    depth, expected = max(fixture["perft"].items(), key=lambda item: int(item[0]))
    text = json.dumps(fixture["position"])
    result = CliRunner().invoke(app, ["perft", "-", depth, "--divide"], input=text)
    assert result.exit_code == 0 and result.stdout.splitlines()[-1] == str(expected)

"""The research page's training example runs end to end, in reduced size."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "research" / "train_reinforce.py"


def test_the_training_example_trains_and_reports() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--episodes", "30", "--eval", "10"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    weights, comparison = done.stdout.splitlines()
    learned = ast.literal_eval(weights.removeprefix("weights: "))
    assert set(learned) == {"pips", "double", "draw", "pass"}
    assert any(value != 0 for value in learned.values()), "thirty rounds of training moved no weight"
    assert comparison.startswith("mean reward on 10 held-out rounds: untrained -")

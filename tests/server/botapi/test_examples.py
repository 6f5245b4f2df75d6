"""The two example clients play a whole match against each other on a real server process."""

from __future__ import annotations

from pathlib import Path

import pytest

from chickenfoot.testing.bot_accounts import example_match

pytestmark = pytest.mark.slow  # a real server process

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
MATCH_SECONDS = 600
"""A bound, not a guess at the time: the match ends long before on an idle machine (the figure is in
docs/research/bot-api.md, from benchmarks/bot_api_match.py); the test waits for the clients to exit."""


def test_the_example_clients_play_a_whole_match(tmp_path: Path) -> None:
    match = example_match(EXAMPLES, tmp_path, MATCH_SECONDS)
    assert match.client.returncode == 0, match.client.stderr
    assert match.random_bot.returncode == 0
    code = match.client.stdout.split()[1].rstrip(":")
    assert f"table {code}: winners" in match.client.stdout and f"table {code}: winners" in match.random_bot.stdout
    # Normal play prints no refusal: losing the race to ask for the next round is not one.
    assert "refused" not in match.client.stdout and "not over" not in match.client.stdout, match.client.stdout
    print(f"a whole match of the two example clients: {match.seconds:.1f} s")  # shown with pytest -s

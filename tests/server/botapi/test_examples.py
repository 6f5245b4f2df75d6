"""The two example clients play a whole match against each other on a real server process."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from chickenfoot.testing.bot_accounts import bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

pytestmark = pytest.mark.slow  # a real server process

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
MATCH_SECONDS = 600
"""A bound, not a guess at the time: the match ends long before on an idle machine (the figure is in
docs/research/bot-api.md); the test waits for the clients to exit."""


def test_the_example_clients_play_a_whole_match(tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        randomly, searching = bot_token(server, database_url, "randombot"), bot_token(server, database_url, "easybot")
        started = time.monotonic()
        hello = [sys.executable, str(EXAMPLES / "random_bot.py"), server, randomly, "1"]
        client = [sys.executable, str(EXAMPLES / "bot_client.py"), "--server", server, "--token", searching]
        client += ["--level", "easy", "--challenge", "randombot", "--matches", "1"]  # a whole classic match: 10 rounds
        with subprocess.Popen(hello, stdout=subprocess.PIPE, text=True) as random_bot:
            try:
                played = subprocess.run(client, capture_output=True, text=True, timeout=MATCH_SECONDS)
                random_out, _ = random_bot.communicate(timeout=MATCH_SECONDS)
            finally:
                random_bot.kill()
        seconds = time.monotonic() - started
    assert played.returncode == 0, played.stderr
    assert random_bot.returncode == 0
    code = played.stdout.split()[1].rstrip(":")
    assert f"table {code}: winners" in played.stdout and f"table {code}: winners" in random_out
    print(f"a whole match of the two example clients: {seconds:.1f} s")  # shown with pytest -s

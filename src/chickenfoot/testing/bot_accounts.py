"""Bot accounts on a running server, made as their owner and operator would: for tests of the Bot API."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

PASSWORD = "tile hub toe chicken"


def bot_token(server: str, database_url: str, name: str) -> str:
    """Sign up ``name`` on ``server``, make it a bot account with ``chickenfoot account bot NAME --token``
    (on the server's database), and return the token it printed."""
    signed_up = httpx.post(f"{server}/api/account/signup", json={"username": name, "password": PASSWORD})
    if signed_up.status_code != 201:
        raise RuntimeError(f"sign-up of {name!r} refused: {signed_up.text}")
    command = [sys.executable, "-m", "chickenfoot", "account", "bot", name, "--token", "--database-url", database_url]
    token = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    if not token.startswith("cfb_"):
        raise RuntimeError(f"no token printed for {name!r}: {token!r}")
    return token


@dataclass(frozen=True)
class ExampleMatch:
    """What the two example clients did in one match, and how long it took."""

    seconds: float
    """From both clients' start to both exits (the accounts were made before)."""
    client: subprocess.CompletedProcess[str]
    """``bot_client.py`` at level ``easy``, which challenged the other."""
    random_bot: subprocess.CompletedProcess[str]
    """``random_bot.py``, which accepted."""


def example_match(examples: Path, directory: Path, timeout: float) -> ExampleMatch:
    """``examples/bot_client.py`` (level ``easy``) challenges ``examples/random_bot.py`` to a whole classic match
    (10 rounds) on a fresh server process on SQLite in ``directory``; each client may take ``timeout`` seconds.

    The server runs with ``--pace 0`` (bots' and forced moves without the pauses a person's table has) and
    the per-address limits open (:data:`~chickenfoot.testing.launch.OPEN_LIMITS`: both clients play from one
    address)."""
    port, database_url = free_port(), f"sqlite+aiosqlite:///{directory / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    log = (directory / "serve.log").open("w")
    with log, served(port, database_url, pace=0, output=log, options=OPEN_LIMITS):
        randomly, searching = bot_token(server, database_url, "randombot"), bot_token(server, database_url, "easybot")
        started = time.monotonic()
        accepting = [sys.executable, str(examples / "random_bot.py"), server, randomly, "1"]
        client = [sys.executable, str(examples / "bot_client.py"), "--server", server, "--token", searching]
        client += ["--level", "easy", "--challenge", "randombot", "--matches", "1"]
        with subprocess.Popen(accepting, stdout=subprocess.PIPE, text=True) as random_bot:
            try:
                played = subprocess.run(client, capture_output=True, text=True, timeout=timeout)
                random_out, _ = random_bot.communicate(timeout=timeout)
            finally:
                random_bot.kill()
        seconds = time.monotonic() - started
    accepted = subprocess.CompletedProcess(accepting, random_bot.returncode, random_out, None)
    return ExampleMatch(seconds, played, accepted)

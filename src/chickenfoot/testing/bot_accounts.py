"""Bot accounts on a running server, made as their owner and operator would: for tests of the Bot API."""

from __future__ import annotations

import subprocess
import sys

import httpx

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

"""A real ``chickenfoot serve`` killed with SIGKILL mid-game resumes every table exactly."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from chickenfoot import Match
from chickenfoot.testing.clients import new_table
from chickenfoot.testing.launch import free_port, served

from .conftest import Player, play_out, settle

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # real server processes


class SyncSocket:
    """A websockets client with the test session's ``receive_json``/``send_json``."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.sent = 0.0

    def receive_json(self) -> Any:
        return json.loads(self.conn.recv(timeout=20))

    def send_json(self, data: Any) -> None:
        # A person's pace: the real server's rate limit (10 messages a second) stays untouched.
        time.sleep(max(0.0, self.sent + 0.1 - time.monotonic()))
        self.sent = time.monotonic()
        self.conn.send(json.dumps(data))

    def close(self) -> None:
        self.conn.close()


@contextmanager
def server(port: int, database: Path) -> Iterator[subprocess.Popen[str]]:
    with served(port, f"sqlite+aiosqlite:///{database}", output=subprocess.PIPE) as process:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"http://localhost:{port}/" in line, line
        yield process


def http(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data)
    request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def create(port: int, body: dict[str, Any]) -> dict[str, Any]:
    """A new table whose invites are claimed and whose players are ready: each human seat lists its
    player's ``token``."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        return new_table(client, body)


def seat(stack: ExitStack, port: int, code: str, token: str) -> Player:
    socket_ = SyncSocket(stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}")))
    return Player(socket_)  # type: ignore[arg-type]


def snapshot(port: int, code: str, token: str) -> tuple[int, dict[str, Any]]:
    with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}") as conn:
        message = json.loads(conn.recv(timeout=20))
    # Who is connected, and what follows from it (a bot's cover, a player's grace, a clock that
    # runs only for a player who is there), differs between the two servers' connections.
    presence = ("connected", "covered", "grace", "spectators", "devices", "turn_deadline")
    state = {k: v for k, v in message["state"].items() if k not in presence}
    return message["version"], state


def test_sigkill_mid_game_then_restart_resumes_exactly(tmp_path: Path) -> None:
    database, port = tmp_path / "games.db", free_port()
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Bo"}]
    rng = random.Random(11)
    with server(port, database) as process:
        done = create(port, {"seats": [seats[0], seats[1]], "rounds": 1})
        with ExitStack() as stack:
            play_out({0: seat(stack, port, done["code"], done["seats"][0]["token"])}, rng)
        replay = http(port, f"/api/tables/{done['code']}/record")
        table = create(port, {"seats": seats, "rounds": 2})
        code, tokens = table["code"], {s["seat"]: s["token"] for s in table["seats"] if s["kind"] == "human"}
        with ExitStack() as stack:
            players = {s: seat(stack, port, code, token) for s, token in tokens.items()}
            for _ in range(12):  # a dozen human moves into the first round
                state = settle(players)
                mover = players[state["to_move"]]
                version = mover.version
                mover.move(rng.choice(mover.state["legal"]))
                mover.until_state(lambda s, p=mover, v=version: p.version > v)
            settle(players)
            before = {s: snapshot(port, code, token) for s, token in tokens.items()}
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    assert before[0][0] > 12
    with server(port, database):
        after = {s: snapshot(port, code, token) for s, token in tokens.items()}
        assert after == before
        assert http(port, f"/api/tables/{done['code']}/record") == replay  # finished games stay as replays
        with ExitStack() as stack:
            players = {s: seat(stack, port, code, token) for s, token in tokens.items()}
            final = play_out(players, rng)
        record = http(port, f"/api/tables/{code}/record")
    assert final["match_over"] is not None
    assert Match.from_record(record).totals() == final["totals"]

"""The hidden-information audit (tests/server/test_hidden_information.py) run against the Bot API: every
line of two bot accounts' table streams and account streams, and their seat views, on a real server."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from chickenfoot import Match
from chickenfoot.testing.bot_accounts import bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from ..test_hidden_information import TILE, audit

pytestmark = pytest.mark.slow  # a real server process

STREAM = httpx.Timeout(10, read=None)


class RecordingBot:
    """A bot account playing random legal moves at one table, keeping every message it was sent."""

    def __init__(self, client: httpx.Client, code: str, seed: int) -> None:
        self.client, self.code, self.rng = client, code, random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.failure: BaseException | None = None

    def play(self) -> None:
        try:
            self._play()
        except BaseException as exc:
            self.failure = exc

    def _play(self) -> None:
        moved = -1
        with self.client.stream("GET", f"/api/bot/tables/{self.code}/stream", timeout=STREAM) as response:
            for line in response.iter_lines():
                if not line:
                    continue
                message = json.loads(line)
                self.messages.append(message)
                if message["type"] != "state":
                    continue
                state, version = message["state"], message["version"]
                if state["match_over"] is not None:
                    return
                mine = state["status"] == "playing" and state["to_move"] == state["seat"] and state["forced"] is None
                if mine and state["legal"] and version > moved:
                    view = self.answer("GET", f"/api/bot/tables/{self.code}")
                    if view.status_code == 200:
                        self.views.append(view.json())
                    body = {"move": self.rng.choice(state["legal"]), "version": version}
                    if self.answer("POST", f"/api/bot/tables/{self.code}/move", json=body).status_code == 200:
                        moved = version

    def answer(self, method: str, path: str, **options: Any) -> httpx.Response:
        """The answer to a request, asked again after the wait the server names while the token is over its
        limits, as the example clients do: a move refused and never asked again would leave the bot waiting
        for a state that only the turn timer brings, and every refusal is a strike towards a pause."""
        while (answer := self.client.request(method, path, **options)).status_code == 429:
            time.sleep(int(answer.headers["retry-after"]))
        return answer


def test_no_bot_api_message_leaks_hidden_tiles(tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        first, second = bot_token(server, database_url, "auditone"), bot_token(server, database_url, "audittwo")
        one = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {first}"}, timeout=30)
        two = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {second}"}, timeout=30)
        with one, two, two.stream("GET", "/api/bot/stream", timeout=STREAM) as events:
            lines = events.iter_lines()
            assert json.loads(next(lines))["type"] == "hello"
            wanted = {"opponents": [{"account": "audittwo"}, {"bot": "greedy"}], "rounds": 2}
            code = one.post("/api/bot/tables", json=wanted).json()["table"]
            invitation = json.loads(next(line for line in lines if line))
            assert invitation["type"] == "invitation" and invitation["table"] == code
            assert not TILE.search(json.dumps(invitation))
            bots = {0: RecordingBot(one, code, 1), 1: RecordingBot(two, code, 2)}
            threads = [threading.Thread(target=bot.play) for bot in bots.values()]
            threads[0].start()
            assert two.post(f"/api/bot/tables/{code}/accept").json() == {"table": code, "seat": 1}
            threads[1].start()
            for thread in threads:
                thread.join(timeout=600)
            assert all(bot.failure is None for bot in bots.values()), [bot.failure for bot in bots.values()]
            started = json.loads(next(line for line in lines if line))
            finished = json.loads(next(line for line in lines if line))
            assert (started["type"], finished["type"]) == ("table_started", "match_over")
        record = httpx.get(f"{server}/api/tables/{code}/record").json()
    match = Match.from_record(record)
    checked = 0
    for seat, bot in bots.items():
        checked += audit(bot.messages, seat, match)
        checked += audit(bot.views, seat, match)
        assert bot.messages[-1]["state"]["match_over"] is not None and bot.views
    assert checked > 50  # the audit saw many states while tiles were hidden

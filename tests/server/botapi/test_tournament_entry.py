"""Bot accounts in a tournament, through the Bot API alone, on a real server: two bot accounts enter an
event that takes them, hear of their table on their account streams (``table_started``, with their seat)
when its creator starts it, and play the match to its end themselves; the event counts their result."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from chickenfoot.testing.bot_accounts import PASSWORD, bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .test_hidden_information import STREAM, RecordingBot

pytestmark = pytest.mark.slow  # a real server process


def started_table(lines: Any) -> dict[str, Any]:
    """The first ``table_started`` of an account stream (``hello`` and keep-alive lines before it)."""
    for line in lines:
        if line and (event := json.loads(line))["type"] == "table_started":
            return dict(event)
    raise AssertionError("the account stream ended before a table started")


def finished(client: httpx.Client, code: str) -> dict[str, Any]:
    """The event's page once it is finished: read now, and again at each change its live news tells of."""
    with client.stream("GET", f"/api/tournaments/{code}/events", timeout=STREAM) as news:
        shown = client.get(f"/api/tournaments/{code}").json()
        lines = news.iter_lines()
        while shown["status"] != "finished":
            if next(lines).startswith("data:"):
                shown = client.get(f"/api/tournaments/{code}").json()
    return dict(shown)


def test_bot_accounts_enter_a_tournament_hear_of_their_table_and_play_it_themselves(tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        tokens = [bot_token(server, database_url, name) for name in ("robo", "cogs")]
        with httpx.Client(base_url=server, timeout=30) as ann:
            signed_up = ann.post("/api/account/signup", json={"username": "ann", "password": PASSWORD})
            ann.headers["x-csrf-token"] = signed_up.json()["csrf"]
            settings = {"format": "swiss", "rounds": 1, "table_size": 2, "match_rounds": 1, "bot_accounts": True}
            made = ann.post("/api/tournaments", json={"name": "Bots' night", **settings})
            assert made.status_code == 201, made.text
            code = made.json()["code"]
            bots = [httpx.Client(base_url=server, headers={"Authorization": f"Bearer {t}"}, timeout=30) for t in tokens]
            streams = [bot.stream("GET", "/api/bot/stream", timeout=STREAM) for bot in bots]
            try:
                lines = [stream.__enter__().iter_lines() for stream in streams]
                for bot in bots:
                    joined = bot.post(f"/api/bot/tournaments/{code}/join")
                    assert joined.status_code == 200, joined.text
                assert ann.post(f"/api/tournaments/{code}/start").status_code == 200
                started = [started_table(account_lines) for account_lines in lines]
                table = started[0]["table"]
                assert started[1]["table"] == table and {s["seat"] for s in started} == {0, 1}
                players = [RecordingBot(bot, table, seed) for seed, bot in enumerate(bots)]
                threads = [threading.Thread(target=player.play) for player in players]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=300)
                assert [player.failure for player in players] == [None, None]
            finally:
                for stream in streams:
                    stream.__exit__(None, None, None)
                for bot in bots:
                    bot.close()
            for player, event in zip(players, started, strict=True):
                last = player.messages[-1]["state"]
                assert last["match_over"] is not None and last["seat"] == event["seat"]
                # Each bot account played its own seat: none was ever covered or given to the server's bots.
                states = [m["state"] for m in player.messages if m["type"] == "state"]
                assert not any(s["covered"][event["seat"]] for s in states)
                assert len(player.views) > 0  # it asked for its view before its moves
            shown = finished(ann, code)
        (result,) = shown["tables"]
        assert result["code"] == table and result["points"] is not None
        names = {entrant["name"] for entrant in shown["entrants"] if entrant["bot"]}
        assert names == {"robo", "cogs"} and len(shown["standings"]["rows"]) == 2

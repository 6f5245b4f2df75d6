"""A whole match served with JSON log lines at debug level: every line is JSON, lines name their table
and request, and no line carries a secret or a tile that was never played."""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from chickenfoot.testing.clients import HonestPlayer, Measure
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

PASSWORD = "never in a log line"
PRINTED = ("Chicken Foot is served at", "It answers for the host names")
"""The two lines ``chickenfoot serve`` prints on start-up, before logging begins."""


def tile_pattern(tile: str) -> re.Pattern[str]:
    """``tile`` (``9-4``) written either way round, not as part of a longer run of digits and dashes."""
    high, low = tile.split("-")
    return re.compile(rf"(?<![\d-])(?:{high}-{low}|{low}-{high})(?![\d-])")


async def match_with_secrets(base: str) -> tuple[str, list[str], dict[str, object]]:
    """A signed-in player and an invited friend play a round against a bot, with a few refusals on
    the way; the table's code, every secret used, and the match record."""
    username = f"logs{secrets.token_hex(4)}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        signed_up = await http.post("/api/account/signup", json={"username": username, "password": PASSWORD})
        assert signed_up.status_code == 201
        session = http.cookies["chickenfoot_session"]
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]
        created = (await http.post("/api/tables", json={"seats": seats, "rounds": 1})).json()
        code, token = created["code"], created["token"]
        invite = next(s["invite"] for s in created["seats"] if "invite" in s).split("?invite=")[1]
        friend = (await http.post(f"/api/tables/{code}/claim", json={"invite": invite})).json()["token"]
        for seat_token in (token, friend):
            assert (await http.post(f"/api/tables/{code}/ready", json={"token": seat_token})).status_code == 200
        await http.get(f"/api/tables/{code}?token={token}")  # a credential in a query: the access log's line
        assert (await http.post("/api/account/signin", json={"username": username, "password": "wrong"})).is_error
        paths = {0: f"/ws/{code}?token={token}", 1: f"/ws/{code}?token={friend}"}
        async with connect(f"{base.replace('http', 'ws')}/ws/{code}?token=forged-{token}") as refused:
            assert json.loads(await refused.recv())["type"] == "error"
        measure, stop = Measure(), asyncio.Event()
        players = [
            HonestPlayer(base, path, seat, 0.0, random.Random(seat), measure, seat == 0) for seat, path in paths.items()
        ]
        async with asyncio.timeout(120):
            await asyncio.gather(*(player.play(stop) for player in players))
        record = (await http.get(f"/api/tables/{code}/record")).json()
    return code, [PASSWORD, session, token, friend, invite], record


def test_a_match_logged_as_json_at_debug_level_leaks_no_secret_and_no_hidden_tile(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "server.log"
    options = [*OPEN_LIMITS, "--log-format", "json", "--log-level", "debug", "--access-log"]
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    with log.open("w") as output, served(port, database, options=options, output=output):
        code, used, record = asyncio.run(match_with_secrets(f"http://127.0.0.1:{port}"))
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if not line.startswith(PRINTED)]
    assert len(lines) > 20 and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line.get("table") == code for line in lines)
    assert all(re.fullmatch(r"[0-9a-f]{16}", str(line["request"])) for line in lines if "request" in line)
    assert any("token=[redacted]" in line["message"] for line in lines)
    for secret in used:
        assert secret not in text
    (deal,) = record["rounds"]  # type: ignore[index]
    played = {move.split("@")[0] for move in deal["moves"] if move not in ("draw", "pass")}
    hidden = {tile for hand in deal["hands"] for tile in hand} | set(deal["boneyard"])
    hidden -= {tile for tile in hidden if tile in played or "-".join(reversed(tile.split("-"))) in played}
    assert len(hidden) >= 3  # a round leaves tiles in hands and in the boneyard (8 to 20 seen): the check has teeth
    for tile in hidden:
        assert not tile_pattern(tile).search(text), tile

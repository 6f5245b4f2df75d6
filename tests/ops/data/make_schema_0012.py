"""Writes ``schema_0012.json``: every row a server of the first release with accounts and ratings
(schema 0012_ratings) stored while people played on it, for ``tests/ops/test_upgrade.py``.

Run it with that release's source (``git archive cf6479e src``, unpacked into OLD) on the path:
``PYTHONPATH=OLD/src python tests/ops/data/make_schema_0012.py OLD/src``. It serves that code on a
fresh SQLite file, and over HTTP and WebSockets only: signs up three accounts, plays two rated
matches of one account against a bot to their end (ratings), a finished unrated match of a guest, and
half of a match between an account and an invited guest, then writes the rows of every table with
the credentials the test plays on with.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from chickenfoot.testing.clients import HonestPlayer, Measure
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

PASSWORD = "tile hub toe chicken"
HALF = 30
"""Versions the unfinished match has when it is left."""


async def play(base: str, paths: dict[int, str], until: int | None = None) -> None:
    measure, stop = Measure(), asyncio.Event()
    players = [
        HonestPlayer(base, path, seat, 0.0, random.Random(seat), measure, seat == min(paths))
        for seat, path in paths.items()
    ]
    tasks = [asyncio.create_task(player.play(stop)) for player in players]
    if until is not None:
        await asyncio.gather(*(player.reached(until) for player in players))
        stop.set()
    await asyncio.gather(*tasks)


async def fill(base: str) -> dict[str, Any]:
    clients = {name: httpx.AsyncClient(base_url=base, timeout=60) for name in ("annika", "bonifac", "cyprian")}
    for name, client in clients.items():
        signed_up = await client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert signed_up.status_code == 201, signed_up.text
    rated = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], "rated": True}
    finished = []
    for name in ("annika", "bonifac"):
        created = (await clients[name].post("/api/tables", json=rated)).json()
        await play(base, {0: f"/ws/{created['code']}?token={created['token']}"})
        finished.append(created["code"])
    async with httpx.AsyncClient(base_url=base, timeout=60) as guest:
        casual = {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], "rounds": 2}
        created = (await guest.post("/api/tables", json=casual)).json()
        await play(base, {0: f"/ws/{created['code']}?token={created['token']}"})
        finished.append(created["code"])
        friends = {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "medium"}], "rounds": 3}
        created = (await clients["cyprian"].post("/api/tables", json=friends)).json()
        code = created["code"]
        invite = next(seat["invite"] for seat in created["seats"] if "invite" in seat).split("?invite=")[1]
        claimed = (await guest.post(f"/api/tables/{code}/claim", json={"invite": invite})).json()
        tokens = {0: created["token"], claimed["seat"]: claimed["token"]}
        # That release has no ready step: the match begins once every seat is taken.
        await play(base, {seat: f"/ws/{code}?token={token}" for seat, token in tokens.items()}, until=HALF)
    for client in clients.values():
        await client.aclose()
    return {"finished": finished, "unfinished": code, "tokens": tokens, "password": PASSWORD}


def rows(database: Path) -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(database) as db:
        db.row_factory = sqlite3.Row
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {
            name: [dict(row) for row in db.execute(f'SELECT * FROM "{name}"')]
            for name in names
            if name != "alembic_version"
        }


def main(old_source: str) -> None:
    import chickenfoot

    assert Path(chickenfoot.__file__).is_relative_to(Path(old_source).resolve()), "run with the old source on the path"
    with tempfile.TemporaryDirectory() as directory:
        database, port = Path(directory) / "games.db", free_port()
        with served(port, f"sqlite+aiosqlite:///{database}", options=OPEN_LIMITS, timeout=120):
            made = asyncio.run(fill(f"http://127.0.0.1:{port}"))
        with sqlite3.connect(database) as db:
            made["revision"] = db.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        made["rows"] = rows(database)
    made["made_at"] = datetime.now().date().isoformat()
    target = Path(__file__).with_name("schema_0012.json")
    target.write_text(json.dumps(made, separators=(",", ":"), sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

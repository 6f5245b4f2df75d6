"""A bot account at a rated table is rated like a person: its rating changes in the table's family,
the match is in its history, and it stands on the leaderboard tagged as a bot (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.accounts.names import skeleton
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.http.limits import TokenLimits
from chickenfoot.server.ratings.model import PROVISIONAL_SIGMA
from chickenfoot.server.ratings.rated import RatedMatch, RatedSeat
from chickenfoot.server.ratings.service import Ratings
from chickenfoot.server.storage import Storage

from ..accounts.conftest import GENEROUS, sign_up
from ..botapi.conftest import bearer, bot_account
from ..conftest import Player, State, create_table, forced, settled

ME = {"kind": "human"}


def account_id(database_url: str, name: str) -> int:
    async def look_up() -> int:
        storage = Storage(database_url, SystemClock())
        account = await AccountStore(storage).by_skeleton(skeleton(name))
        await storage.close()
        assert account is not None
        return account.id

    return asyncio.run(look_up())


def establish(database_url: str, account: int, matches: int) -> None:
    """Give ``account`` ``matches`` earlier heads-up results against the easy level, enough to leave
    its provisional rating (the leaderboard lists established players only)."""

    async def record() -> None:
        storage = Storage(database_url, SystemClock())
        ratings = Ratings(storage, SystemClock())
        for n in range(matches):
            first, second = RatedSeat(1 + n % 2, account_id=account), RatedSeat(2 - n % 2, level="easy")
            assert await ratings.record(RatedMatch(f"EARLY{n:03}", "2", (first, second))) is not None
        await storage.close()

    asyncio.run(record())


def play_against_the_bot_account(person: Player, client: TestClient, code: str, auth: dict[str, str]) -> State:
    """Seat 0 plays through its WebSocket, seat 1 (the bot account) through the Bot API, each a random
    legal move, until the match ends; the server makes forced moves and the person starts each round."""
    rng = random.Random(7)
    while True:
        state = person.until_state(settled)
        version = person.version
        if state["match_over"] is not None:
            return state
        if state["round_over"] is not None:
            person.send({"type": "next_round"})
            person.until_state(lambda s, r=state["round"]: s["round"] > r)
            continue
        if state["to_move"] == 0:
            if not forced(state):
                person.move(rng.choice(state["legal"]))
            person.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
            continue
        message = client.get(f"/api/bot/tables/{code}", headers=auth).json()
        assert message["type"] == "state", message
        seen = message["state"]
        assert seen["seat"] == 1 and message["version"] >= version
        if message["version"] == version and not forced(seen):
            move = {"move": rng.choice(seen["legal"]), "version": version}
            played = client.post(f"/api/bot/tables/{code}/move", json=move, headers=auth)
            assert played.json() == {"ok": True}, played.text
        person.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)


@pytest.mark.usefixtures("empty_ratings")
def test_a_bot_account_at_a_rated_table_is_rated_like_a_person(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(addresses=GENEROUS, bot_limits=TokenLimits(moves="1000/second", reads="1000/second"))
    auth = bearer(bot_account(client, database_url, "robot"))
    establish(database_url, account_id(database_url, "robot"), 12)
    before = client.get("/api/ratings/robot").json()["families"]["2"]
    assert before["matches"] == 12 and before["sigma"] <= PROVISIONAL_SIGMA
    sign_up(client, "kim")
    table = create_table(client, [ME, ME], claim=False, rated=True)
    code = table["code"]
    invited = client.post(f"/api/tables/{code}/seats/1/invite", json={"token": table["token"], "bot": "robot"})
    assert invited.status_code == 200, invited.text
    assert client.post(f"/api/bot/tables/{code}/accept", headers=auth).json() == {"table": code, "seat": 1}
    assert client.post(f"/api/tables/{code}/ready", json={"token": table["token"]}).status_code == 200
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        person = Player(ws)
        final = play_against_the_bot_account(person, client, code, auth)
        notice = person.until(lambda m: m["type"] == "rating")
    changes: list[dict[str, Any]] = notice["changes"]
    assert [change["seat"] for change in changes] == [0, 1]
    assert client.get(f"/api/ratings/tables/{code}").json() == {"rated": True, "family": "2", "changes": changes}
    assert (changes[1]["before"], changes[1]["provisional"]) == (before["rating"], False)
    assert (changes[0]["before"], changes[0]["provisional"]) == (1500, True)
    winners = final["match_over"]["winners"]
    if len(winners) == 1:  # (a tie moves each rating toward the other's, either way)
        assert changes[winners[0]]["delta"] > 0 > changes[1 - winners[0]]["delta"]
    for name, change, matches in (("kim", changes[0], 1), ("robot", changes[1], 13)):
        rated = client.get(f"/api/ratings/{name}").json()["families"]
        assert rated["2"]["matches"] == matches and rated["2"]["rating"] == change["after"]
        assert rated["2"]["history"][-1]["table"] == code and rated["3-4"]["history"] == []
        profile = client.get(f"/api/players/{name}").json()
        assert profile["played"] == 1 and [entry["code"] for entry in profile["matches"]] == [code]
    board = client.get("/api/leaderboard/2").json()["players"]
    assert [(row["username"], row["rating"], row["matches"], row["bot"]) for row in board] == [
        ("robot", changes[1]["after"], 13, True)
    ]
    assert client.get("/api/ratings/robot").json()["families"]["2"]["rank"] == 1
    replay = client.get(f"/api/tables/{code}/replay").json()
    assert replay["names"][1] == "robot" and replay["bot_accounts"] == [False, True]  # its page tags robot BOT

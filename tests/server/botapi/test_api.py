"""The Bot API in one process: tokens, bot accounts, tables, moves through the table's own checks, limits."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.botapi.schema import api_tokens
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.http.limits import TokenLimits
from chickenfoot.server.storage import Storage

from ..accounts.conftest import GENEROUS, sign_in, sign_up
from ..conftest import create_table
from .conftest import bearer, bot_account, csrf


def test_tokens_are_shown_once_stored_hashed_listed_and_revocable(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    sign_up(client, "carol")
    refused = client.post("/api/account/tokens", json={}, headers=csrf(client))
    assert (refused.status_code, refused.json()["code"]) == (403, "botapi.not_bot_account")
    assert client.get("/api/account/tokens").json()["bot"] is False
    assert asyncio.run(make_bot_account(database_url, "carol", mint=False, clock=SystemClock())) is True
    assert client.post("/api/account/tokens", json={}).json()["code"] == "account.cross_site"  # no CSRF token
    unknown = client.post("/api/account/tokens", json={"scopes": ["root"]}, headers=csrf(client))
    assert (unknown.status_code, unknown.json()["code"]) == (400, "botapi.unknown_scope")
    minted = client.post("/api/account/tokens", json={"label": "laptop", "scopes": ["bot:play"]}, headers=csrf(client))
    assert minted.status_code == 201
    secret = minted.json()["token"]
    assert secret.startswith("cfb_") and len(secret) >= 4 + 43  # 32 random bytes, base64url
    listed = client.get("/api/account/tokens").json()
    assert [t["label"] for t in listed["tokens"]] == ["laptop"] and listed["bot"] is True
    assert secret not in str(listed)

    async def stored() -> list[str]:
        storage = Storage(database_url, SystemClock())
        async with storage.reading() as conn:
            digests = [str(d) for d in (await conn.execute(sa.select(api_tokens.c.digest))).scalars()]
        await storage.close()
        return digests

    assert asyncio.run(stored()) == [hashlib.sha256(secret.encode()).hexdigest()]
    assert client.get("/api/bot/account", headers=bearer(secret)).json()["name"] == "carol"
    token_id = minted.json()["id"]
    assert client.delete(f"/api/account/tokens/{token_id}", headers=csrf(client)).status_code == 200
    assert client.delete(f"/api/account/tokens/{token_id}", headers=csrf(client)).json()["code"] == "botapi.no_token"
    assert client.get("/api/account/tokens").json()["tokens"] == []


def test_a_bot_account_only_plays_through_the_api(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    bot_account(client, database_url, "robo")
    sign_in(client, "robo")
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    # The seat was not attached to the session: a page signed in as the bot account opens nothing.
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        assert ws.receive_json()["state"]["seat"] is None
    assert client.get(f"/api/bot/tables/{table['code']}", headers={}).status_code == 401
    # And a person who has played cannot become a bot account.
    client.cookies.clear()
    sign_up(client, "dora")
    client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert asyncio.run(make_bot_account(database_url, "dora", mint=False, clock=SystemClock())) is False
    assert asyncio.run(make_bot_account(database_url, "nobody", mint=False, clock=SystemClock())) is None


def test_a_new_account_turns_itself_into_a_bot_account_for_good(bot_client: TestClient) -> None:
    client = bot_client
    sign_up(client, "carol")
    assert client.get("/api/account/tokens").json() | {"scopes": [], "tokens": []} == {
        "bot": False,
        "may_become_bot": True,
        "scopes": [],
        "tokens": [],
    }
    assert client.post("/api/account/bot").json()["code"] == "account.cross_site"  # no CSRF token
    assert client.get("/api/account/tokens").json()["bot"] is False
    made = client.post("/api/account/bot", headers=csrf(client))
    assert (made.status_code, made.json()) == (200, {"bot": True})
    listed = client.get("/api/account/tokens").json()
    assert (listed["bot"], listed["may_become_bot"]) == (True, False)
    assert client.post("/api/account/bot", headers=csrf(client)).json() == {"bot": True}  # it stays one
    minted = client.post("/api/account/tokens", json={"label": "laptop"}, headers=csrf(client))
    assert client.get("/api/bot/account", headers=bearer(minted.json()["token"])).json()["name"] == "carol"
    # A person who has sat at a table keeps a player's account: the matches were theirs.
    client.cookies.clear()
    assert client.post("/api/account/bot").status_code == 401
    sign_up(client, "dora")
    client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert client.get("/api/account/tokens").json()["may_become_bot"] is False
    refused = client.post("/api/account/bot", headers=csrf(client))
    assert (refused.status_code, refused.json()["code"]) == (409, "botapi.played_as_person")
    assert client.get("/api/account/tokens").json()["bot"] is False


def test_bad_tokens_and_missing_scopes_are_refused(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    reader = bot_account(client, database_url, "reader", scopes=["bot:play"])
    for headers in ({}, {"authorization": "Bearer cfb_forged"}, {"authorization": f"Basic {reader}"}):
        response = client.get("/api/bot/account", headers=headers)
        assert (response.status_code, response.json()["code"]) == (401, "botapi.bad_token")
    response = client.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}]}, headers=bearer(reader))
    assert (response.status_code, response.json()["code"]) == (403, "botapi.scope_missing")


@pytest.mark.usefixtures("no_accounts_yet")
def test_a_bot_creates_a_table_and_plays_it_with_the_pages_checks(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(addresses=GENEROUS, bot_limits=TokenLimits(moves="1000/second", reads="1000/second"))
    token = bot_account(client, database_url, "player")
    auth = bearer(token)
    created = client.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}], "rounds": 1}, headers=auth)
    assert created.status_code == 201, created.text
    code = created.json()["table"]
    turns = 0
    # A table runs while someone is connected (a bot's table stream, here a spectator): the test polls the view.
    with client.websocket_connect(f"/ws/{code}"):
        turns = play_by_polling(client, code, auth)
    assert turns > 0
    said = client.post(f"/api/bot/tables/{code}/chat", json={"text": "gg"}, headers=auth)
    assert said.json() == {"ok": True}
    other = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    refused = client.get(f"/api/bot/tables/{other['code']}", headers=auth)
    assert (refused.status_code, refused.json()["code"]) == (403, "botapi.not_seated")


def play_by_polling(client: TestClient, code: str, auth: dict[str, str]) -> int:
    """Play seat 0's first legal move whenever it is to move, until the match ends; returns the moves played."""
    turns = 0
    while True:
        message = client.get(f"/api/bot/tables/{code}", headers=auth).json()
        state = message["state"]
        assert message["type"] == "state" and state["seat"] == 0
        if state["match_over"] is not None:
            return turns
        if state["to_move"] != 0 or not state["legal"] or state["round_over"] is not None:
            continue  # the bot level or a forced move is being played (instant in tests)
        if turns == 0:  # the same refusals as the page's WebSocket
            stale = client.post(
                f"/api/bot/tables/{code}/move", json={"move": state["legal"][0], "version": 0}, headers=auth
            )
            assert message["version"] == 0 or stale.json()["code"] == "error.stale_version"
            illegal = client.post(
                f"/api/bot/tables/{code}/move", json={"move": "0-0@9-9", "version": message["version"]}, headers=auth
            )
            assert illegal.status_code in (400, 409)
        played = client.post(
            f"/api/bot/tables/{code}/move",
            json={"move": state["legal"][0], "version": message["version"]},
            headers=auth,
        )
        assert played.json() == {"ok": True} or played.json()["code"] == "error.stale_version", played.text
        turns += 1
    return turns


def test_people_invite_a_bot_account_and_it_accepts_or_declines(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    token = bot_account(client, database_url, "visitor")
    auth = bearer(token)
    new = {"rating": 1500, "provisional": True, "text": "1500?", "matches": 0, "mu": 25.0, "sigma": 8.333}
    listed = {"name": "visitor", "tag": "BOT", "online": False, "ratings": {"2": new, "3-4": new}}
    assert client.get("/api/bots").json() == {"bots": [listed]}
    table = create_table(client, [{"kind": "human"}, {"kind": "human"}], claim=False)
    code = table["code"]
    body = {"token": table["token"], "bot": "visitor"}
    assert client.post(f"/api/tables/{code}/seats/1/invite", json=body | {"token": "x"}).status_code == 403
    no_bot = client.post(f"/api/tables/{code}/seats/1/invite", json=body | {"bot": "nobody"})
    assert no_bot.json()["code"] == "botapi.not_a_bot"
    assert client.post(f"/api/tables/{code}/seats/1/invite", json=body).status_code == 200
    assert client.post(f"/api/bot/tables/{code}/decline", headers=auth).json() == {"declined": code}
    assert client.post(f"/api/bot/tables/{code}/accept", headers=auth).json()["code"] == "botapi.no_invitation"
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    client.post(f"/api/tables/{code}/seats/1/invite", json=body)
    assert client.post(f"/api/bot/tables/{code}/accept", headers=auth).json() == {"table": code, "seat": 1}
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"  # for the person to be ready
    assert client.post(f"/api/tables/{code}/ready", json={"token": table["token"]}).status_code == 200
    summary = client.get(f"/api/tables/{code}").json()
    assert summary["status"] == "playing" and summary["seats"][1]["name"] == "visitor"
    state = client.get(f"/api/bot/tables/{code}", headers=auth).json()["state"]
    assert state["seat"] == 1 and state["bot_accounts"] == [False, True]  # the page tags seat 1's name BOT
    assert client.get("/api/players/visitor").json()["bot"] is True  # and so does its profile
    assert client.post(f"/api/tables/{code}/seats/1/invite", json=body).json()["code"] == "botapi.seat_not_free"


@pytest.mark.usefixtures("no_accounts_yet")
def test_a_flooding_token_gets_429_then_a_pause_and_others_do_not(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    limits = TokenLimits(reads="5/minute", strikes="3/minute", pause="1/hour")
    client = make_client(addresses=GENEROUS, bot_limits=limits)
    flood, honest = bot_account(client, database_url, "flood"), bot_account(client, database_url, "honest")
    answers = [client.get("/api/bot/account", headers=bearer(flood)) for _ in range(10)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 5
    assert [a.json()["code"] for a in answers[5:]] == ["botapi.too_many"] * 3 + ["botapi.paused"] * 2
    assert all(0 < int(a.headers["retry-after"]) <= 3600 for a in answers[5:])
    assert int(answers[-1].headers["retry-after"]) > 60  # paused for the hour, not the reads' minute
    assert client.get("/api/bot/account", headers=bearer(honest)).status_code == 200
    # Known paused, the token is refused in front of the routes: its malformed move is not even read.
    unread = client.post("/api/bot/tables/nothing/move", content=b"{", headers=bearer(flood))
    assert (unread.status_code, unread.json()["code"]) == (429, "botapi.paused")
    assert unread.headers["retry-after"] == str(unread.json()["seconds"])
    assert unread.headers["x-content-type-options"] == "nosniff"


@pytest.mark.usefixtures("no_accounts_yet")
def test_forged_tokens_are_looked_up_at_most_so_often_per_address(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(addresses=GENEROUS, bot_limits=TokenLimits(lookups="3/hour"))
    known = bot_account(client, database_url, "known")
    assert client.get("/api/bot/account", headers=bearer(known)).status_code == 200  # looked up once, then cached
    forged = [client.get("/api/bot/account", headers=bearer(f"cfb_forged{n}")) for n in range(4)]
    assert [a.status_code for a in forged] == [401, 401, 429, 429]
    assert forged[-1].json()["code"] == "botapi.too_many_lookups"

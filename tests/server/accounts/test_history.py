"""Profiles and "My matches" over SQLite and PostgreSQL: which account sat where (across rematches),
results and accuracy, players named by their public names only, and deleted accounts."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from chickenfoot.match import Match
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.history.schema import match_results
from chickenfoot.server.history.service import PAGE_SIZE
from chickenfoot.server.storage import Storage, game_tables
from chickenfoot.testing.waiting import until_now

from ..conftest import claim_invite, create_table, play_out, ready, seat_players
from .conftest import GENEROUS, sign_up
from .test_api import csrf

ONE_ROUND = {"rounds": 1}


def finish(client: TestClient, table: dict[str, Any], seed: int = 3) -> dict[str, Any]:
    """Play a created table (its human seats' ``token`` filled in) to the end, and wait for the server to
    have stored it as finished; its match record."""
    if client.get(f"/api/tables/{table['code']}").json()["status"] == "waiting":  # friends: everyone is ready
        for seat in table["seats"]:
            if seat["kind"] == "human":
                ready(client, table["code"], seat["token"])
    with ExitStack() as stack:
        play_out(seat_players(client, table, stack), random.Random(seed))
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    portal = client.portal
    assert portal is not None
    until_now(lambda: portal.call(stored_as_finished, storage, table["code"]), 60, "the match stored as finished")
    return dict(client.get(f"/api/tables/{table['code']}/record").json())


async def stored_as_finished(storage: Storage, code: str) -> bool:
    """The match is over in storage, and its results are stored (both written in the background)."""
    async with storage.reading() as conn:
        over = (await conn.execute(sa.select(game_tables.c.over).where(game_tables.c.code == code))).scalar()
        results = await conn.execute(sa.select(match_results.c.seat).where(match_results.c.table_code == code))
        return bool(over) and results.first() is not None


def new_table(client: TestClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table of one round, created by its seat 0's player; the friends' invites unclaimed."""
    return create_table(client, seats, False, **ONE_ROUND)


def test_a_profile_counts_matches_by_player_count_and_lists_them(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = new_table(client, [{"kind": "human", "name": "Kim at the table"}, {"kind": "bot", "bot": "easy"}])
    won = 0 in Match.from_record(finish(client, table)).winners()

    profile = client.get("/api/players/kim").json()
    assert profile["username"] == "kim" and profile["member_since"]
    assert (profile["played"], profile["won"]) == (1, int(won))
    assert profile["by_players"] == [{"players": 2, "played": 1, "won": int(won)}]
    (match,) = profile["matches"]
    assert match["code"] == table["code"] and match["seat"] == 0 and match["over"]
    assert match["result"] == ("won" if won else "lost") and match["finished_at"]
    assert match["players"] == [
        {"seat": 0, "name": "Kim at the table", "bot": None, "account": "kim", "deleted": False},
        {"seat": 1, "name": None, "bot": "easy", "account": None, "deleted": False},
    ]
    code = table["code"]
    assert match["links"] == {"replay": f"/r/{code}", "review": f"/r/{code}#review"}
    assert (profile["page"], profile["pages"], profile["total"]) == (1, 1, 1)
    assert client.get("/api/players/KIM").json()["username"] == "kim"  # one skeleton, one player

    assert client.get("/u/kim").status_code == 200
    unknown = client.get("/u/nobody")
    assert unknown.status_code == 404 and "profile.js" in unknown.text  # the page, which says so in words
    refused = client.get("/api/players/nobody")
    assert (refused.status_code, refused.json()["code"]) == (404, "profile.unknown")
    assert client.get("/api/players/kim?page=0").status_code == 400


def test_my_matches_lists_unfinished_ones_to_return_to(accounts_client: TestClient) -> None:
    client = accounts_client
    assert client.get("/api/matches").status_code == 401  # a guest has none
    assert client.get("/matches").status_code == 200
    sign_up(client, "kim")
    finished = new_table(client, [{"kind": "human"}, {"kind": "bot"}])
    finish(client, finished)
    waiting = new_table(client, [{"kind": "human"}, {"kind": "human"}])

    mine = client.get("/api/matches").json()
    assert mine["username"] == "kim" and mine["total"] == 2
    by_code = {m["code"]: m for m in mine["matches"]}
    assert by_code[waiting["code"]]["links"] == {"return": f"/t/{waiting['code']}"}
    assert by_code[waiting["code"]]["result"] is None and not by_code[waiting["code"]]["over"]
    assert "replay" in by_code[finished["code"]]["links"]
    # The public profile shows the finished match only.
    assert [m["code"] for m in client.get("/api/players/kim").json()["matches"]] == [finished["code"]]


def test_the_account_follows_its_seat_into_the_rematch(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = new_table(client, [{"kind": "bot"}, {"kind": "human"}])
    with ExitStack() as stack:
        play_out(seat_players(client, table, stack), random.Random(5))
        accepted = client.post(f"/api/tables/{table['code']}/rematch", json={"token": table["token"]}).json()
    rematch = accepted["code"]
    assert rematch is not None
    codes = {m["code"]: m["seat"] for m in client.get("/api/matches").json()["matches"]}
    assert codes == {table["code"]: 1, rematch: 1}


def test_a_deleted_account_is_a_deleted_player_everywhere(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    client = make_client(addresses=GENEROUS)
    kim = sign_up(client, "kim")
    table = new_table(client, [{"kind": "human", "name": "Kim"}, {"kind": "human"}])
    sign_up(client, "annelies")  # the friend claims the invite signed in
    friend = claim_invite(client, table["seats"][1]["invite"], "Annelies Visser")
    table["seats"][1]["token"] = friend["token"]
    record = finish(client, table)
    # The record names nobody: no account, no name chosen at the table.
    written = json.dumps(record)
    assert all(word not in written for word in ("kim", "Kim", "annelies", "Annelies", kim.get("user_handle", "?")))
    code = table["code"]
    assert client.get(f"/api/tables/{code}/replay").json()["names"] == ["Kim", "Annelies Visser"]

    assert client.delete("/api/account", headers=csrf(client)).status_code == 200  # Annelies goes

    assert client.get("/api/players/annelies").status_code == 404
    (match,) = client.get("/api/players/kim").json()["matches"]
    assert match["players"][1] == {"seat": 1, "name": None, "bot": None, "account": None, "deleted": True}
    overview = client.get(f"/api/tables/{code}/replay").json()
    assert overview["names"] == ["Kim", None] and overview["deleted"] == [1]
    frames = client.get(f"/api/tables/{code}/replay/1").text
    assert "Annelies" not in frames
    assert "Annelies" not in client.get(f"/api/tables/{code}/review").text
    assert client.get(f"/api/tables/{code}/record").json() == record  # the moves stay


def test_matches_finished_before_results_were_kept_are_counted_and_their_accuracy_read(
    make_client: Callable[..., TestClient], database_url: str, no_accounts_yet: None
) -> None:
    client = make_client(addresses=GENEROUS, review_budget=4)
    sign_up(client, "kim")
    table = new_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    finish(client, table)
    code = table["code"]
    until_now(lambda: client.get(f"/api/tables/{code}/review").json()["status"] == "done", 60, "the review done")

    async def forget() -> None:  # as if the match had finished before this server kept results
        storage = Storage(database_url, SystemClock())
        async with storage.transaction() as conn:
            await conn.execute(match_results.delete().where(match_results.c.table_code == code))
        await storage.close()

    asyncio.run(forget())
    profile = client.get("/api/players/kim").json()
    assert profile["played"] == 1
    (point,) = profile["accuracy"]
    review = client.get(f"/api/tables/{code}/review").json()["review"]
    expected = next(s["accuracy"] for s in review["summary"] if s["seat"] == 0)
    assert point["code"] == code and point["accuracy"] == expected
    assert profile["matches"][0]["accuracy"] == expected


def test_matches_come_a_page_at_a_time_the_newest_first(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    codes = [new_table(client, [{"kind": "human"}, {"kind": "human"}])["code"] for _ in range(PAGE_SIZE + 1)]
    first, second = (client.get(f"/api/matches?page={page}").json() for page in (1, 2))
    assert (first["total"], first["pages"], second["page"]) == (PAGE_SIZE + 1, 2, 2)
    listed = [m["code"] for m in first["matches"] + second["matches"]]
    assert sorted(listed) == sorted(codes) and len(first["matches"]) == PAGE_SIZE
    assert client.get("/api/matches?page=3").json()["matches"] == []

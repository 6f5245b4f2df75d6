"""Following: by name, by a seat of a table, by a chat line; the friends list with who is online and at
which table, as each friend's privacy choices allow; the lists' caps and the per-account limits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.http.limits import AccountLimits
from chickenfoot.server.social.service import SocialSettings
from chickenfoot.server.storage import Storage, game_tables

from ..accounts.conftest import GENEROUS
from ..conftest import claim_invite
from .conftest import EVERYTHING, Person


def test_follow_by_name_seat_or_chat_line_and_unfollow(social_client: TestClient, database_url: str) -> None:
    ann, bob, cyd, dee = (Person(social_client, name) for name in ("ann", "bob", "cyd", "dee"))
    assert ann.ok("post", "/api/social/follows", {"name": "BOB"}) == {"following": "bob"}
    assert ann.post("/api/social/follows", {"name": "bob"}).status_code == 201  # again: nothing changes
    table = cyd.ok("post", "/api/tables", {"seats": [{"kind": "human"}] * 3})
    code = table["code"]
    ann.ok("post", f"/api/tables/{code}/claim", {"invite": table["seats"][1]["invite"].split("?invite=")[1]})
    assert ann.ok("post", "/api/social/follows", {"table": code, "seat": 0}) == {"following": "cyd"}
    assert list(ann.friends()) == ["bob", "cyd"]
    ann.ok("delete", "/api/social/follows/cyd")
    claim_invite(social_client, table["seats"][2]["invite"])  # a guest's seat follows no account
    with cyd.socket(code, table["token"]) as ws:
        ws.send_json({"type": "chat", "text": "hello"})
        while (message := ws.receive_json()).get("type") != "chat" or "line" not in message:
            pass
    line = message["line"]["n"]
    assert "by" not in message["line"]  # who said it stays on the server
    assert ann.ok("post", "/api/social/follows", {"table": code, "line": line}) == {"following": "cyd"}
    no_account = ann.post("/api/social/follows", {"table": code, "seat": 2})
    assert (no_account.status_code, no_account.json()["code"]) == (404, "social.no_account")
    # A spectator of a match in play learns nobody's account from a seat or a line; once it is over, they may.
    watching = [
        dee.post("/api/social/follows", {"table": code, key: value}) for key, value in (("seat", 0), ("line", line))
    ]
    assert [(r.status_code, r.json()["code"]) for r in watching] == [(403, "social.not_at_table")] * 2
    asyncio.run(over(database_url, code))
    assert dee.ok("post", "/api/social/follows", {"table": code, "seat": 0}) == {"following": "cyd"}
    cases = [
        ({"name": "ann"}, 400, "social.not_yourself"),
        ({"name": "nobody"}, 404, "profile.unknown"),
        ({}, 400, "social.no_target"),
    ]
    for body, status, code in cases:
        refused = ann.post("/api/social/follows", body)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert social_client.get("/api/social/friends").status_code == 401  # a guest has no friends list
    forged = social_client.post("/api/social/follows", json={"name": "bob"}, headers={"cookie": ann.headers["cookie"]})
    assert forged.status_code == 403  # no CSRF token: refused
    assert list(ann.friends()) == ["bob", "cyd"]
    assert bob.friends() == {}


async def over(database_url: str, code: str) -> None:
    """The table's match is over (as the lobby marks it when the hub says so)."""
    storage = Storage(database_url, SystemClock())
    async with storage.transaction() as conn:
        await conn.execute(game_tables.update().where(game_tables.c.code == code).values(over=True))
    await storage.close()


def test_the_friends_list_says_who_is_online_and_at_which_table(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)
    ann, bob, cyd = (Person(client, name) for name in ("ann", "bob", "cyd"))
    ann.follow("bob")
    ann.follow("cyd")
    assert {name: (f["online"], f["table"]) for name, f in ann.friends().items()} == {
        "bob": (False, None),
        "cyd": (False, None),
    }
    bob.news()  # bob's lobby asks for news: bob is online
    table = cyd.ok("post", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
    with cyd.socket(table["code"], table["token"]) as ws:
        ws.receive_json()
        client.portal.call(clock.advance, SocialSettings().friends_kept_seconds)  # type: ignore[union-attr]
        listed = ann.friends()
        assert (listed["bob"]["online"], listed["bob"]["table"]) == (True, None)
        assert (listed["cyd"]["online"], listed["cyd"]["table"]) == (True, table["code"])
    client.portal.call(clock.advance, SocialSettings().online_seconds + 1)  # type: ignore[union-attr]
    listed = ann.friends()
    assert not listed["bob"]["online"] and not listed["cyd"]["online"] and listed["cyd"]["table"] is None


def test_the_status_shows_only_to_whom_its_player_chose(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)
    ann, bob = Person(client, "ann"), Person(client, "bob")
    ann.follow("bob")
    bob.news()

    def seen() -> tuple[bool, bool]:
        client.portal.call(clock.advance, SocialSettings().friends_kept_seconds)  # type: ignore[union-attr]
        friend = ann.friends()["bob"]
        return friend["online"], friend["challenge"]

    assert seen() == (True, True)
    bob.choose(status="friends", challenges="friends")
    assert seen() == (False, False)  # bob does not follow ann
    bob.follow("ann")
    assert seen() == (True, True)
    bob.choose(status="nobody", challenges="nobody")
    assert seen() == (False, False)
    assert bob.ok("get", "/api/social/privacy") == {"challenges": "nobody", "status": "nobody"}
    bad = bob.put("/api/social/privacy", {"challenges": "strangers", "status": "nobody"})
    assert bad.status_code == 400


def test_lists_are_capped_and_following_is_limited_per_account(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    people = AccountLimits(follows="3/hour")
    client = make_client(addresses=GENEROUS, account_limits=people, social=SocialSettings(max_follows=2, max_blocks=1))
    ann = Person(client, "ann")
    for name in ("bob", "cyd", "dee", "eve"):
        Person(client, name)
    ann.follow("bob")
    ann.follow("cyd")
    full = ann.post("/api/social/follows", {"name": "dee"})
    assert (full.status_code, full.json()["code"], full.json()["limit"]) == (429, "social.follows_full", 2)
    limited = ann.post("/api/social/follows", {"name": "dee"})
    assert (limited.status_code, limited.json()["code"]) == (429, "social.too_many_follows")
    assert 0 < int(limited.headers["retry-after"]) <= 3600
    ann.block("dee")
    blocked = ann.post("/api/social/blocks", {"name": "eve"})
    assert (blocked.status_code, blocked.json()["code"]) == (429, "social.blocks_full")
    assert [b["name"] for b in ann.ok("get", "/api/social/blocks")["blocked"]] == ["dee"]

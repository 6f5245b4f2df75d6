"""Blocks, end to end: a blocked player's challenge, their seat at the blocker's table (by code or by
invite), their Bot API invitation, their chat lines and their quick-play pairing are each refused or
suppressed; and the blocked player is not told: every answer they get is the one anyone gets in the same
place for an ordinary reason (a player who accepts no challenges, a full table, a used invite, a bot
that does not answer, a friend who hides their status)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.social.service import SocialSettings
from chickenfoot.testing.bot_accounts import PASSWORD as BOT_PASSWORD
from chickenfoot.testing.bot_accounts import bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from ..accounts.conftest import GENEROUS, PASSWORD
from ..quickplay import conftest as quickplay_fixtures
from .conftest import EVERYTHING, Person, refusal

empty_queue = quickplay_fixtures.empty_queue
STREAM = httpx.Timeout(10, read=None)


def same_but_names(
    blocked: tuple[int, dict[str, Any]], ordinary: tuple[int, dict[str, Any]], names: dict[str, str]
) -> None:
    """The two refusals are one, but for the names in them (``names``: the blocked case's → the ordinary one's)."""
    status, body = blocked
    text = json.dumps(body)
    for theirs, ours in names.items():
        text = text.replace(theirs, ours)
    assert (status, json.loads(text)) == ordinary


def test_a_blocked_players_challenge_is_refused_as_by_a_player_who_takes_none(social_client: TestClient) -> None:
    ann, bob, cyd, dee = (Person(social_client, name) for name in ("ann", "bob", "cyd", "dee"))
    waiting = bob.ok("post", "/api/social/challenges", {"to": "ann"})["id"]
    ann.block("bob")
    assert ann.ok("get", "/api/social/blocks")["blocked"][0]["name"] == "bob"
    dee.choose(challenges="nobody")  # the ordinary refusal: a player who takes no challenges
    blocked = refusal(bob.post("/api/social/challenges", {"to": "ann"}))
    assert blocked[0] == 403 and blocked[1]["code"] == "social.not_accepting"
    same_but_names(blocked, refusal(cyd.post("/api/social/challenges", {"to": "dee"})), {"ann": "dee"})
    assert cyd.post("/api/social/challenges", {"to": "ann"}).status_code == 201  # ann takes challenges
    # The challenge bob made before the block ends as a declined one does; ann does not see it any more.
    answers = [n["text"] for n in bob.ok("get", "/api/notifications")["notices"] if n["kind"] == "answer"]
    assert answers == ["ann declined your challenge"] and bob.news()["waiting"] == []
    assert [r["name"] for r in ann.news()["received"]] == ["cyd"]
    assert waiting not in [r["id"] for r in ann.news()["received"]]
    # What bob's pages show of ann is what they show of a player who hides everything.
    bob.follow("ann")
    bob.follow("dee")
    dee.choose(challenges="nobody", status="nobody")
    ann.news()
    dee.news()
    friends = bob.friends()
    assert {k: v for k, v in friends["ann"].items() if k not in ("name", "since")} == {
        k: v for k, v in friends["dee"].items() if k not in ("name", "since")
    }
    assert friends["ann"]["online"] is False and friends["ann"]["challenge"] is False
    assert bob.ok("get", "/api/social/players/ann") == bob.ok("get", "/api/social/players/dee")
    # The blocker is told plainly, and may unblock.
    mine = ann.post("/api/social/challenges", {"to": "bob"})
    assert (mine.status_code, mine.json()["code"]) == (409, "social.you_block")
    ann.ok("delete", "/api/social/blocks/bob")
    assert bob.post("/api/social/challenges", {"to": "ann"}).status_code == 201


def test_a_blocked_player_takes_no_seat_at_the_blockers_table(social_client: TestClient) -> None:
    ann, bob, cyd, dee = (Person(social_client, name) for name in ("ann", "bob", "cyd", "dee"))
    seats = [{"kind": "human"}] * 4
    table = ann.ok("post", "/api/tables", {"seats": seats, "open": True})
    code, invites = table["code"], [seat.get("invite") for seat in table["seats"]]
    ann.block("bob")
    claim = invites[1].split("?invite=")[1]
    # An invite: bob is refused as someone holding a used invite is.
    assert cyd.post(f"/api/tables/{code}/claim", {"invite": invites[2].split("?invite=")[1]}).status_code == 200
    used = refusal(dee.post(f"/api/tables/{code}/claim", {"invite": invites[2].split("?invite=")[1]}))
    assert refusal(bob.post(f"/api/tables/{code}/claim", {"invite": claim})) == used == (403, used[1])
    assert used[1]["code"] == "error.invite_used"
    # By code: bob finds no free seat, as anyone does at a full table.
    full = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}], "open": True})
    ordinary = refusal(dee.post(f"/api/tables/{full['code']}/join", {}))
    assert refusal(bob.post(f"/api/tables/{code}/join", {})) == ordinary
    assert ordinary[0] == 409 and ordinary[1]["code"] == "error.no_free_seat"
    assert dee.post(f"/api/tables/{code}/claim", {"invite": claim}).status_code == 200  # the invite works for others
    assert Person(social_client, "eve").post(f"/api/tables/{code}/join", {}).status_code == 200  # and the seats
    assert social_client.get(f"/api/tables/{code}").json()["status"] == "waiting"  # dee is to press Ready


def signed_in(client: TestClient, name: str) -> dict[str, str]:
    """The headers of a page session of ``name`` (a bot account's owner signs in to its account page)."""
    client.cookies.clear()
    response = client.post("/api/account/signin", json={"username": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    headers = {"cookie": f"{COOKIE}={response.cookies[COOKIE]}", "x-csrf-token": response.json()["csrf"]}
    client.cookies.clear()
    return headers


def bot(client: TestClient, database_url: str, name: str) -> dict[str, str]:
    """A bot account ``name``: the Bot API's headers of one of its tokens."""
    person = Person(client, name)
    assert asyncio.run(make_bot_account(database_url, name, mint=False, clock=SystemClock())) is True
    minted = person.ok("post", "/api/account/tokens", {"label": "test"})
    return {"authorization": f"Bearer {minted['token']}"}


def test_an_invitation_from_a_blocked_account_is_dropped_unheard(social_client: TestClient, database_url: str) -> None:
    client = social_client
    ann = Person(client, "ann")
    shy, keen = bot(client, database_url, "shy"), bot(client, database_url, "keen")
    pusher = bot(client, database_url, "pusher")
    shy_page = signed_in(client, "shy")
    assert client.post("/api/social/blocks", json={"name": "ann"}, headers=shy_page).status_code == 201
    assert client.post("/api/social/blocks", json={"name": "pusher"}, headers=shy_page).status_code == 201
    # A person's table: ann invites the bot accounts; each invitation is answered alike.
    table = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}] * 3})
    code = table["code"]
    answers = [
        ann.ok("post", f"/api/tables/{code}/seats/{seat}/invite", {"token": table["token"], "bot": name})
        for seat, name in ((1, "shy"), (2, "keen"))
    ]
    assert answers == [{"table": code, "seat": 1, "invited": "shy"}, {"table": code, "seat": 2, "invited": "keen"}]
    dropped = client.post(f"/api/bot/tables/{code}/accept", headers=shy)
    assert (dropped.status_code, dropped.json()["code"]) == (404, "botapi.no_invitation")
    assert client.post(f"/api/bot/tables/{code}/accept", headers=keen).json() == {"table": code, "seat": 2}
    # A bot's table: pusher invites both through the Bot API; the same answer, and only keen is invited.
    made = client.post("/api/bot/tables", json={"opponents": [{"account": "shy"}, {"account": "keen"}]}, headers=pusher)
    assert made.status_code == 201
    other = made.json()["table"]
    assert client.post(f"/api/bot/tables/{other}/accept", headers=shy).json()["code"] == "botapi.no_invitation"
    assert client.post(f"/api/bot/tables/{other}/accept", headers=keen).json() == {"table": other, "seat": 2}


def chat_lines(ws: WebSocketTestSession, until: str) -> Iterator[dict[str, Any]]:
    """Every chat line the socket is sent (live or kept) until one says ``until``; fails on a speaker sent."""
    while True:
        message = ws.receive_json()
        assert '"by"' not in json.dumps(message)  # who said a line never leaves the server
        if message.get("type") != "chat":
            continue
        for line in message.get("lines", [message.get("line")]):
            if line is None:
                continue
            yield line
            if until in (line.get("text"), line.get("code")):
                return


def texts(ws: WebSocketTestSession, until: str) -> list[str]:
    return [line.get("text") or line["code"] for line in chat_lines(ws, until)]


def test_a_blocked_players_lines_are_not_delivered_to_the_blocker(social_client: TestClient) -> None:
    ann, bob, cyd = (Person(social_client, name) for name in ("ann", "bob", "cyd"))
    table = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}]})
    code = table["code"]
    bob_seat = bob.ok("post", f"/api/tables/{code}/claim", {"invite": table["seats"][1]["invite"].split("?invite=")[1]})
    with ExitStack() as stack:
        to_ann = stack.enter_context(ann.socket(code, table["token"]))
        to_bob = stack.enter_context(bob.socket(code, bob_seat["token"]))
        to_cyd = stack.enter_context(cyd.socket(code))  # a signed-in spectator
        to_bob.send_json({"type": "chat", "text": "before"})
        assert texts(to_ann, "before") == ["before"]
        ann.block("bob")  # while every page is open
        to_bob.send_json({"type": "chat", "text": "after"})
        assert texts(to_bob, "after") == ["before", "after"]  # bob sees nothing odd
        to_bob.send_json({"type": "react", "reaction": "good_game"})
        assert texts(to_bob, "chat.reaction.good_game") == ["chat.reaction.good_game"]
        to_cyd.send_json({"type": "chat", "text": "cyd here"})  # said after bob's: it comes after them
        assert texts(to_ann, "cyd here") == ["cyd here"]  # bob's line and reaction never came
        assert texts(to_cyd, "cyd here") == ["before", "after", "chat.reaction.good_game", "cyd here"]
        assert texts(to_bob, "cyd here") == ["cyd here"]
    # Coming back later, ann reads the kept lines without any of bob's (from before the block too);
    # everyone else reads them all.
    with ann.socket(code, table["token"]) as again:
        assert texts(again, "cyd here") == ["cyd here"]
    with cyd.socket(code) as again:
        assert texts(again, "cyd here") == ["before", "after", "chat.reaction.good_game", "cyd here"]
    # A blocked spectator is as unheard as a blocked player.
    own = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
    with ann.socket(own["code"], own["token"]) as to_ann, bob.socket(own["code"]) as watching:
        watching.send_json({"type": "chat", "text": "watching you"})
        assert texts(watching, "watching you") == ["watching you"]
        to_ann.send_json({"type": "chat", "text": "alone"})
        assert texts(to_ann, "alone") == ["alone"]


@pytest.mark.usefixtures("no_accounts_yet")
def test_quick_play_never_pairs_a_blocked_player_with_the_blocker(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, addresses=GENEROUS, account_limits=EVERYTHING, social=SocialSettings())
    ann, bob, cyd = (Person(client, name) for name in ("ann", "bob", "cyd"))
    ann.block("bob")

    def join(person: Person) -> str:
        return str(person.ok("post", "/api/quickplay", {"players": 2})["ticket"])

    def beat(person: Person, ticket: str) -> dict[str, Any]:
        return person.ok("post", "/api/quickplay/beat", {"ticket": ticket})

    tickets = {"ann": join(ann)}
    client.portal.call(clock.advance, 1)  # type: ignore[union-attr]  # ann has waited longest
    tickets["bob"] = join(bob)
    for _ in range(20):  # long past anyone's rating window: they still wait
        client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
        assert [beat(p, tickets[p.name])["status"] for p in (ann, bob)] == ["waiting", "waiting"]
    tickets["cyd"] = join(cyd)
    seated = {p.name: beat(p, tickets[p.name]) for p in (ann, bob, cyd)}
    assert (seated["ann"]["status"], seated["bob"]["status"], seated["cyd"]["status"]) == (
        "seated",
        "waiting",
        "seated",
    )
    assert seated["ann"]["code"] == seated["cyd"]["code"]
    assert beat(bob, tickets["bob"])["waiting"] == 1  # bob is told what anyone alone in the queue is told


def test_a_blocked_bot_accounts_lines_do_not_reach_the_blocker(social_client: TestClient, database_url: str) -> None:
    """A line said through the Bot API is said by the bot account: a person who blocks it does not hear it."""
    ann, cyd = Person(social_client, "ann"), Person(social_client, "cyd")
    chatty = bot(social_client, database_url, "chatty")
    table = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}] * 3})
    code = table["code"]
    ann.ok("post", f"/api/tables/{code}/seats/1/invite", {"token": table["token"], "bot": "chatty"})
    assert social_client.post(f"/api/bot/tables/{code}/accept", headers=chatty).status_code == 200
    ann.block("chatty")
    with ann.socket(code, table["token"]) as to_ann, cyd.socket(code) as to_cyd:
        said = social_client.post(f"/api/bot/tables/{code}/chat", json={"text": "beep"}, headers=chatty)
        assert said.json() == {"ok": True}
        assert texts(to_cyd, "beep") == ["beep"]
        to_ann.send_json({"type": "chat", "text": "quiet here"})
        assert texts(to_ann, "quiet here") == ["quiet here"]


@pytest.mark.slow  # a real server process: the Bot API's table stream is a streamed response
def test_a_bot_accounts_table_stream_spares_it_the_lines_of_those_it_blocks(tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log, served(port, database_url, output=log, options=OPEN_LIMITS):
        tokens = {name: bot_token(server, database_url, name) for name in ("mute", "chatty", "polite")}
        bots = {
            name: httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            for name, token in tokens.items()
        }
        with ExitStack() as stack:
            for client in bots.values():
                stack.enter_context(client)
            wanted = {"opponents": [{"account": "mute"}, {"account": "polite"}]}
            code = bots["chatty"].post("/api/bot/tables", json=wanted).json()["table"]
            for name in ("mute", "polite"):
                assert bots[name].post(f"/api/bot/tables/{code}/accept").status_code == 200
            owner = stack.enter_context(httpx.Client(base_url=server, headers={"origin": server}, timeout=30))
            signed_in = owner.post("/api/account/signin", json={"username": "mute", "password": BOT_PASSWORD})
            assert signed_in.status_code == 200, signed_in.text
            blocked = owner.post(
                "/api/social/blocks", json={"name": "chatty"}, headers={"x-csrf-token": signed_in.json()["csrf"]}
            )
            assert blocked.status_code == 201, blocked.text
            stream = stack.enter_context(bots["mute"].stream("GET", f"/api/bot/tables/{code}/stream", timeout=STREAM))
            raw = stream.iter_lines()
            assert json.loads(next(line for line in raw if line))["type"] == "state"
            for name, text in (("chatty", "beep"), ("polite", "hello")):
                assert bots[name].post(f"/api/bot/tables/{code}/chat", json={"text": text}).json() == {"ok": True}
            heard: list[str] = []
            quiet = 0  # keep-alives in a row: a stream that never brings "hello" fails, it does not hang
            while "hello" not in heard and quiet < 3:
                line = next(raw)
                quiet = quiet + 1 if not line else 0
                message = json.loads(line) if line else {}
                assert '"by"' not in line  # who said a line never leaves the server
                if message.get("type") == "chat":
                    heard += [said["text"] for said in message.get("lines", [message.get("line")])]
            assert heard == ["hello"]  # chatty's line, said first, never came

"""Company at the table: chat (and its limits against a hostile client), leaving, reopening a seat,
public tables in the lobby, and the rematch."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.edge.client import ConnectionLimits
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.table import chat
from chickenfoot.server.table.commands import Say
from chickenfoot.server.table.ports import table_channel
from chickenfoot.server.table.protocol import ChatMessage

from .conftest import Player, claim_invite, create_table, play_out, ready, seat_players

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}
BURST = ConnectionLimits().chat_burst


def chat_of(player: Player) -> dict[str, Any]:
    """The next chat line or error the player receives."""
    return player.until(lambda m: (m["type"] == "chat" and "line" in m) or m["type"] == "error")


def history(player: Player) -> list[dict[str, Any]]:
    return list(player.until(lambda m: m["type"] == "chat" and "lines" in m)["lines"])


def test_players_and_spectators_chat_and_a_reconnect_reads_the_lines(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN])
    code = table["code"]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        ann, bo = players[0], players[1]
        watcher = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        ann.send({"type": "chat", "text": "  hello <b>all</b> & welcome  "})
        said = chat_of(bo)["line"]
        said_at = said["at"]  # when it was said, in seconds since the epoch: the page shows each line's time
        assert isinstance(said_at, int) and abs(said_at - time.time()) < 3600
        assert said == {"n": 1, "seat": 0, "spectator": False, "text": "hello <b>all</b> & welcome", "at": said_at}
        assert chat_of(watcher)["line"] == said == chat_of(ann)["line"]
        watcher.send({"type": "react", "reaction": "good_game"})
        # The watcher's own answer first: a refusal comes to it alone, and the others would wait for nothing.
        cheer = chat_of(watcher)
        cheered = {"n": 2, "seat": None, "spectator": True, "code": "chat.reaction.good_game"}
        assert cheer.get("line", {}) | {"at": 0} == cheered | {"at": 0} and cheer["line"]["at"] >= said_at, cheer
        assert chat_of(ann)["line"] == cheer["line"]
    with client.websocket_connect(f"/ws/{code}?token={table['seats'][1]['token']}") as ws:
        kept = history(Player(ws))
        assert [line["n"] for line in kept] == [1, 2] and kept[0]["at"] == said_at


def test_a_line_said_while_a_connecting_clients_kept_lines_are_read_reaches_it_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connecting client is subscribed to the live lines before its kept lines are read. Lines said in
    between are heard live and stored before the read: one said by another player, and the client's own,
    said at once on connecting (the read waits for both). Each reaches it once, its own at once, and a line
    said after the read comes live."""
    table = create_table(client, [{"kind": "human", "name": "Ann"}, BOT])
    code = table["code"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    read, racing, own_line_told = chat.recent, [False], asyncio.Event()

    def on_news(message: dict[str, Any]) -> None:
        if message.get("notice", {}).get("line", {}).get("text") == "at once":
            own_line_told.set()

    async def lines_said_around_the_read(storage: Any, code_: str) -> list[dict[str, Any]]:
        if not racing.pop():
            return await read(storage, code_)
        await hub.tables[code].submit(Say(0, ChatMessage(type="chat", text="meanwhile")))
        await own_line_told.wait()
        kept = await read(storage, code_)
        await hub.tables[code].submit(Say(0, ChatMessage(type="chat", text="after the read")))
        return kept

    monkeypatch.setattr(chat, "recent", lines_said_around_the_read)
    client.portal.call(hub.fanout.subscribe, table_channel(code), on_news)  # type: ignore[union-attr]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as first:
        ann = Player(first)
        ann.send({"type": "chat", "text": "first"})
        assert chat_of(ann)["line"]["text"] == "first"
        racing.append(True)
        with client.websocket_connect(f"/ws/{code}?token={table['token']}") as second:  # her other device
            device = Player(second)
            device.send({"type": "chat", "text": "at once"})
            heard: list[str] = []
            kept = False
            while not kept or "after the read" not in heard:
                message = device.until(lambda m: m["type"] == "chat")
                kept = kept or "lines" in message
                heard += [line["text"] for line in message.get("lines", [message.get("line")])]
            device.send({"type": "chat", "text": "later"})
            while heard[-1] != "later":
                heard.append(chat_of(device)["line"]["text"])
    assert sorted(heard) == sorted(["first", "meanwhile", "at once", "after the read", "later"])  # each once
    assert heard.index("at once") < heard.index("after the read")  # her own line came live, not held back


def test_only_the_last_lines_are_kept(make_client: Callable[..., TestClient]) -> None:
    client = make_client(connection=ConnectionLimits(rate_burst=10_000, rate_per_second=10_000.0, chat_burst=1000))
    table = create_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/{table['code']}?token={table['token']}") as ws:
        player = Player(ws)
        for i in range(chat.KEPT + 7):
            player.send({"type": "chat", "text": f"line {i}"})
            assert chat_of(player)["type"] == "chat"
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        lines = history(Player(ws))
    assert len(lines) == chat.KEPT
    assert lines[0]["text"] == "line 7" and lines[-1]["text"] == f"line {chat.KEPT + 6}"


def test_a_chat_flood_is_refused_beyond_the_chat_budget(make_client: Callable[..., TestClient]) -> None:
    # The chat allowance refills slowly here, so a loaded machine cannot make room for another line.
    limits = ConnectionLimits(rate_burst=10_000, rate_per_second=10_000.0, chat_per_second=0.001)
    client = make_client(connection=limits)
    table = create_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        flooder = Player(ws)
        for i in range(BURST + 5):
            flooder.send({"type": "chat", "text": f"spam {i}"})
        replies = [chat_of(flooder) for _ in range(BURST + 5)]
    kinds = [reply.get("code") if reply["type"] == "error" else "line" for reply in replies]
    assert kinds.count("line") == BURST
    assert set(kinds) == {"line", "error.chat_slow_down"}
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        assert len(history(Player(ws))) == BURST


def test_an_address_chatting_over_many_connections_is_held_to_its_own_limit(
    make_client: Callable[..., TestClient],
) -> None:
    addresses = AddressLimits("10000/second", "10000/second", cutoff=None, chat="3/minute")
    client = make_client(addresses=addresses)
    codes = [create_table(client, [HUMAN, BOT])["code"] for _ in range(2)]
    with ExitStack() as stack:
        # Four connections over two tables, each saying one line: well within its own chat budget.
        replies = []
        for i, code in enumerate(codes * 2):
            spectator = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
            spectator.send({"type": "chat", "text": f"hello {i}"})
            replies.append(chat_of(spectator))
    assert [reply["type"] for reply in replies] == ["chat", "chat", "chat", "error"]
    refusal = replies[-1]
    assert refusal["code"] == "error.too_many_chat_lines" and refusal["limit"] == 3 and 1 <= refusal["seconds"] <= 60
    with client.websocket_connect(f"/ws/{codes[1]}") as ws:
        assert [line["text"] for line in history(Player(ws))] == ["hello 1"]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "chat", "text": "x" * (chat.MAX_CHARS + 1)},
        {"type": "chat", "text": "   "},
        {"type": "chat", "text": "two\nlines"},
        {"type": "chat", "text": "bell\x07"},
        {"type": "chat", "text": "hi", "seat": 0},
        {"type": "chat", "text": "hi", "name": "Ann"},
        {"type": "chat", "text": "hi", "spectator": False},
        {"type": "react", "reaction": "<script>"},
        {"type": "react", "reaction": "good_game", "seat": 1},
        {"type": "chat", "text": 5},
    ],
)
def test_bad_chat_lines_and_impersonation_are_refused_and_store_nothing(
    client: TestClient, message: dict[str, Any]
) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, BOT])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        spectator = Player(ws)
        spectator.send(message)
        error = chat_of(spectator)
        assert error["type"] == "error" and "\n" not in error["message"]
        if message.get("text") == "x" * (chat.MAX_CHARS + 1):
            assert error["code"] == "error.chat_line" and error["limit"] == chat.MAX_CHARS
        spectator.send({"type": "chat", "text": "I am Ann"})
        line = chat_of(spectator)["line"]
    assert line["seat"] is None and line["spectator"] is True and line["n"] == 1


def test_leaving_hands_the_seat_to_a_bot_until_the_player_comes_back(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], rounds=1)
    code, bo_token = table["code"], table["seats"][1]["token"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        ann.until_state(lambda s: True)
        left = client.post(f"/api/tables/{code}/leave", json={"token": bo_token})
        assert left.status_code == 200, left.text
        state = ann.until_state(lambda s: s["left"][1])
        assert state["status"] == "playing"
        # Bo's turns are played by a bot: the round moves on without Bo.
        ann.until_state(lambda s: s["to_move"] == 0 or s["round_over"] is not None)
        assert client.post(f"/api/tables/{code}/leave", json={"token": "nobody"}).status_code == 403
        with client.websocket_connect(f"/ws/{code}?token={bo_token}") as back:
            Player(back).until_state(lambda s: s["seat"] == 1 and not s["left"][1])
            ann.until_state(lambda s: not s["left"][1] and s["connected"][1])


def test_the_creator_reopens_an_absent_players_seat_with_a_new_invite(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN, HUMAN])
    code, old = table["code"], table["seats"][1]["token"]
    refused = client.post(f"/api/tables/{code}/seats/1/reopen", json={"token": old})
    assert refused.status_code == 403
    assert client.post(f"/api/tables/{code}/seats/0/reopen", json={"token": table["token"]}).status_code == 409
    reopened = client.post(f"/api/tables/{code}/seats/1/reopen", json={"token": table["token"]})
    assert reopened.status_code == 200, reopened.text
    body = reopened.json()
    assert body["status"] == "playing" and body["seats"][1]["name"] is None
    with client.websocket_connect(f"/ws/{code}?token={old}") as ws:  # the old credential opens nothing
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    seat = claim_invite(client, body["invite"], name="Cy")
    assert seat["seat"] == 1
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] == "Cy"


def test_public_tables_are_listed_with_an_etag_and_leave_the_list_when_over(client: TestClient) -> None:
    public = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN, BOT], claim=False, public=True)
    private = create_table(client, [HUMAN, HUMAN], claim=False)
    unnamed = create_table(client, [BOT, HUMAN, HUMAN], claim=False, public=True)
    assert public["open"] is True and public["public"] is True
    listed = client.get("/api/lobby")
    assert listed.status_code == 200
    tables = {t["code"]: t for t in listed.json()["tables"]}
    assert private["code"] not in tables
    entry = tables[public["code"]]
    assert entry["status"] == "waiting" and entry["free"] == 1 and entry["bots"] == 1 and entry["players"] == 3
    assert entry["seated"] == [0] and entry["names"] == ["Ann"] and entry["rules"]["max_pip"] == 9
    # A player who chose no name is listed without one: each reader's page says "Player 2".
    assert tables[unnamed["code"]]["seated"] == [1] and tables[unnamed["code"]]["names"] == [None]
    tag = listed.headers["etag"]
    assert client.get("/api/lobby", headers={"if-none-match": tag}).status_code == 304
    # Only the creator lists or unlists a table.
    flag = {"token": public["token"], "public": True}
    assert client.post(f"/api/tables/{private['code']}/public", json=flag).status_code == 403
    made = client.post(f"/api/tables/{private['code']}/public", json={**flag, "token": private["token"]})
    assert made.status_code == 200 and made.json()["public"] is True and made.json()["open"] is True
    # Unlisted again, the table is invite-only: its code no longer takes a seat.
    hidden = client.post(
        f"/api/tables/{private['code']}/public", json={**flag, "token": private["token"], "public": False}
    )
    assert hidden.json()["public"] is False and hidden.json()["open"] is False
    joined = client.post(f"/api/tables/{private['code']}/join", json={"name": "Eve"})
    assert joined.status_code == 403 and joined.json()["code"] == "error.invite_only"


def test_a_public_table_seated_but_not_ready_is_listed_as_waiting(make_client: Callable[..., TestClient]) -> None:
    from chickenfoot.server import lobby

    client = make_client()
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN], claim=False, public=True)
    code = table["code"]
    bo = client.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()["token"]

    def listed() -> dict[str, Any]:
        return next(t for t in client.get("/api/lobby").json()["tables"] if t["code"] == code)

    lobby.CACHE_SECONDS, cached = 0.0, lobby.CACHE_SECONDS
    try:
        # Every seat taken, nobody ready yet: no seat to join, but the match has not begun.
        assert listed()["free"] == 0 and listed()["status"] == "waiting"
        ready(client, code, bo)
        assert listed()["status"] == "waiting"
        ready(client, code, table["token"])
        assert listed()["status"] == "playing"
    finally:
        lobby.CACHE_SECONDS = cached


def test_a_finished_public_match_leaves_the_list(make_client: Callable[..., TestClient]) -> None:
    from chickenfoot.server import lobby

    client = make_client()
    table = create_table(client, [HUMAN, BOT], public=True, rounds=1)
    lobby.CACHE_SECONDS, cached = 0.0, lobby.CACHE_SECONDS
    try:
        assert table["code"] in {t["code"] for t in client.get("/api/lobby").json()["tables"]}
        with ExitStack() as stack:
            play_out(seat_players(client, table, stack), random.Random(1))
        for _ in range(100):
            if table["code"] not in {t["code"] for t in client.get("/api/lobby").json()["tables"]}:
                break
        else:
            pytest.fail("the finished table is still listed")
    finally:
        lobby.CACHE_SECONDS = cached


def test_rematch_moves_every_seated_player_to_a_new_table(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}, BOT], rounds=1)
    code = table["code"]
    tokens = [table["seats"][0]["token"], table["seats"][1]["token"]]
    assert client.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]}).status_code == 409  # not over
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        play_out(players, random.Random(2))
        first = client.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]})
        assert first.status_code == 200
        assert first.json() == {"type": "rematch", "accepted": [0], "waiting": [1], "code": None}
        assert players[1].until(lambda m: m["type"] == "rematch")["accepted"] == [0]
        assert client.post(f"/api/tables/{code}/rematch/seat", json={"token": tokens[1]}).status_code == 409
        second = client.post(f"/api/tables/{code}/rematch", json={"token": tokens[1]}).json()
        new = second["code"]
        assert new and new != code and second["waiting"] == []
        assert players[0].until(lambda m: m["type"] == "rematch" and m["code"] is not None)["code"] == new
    fresh = [client.post(f"/api/tables/{code}/rematch/seat", json={"token": tokens[0]}).json()]
    assert client.get(f"/api/tables/{fresh[0]['code']}").json()["status"] == "waiting"  # for Bo's seat
    fresh.append(client.post(f"/api/tables/{code}/rematch/seat", json={"token": tokens[1]}).json())
    assert [f["seat"] for f in fresh] == [0, 1] and all(f["code"] == new for f in fresh)
    assert {f["token"] for f in fresh}.isdisjoint(tokens)
    again = client.post(f"/api/tables/{code}/rematch/seat", json={"token": tokens[0]})
    assert again.status_code == 409  # handed out once
    summary = client.get(f"/api/tables/{new}").json()
    # The accept was each player's Ready: with both seats taken, the match is on without one.
    assert summary["status"] == "playing" and summary["rules"] == client.get(f"/api/tables/{code}").json()["rules"]
    assert [s["name"] for s in summary["seats"]][:2] == ["Ann", "Bo"] and summary["seats"][2]["kind"] == "bot"
    with client.websocket_connect(f"/ws/{new}?token={fresh[1]['token']}") as ws:
        assert Player(ws).until_state(lambda s: True)["seat"] == 1
    with client.websocket_connect(f"/ws/{code}") as ws:  # a late spectator learns where the match went on
        assert Player(ws).until(lambda m: m["type"] == "rematch")["code"] == new


def refusal(response: Any, status: int) -> dict[str, Any]:
    """The coded refusal of a company request (server/refusal.py), checked for its status."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["detail"] and body["code"]
    return body


def test_company_refusals_carry_message_codes(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN, HUMAN], rounds=1)
    code, ann, bo = table["code"], table["token"], table["seats"][1]["token"]
    post = client.post
    assert refusal(post(f"/api/tables/{code}/leave", json={"token": "nobody"}), 403)["code"] == (
        "error.token_opens_no_seat"
    )
    assert refusal(post(f"/api/tables/{code}/seats/2/reopen", json={"token": bo}), 403)["code"] == "error.only_creator"
    assert refusal(post(f"/api/tables/{code}/seats/9/reopen", json={"token": ann}), 404) == {
        "detail": "no seat 9 at this table",
        "code": "error.no_seat",
        "number": 9,
    }
    assert refusal(post(f"/api/tables/{code}/seats/0/reopen", json={"token": ann}), 409)["code"] == (
        "error.not_friends_seat"
    )
    with client.websocket_connect(f"/ws/{code}?token={bo}") as ws:
        Player(ws).until_state(lambda s: s["connected"][1])
        connected = refusal(post(f"/api/tables/{code}/seats/1/reopen", json={"token": ann}), 409)
        assert connected["code"] == "error.seat_connected" and connected["number"] == 1
    assert refusal(post(f"/api/tables/{code}/rematch", json={"token": ann}), 409)["code"] == "error.rematch_not_yet"
    assert refusal(post(f"/api/tables/{code}/rematch/seat", json={"token": ann}), 409)["code"] == (
        "error.no_rematch_yet"
    )
    with ExitStack() as stack:
        play_out(seat_players(client, table, stack), random.Random(3))
    assert refusal(post(f"/api/tables/{code}/leave", json={"token": bo}), 409)["code"] == "error.nothing_to_leave"
    assert refusal(post(f"/api/tables/{code}/seats/2/reopen", json={"token": ann}), 409)["code"] == ("error.match_over")
    new = post(f"/api/tables/{code}/rematch", json={"token": ann}).json()["code"]  # nobody else is present
    assert new is not None
    again = refusal(post(f"/api/tables/{code}/rematch", json={"token": bo}), 409)
    assert again["code"] == "error.rematch_made" and again["table"] == new
    assert post(f"/api/tables/{code}/rematch/seat", json={"token": ann}).status_code == 200
    assert refusal(post(f"/api/tables/{code}/rematch/seat", json={"token": ann}), 409)["code"] == "error.seat_taken"


def test_a_rematch_carries_the_series_and_the_chat_on(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, BOT], rounds=1)
    first_code = table["code"]
    winners: list[int] = []
    for played in (1, 2):
        code = table["code"]
        with ExitStack() as stack:
            players = seat_players(client, table, stack)
            players[0].send({"type": "chat", "text": f"match {played}"})
            assert chat_of(players[0])["line"]["text"] == f"match {played}"
            over = play_out(players, random.Random(played))
            winners += over["match_over"]["winners"]
            made = client.post(f"/api/tables/{code}/rematch", json={"token": table["token"]}).json()
        seat = client.post(f"/api/tables/{code}/rematch/seat", json={"token": table["token"]}).json()
        table = {"code": seat["code"], "token": seat["token"], "seats": [{"seat": 0, "kind": "human", **seat}]}
        assert made["code"] == seat["code"]
        with client.websocket_connect(f"/ws/{seat['code']}?token={seat['token']}") as ws:
            player = Player(ws)
            series = player.until(lambda m: m["type"] == "series")
            assert series == {
                "type": "series",
                "previous": code,
                "played": played,
                "wins": [winners.count(0), winners.count(1)],
            }
            assert [line["text"] for line in history(player)] == [f"match {n}" for n in range(1, played + 1)]
    with client.websocket_connect(f"/ws/{first_code}") as ws:  # the first match of a series has no series
        first = Player(ws)
        first.until(lambda m: m["type"] == "rematch")
        assert not [m for m in first.messages if m["type"] == "series"]


def test_the_next_matchs_table_carries_the_series_and_gives_unheld_seats_bots() -> None:
    from chickenfoot.rules import Rules
    from chickenfoot.server.table.config import Seat, Series, TableConfig
    from chickenfoot.server.table.rematch import new_config

    seats = [Seat("human", "Ann", taken=True), Seat("human", taken=False), Seat("human", "Cy", taken=True, left=True)]
    seats.append(Seat("bot", bot="easy", taken=True))
    first = new_config(TableConfig(Rules.preset("classic"), seats, 1), 2, "FIRST", winners=[0, 3])
    assert [seat.kind for seat in first.seats] == ["human", "bot", "bot", "bot"]
    assert first.series == Series("FIRST", 1, (1, 0, 0, 1))  # a shared win counts for each winner
    first.seats[0].taken = True  # Ann claimed her seat there
    second = new_config(first, 3, "SECOND", winners=[3])
    assert second.series == Series("SECOND", 2, (1, 0, 0, 2))
    assert TableConfig.from_json(second.to_json()) == second
    assert not second.rated
    rated = TableConfig(
        Rules.preset("classic"), [Seat("human", "Ann", taken=True), Seat("bot", bot="easy")], 4, rated=True
    )
    assert new_config(rated, 5, "RATED", winners=[1]).rated  # the same accounts and rules: rated again

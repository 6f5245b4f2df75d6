"""Moderation through its API and a table's socket: the operator's role granted on the command line, each
action written to the audit log with its reason, and what the player meets (a mute saying until when, a
suspension ending their sessions and refusing their sign-in, a closed account, a neutral name, a table
ended); the automatic chat filter and throttles; and nobody but an operator learns that the pages exist."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.edge.client import CLOSE_NO_TABLE, CLOSE_SIGNED_OUT, ConnectionLimits
from chickenfoot.server.moderation.admin import set_operator
from chickenfoot.server.moderation.reports import Evidence, Outcome, Report

from ..botapi.conftest import bearer, bot_account
from .conftest import GENEROUS, PASSWORD, sign_up

Headers = dict[str, str]


def signed_up(client: TestClient, name: str) -> Headers:
    """A new account's device: its cookie and CSRF token (the client keeps no cookie of its own)."""
    csrf = sign_up(client, name)["csrf"]
    headers = {"cookie": f"{COOKIE}={client.cookies[COOKIE]}", "x-csrf-token": csrf}
    client.cookies.clear()
    return headers


def operator(client: TestClient, database_url: str, name: str = "olga") -> Headers:
    headers = signed_up(client, name)
    granted = asyncio.run(set_operator(database_url, name, True, clock=SystemClock()))
    assert granted is not None and granted.operator
    return headers


def table_of(client: TestClient, player: Headers) -> str:
    """A table whose seat 1 follows ``player``'s account (seated by the session, no credential)."""
    made = client.post("/api/tables", json={"seats": [{"kind": "bot"}, {"kind": "human"}]}, headers=player)
    assert made.status_code == 201, made.text
    client.cookies.clear()
    return str(made.json()["code"])


def player_id(client: TestClient, op: Headers, name: str) -> int:
    found = client.get("/api/admin/players", params={"name": name}, headers=op)
    assert found.status_code == 200, found.text
    return int(found.json()["id"])


def act(client: TestClient, op: Headers, account: int, action: str, **body: Any) -> dict[str, Any]:
    done = client.post(f"/api/admin/players/{account}/{action}", json=body, headers=op)
    assert done.status_code == 200, done.text
    return dict(done.json()["audit"])


def say(ws: Any, text: str) -> dict[str, Any]:
    """Say ``text``; the line as the table told it, or the error refusing it."""
    ws.send_json({"type": "chat", "text": text})
    while (message := ws.receive_json())["type"] not in ("chat", "error"):
        pass
    return dict(message)


def closed_with(ws: Any) -> tuple[str, int]:
    """The code of the error a socket was sent last, and its close code."""
    error = ""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            message = ws.receive_json()
            if message["type"] == "error":
                error = message["code"]
    return error, closed.value.code


def audit(client: TestClient, op: Headers) -> list[dict[str, Any]]:
    return list(client.get("/api/admin/audit", headers=op).json()["lines"])


CHATTY = ConnectionLimits(rate_burst=10_000, rate_per_second=10_000.0, send_timeout=3600.0, chat_burst=100)
"""A connection's own chat budget out of the way: the moderation's refusals are the ones tested."""


@pytest.fixture
def moderated(make_client: Callable[..., TestClient], no_accounts_yet: None) -> TestClient:
    return make_client(addresses=GENEROUS, connection=CHATTY)


def test_the_pages_answer_as_missing_addresses_to_everyone_but_an_operator(
    moderated: TestClient, database_url: str
) -> None:
    client = moderated
    missing = client.get("/api/admin/nothing-here")
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    for path in ("/admin", "/api/admin/audit", "/api/admin/players?name=kim", "/api/admin/reports"):
        for headers in ({}, player):
            answer = client.get(path, headers=headers)
            assert (answer.status_code, answer.json()) == (404, missing.json()), path
        assert client.get(path, headers=op).status_code == 200, path
    kim = player_id(client, op, "kim")
    refused = client.post(f"/api/admin/players/{kim}/mute", json={"reason": "x", "minutes": 5}, headers=player)
    assert refused.status_code == 404
    # An operator's change needs the session's CSRF token, as the account's own do.
    no_token = {"cookie": op["cookie"]}
    assert (
        client.post(f"/api/admin/players/{kim}/mute", json={"reason": "x", "minutes": 5}, headers=no_token).status_code
        == 403
    )
    # The grant itself is the first line of the audit log, done on the command line.
    [grant] = audit(client, op)
    assert (grant["action"], grant["subject"], grant["by_command_line"]) == ("grant", "olga", True)


def test_the_audit_log_is_only_read(moderated: TestClient, database_url: str) -> None:
    client = moderated
    op = operator(client, database_url)
    [line] = audit(client, op)
    for method in ("PUT", "PATCH", "DELETE", "POST"):
        for path in ("/api/admin/audit", f"/api/admin/audit/{line['id']}"):
            assert client.request(method, path, headers=op, json={"reason": ""}).status_code in (404, 405), path
    assert audit(client, op) == [line]


def test_a_muted_player_is_told_until_when_and_says_nothing_until_it_is_lifted(
    moderated: TestClient, database_url: str
) -> None:
    client = moderated
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    code = table_of(client, player)
    kim = player_id(client, op, "kim")
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        assert say(ws, "hello")["type"] == "chat"
        line = act(client, op, kim, "mute", reason="insults at table", minutes=60)
        refused = say(ws, "hello again")
        assert refused["code"] == "moderation.muted" and refused["moment"] == line["details"]["until"]
        ws.send_json({"type": "react", "reaction": "good_game"})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "moderation.muted"
        facts = client.get("/api/admin/players", params={"id": kim}, headers=op).json()
        assert facts["muted_until"] == line["details"]["until"]
        assert [said["text"] for said in facts["chat"]] == ["hello"]  # the refused lines were never kept
        act(client, op, kim, "unmute", reason="apologised")
        assert say(ws, "sorry")["type"] == "chat"
    assert [(x["action"], x["subject"], x["operator"], x["reason"]) for x in audit(client, op)[:2]] == [
        ("unmute", "kim", "olga", "apologised"),
        ("mute", "kim", "olga", "insults at table"),
    ]


def until_told(ws: Any, kind: str) -> tuple[list[str], dict[str, Any]]:
    """The types of the messages a socket is sent before one of type ``kind``, and that one."""
    before = []
    while (message := ws.receive_json())["type"] != kind:
        before.append(message["type"])
    return before, dict(message)


def told_no_mute(ws: Any) -> None:
    """Nothing about a mute waits for the socket: a ping's pong comes after all it was sent so far."""
    ws.send_json({"type": "ping"})
    before, _ = until_told(ws, "pong")
    assert "mute" not in before


def test_a_muted_player_sees_the_mute_and_its_end_as_the_table_opens_and_nobody_else_does(
    moderated: TestClient, database_url: str
) -> None:
    client = moderated
    player, watcher = signed_up(client, "kim"), signed_up(client, "ann")
    op = operator(client, database_url)
    code = table_of(client, player)
    kim, ann = player_id(client, op, "kim"), player_id(client, op, "ann")
    muted = act(client, op, kim, "mute", reason="insults at table", minutes=60)
    with (
        client.websocket_connect(f"/ws/{code}", headers=player) as ws,
        client.websocket_connect(f"/ws/{code}", headers=watcher) as watching,
    ):
        # As the table opens, after its state: the mute and its end, to the muted player's connection alone.
        before, note = until_told(ws, "mute")
        assert before[0] == "state" and "mute" not in before
        assert (note["code"], note["moment"]) == ("moderation.muted", muted["details"]["until"])
        assert note["message"].startswith("The operators muted you in chat until ")  # its English, for older clients
        assert watching.receive_json()["state"]["watching"] is not None
        told_no_mute(watching)
        # Lifted while the page is open: the note goes.
        act(client, op, kim, "unmute", reason="apologised")
        _, lifted = until_told(ws, "mute")
        assert (lifted["code"], lifted["moment"]) == ("moderation.unmuted", None)
        told_no_mute(watching)
        # A spectator muted while watching is told too, and the player is not.
        again = act(client, op, ann, "mute", reason="spam", minutes=30)
        _, note = until_told(watching, "mute")
        assert (note["code"], note["moment"]) == ("moderation.muted", again["details"]["until"])
        told_no_mute(ws)
    # A player not muted is told nothing as the table opens.
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        told_no_mute(ws)


def test_a_suspension_ends_the_players_sessions_at_once_and_refuses_their_sign_in(
    moderated: TestClient, database_url: str
) -> None:
    client = moderated
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    code = table_of(client, player)
    kim = player_id(client, op, "kim")
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        assert ws.receive_json()["state"]["seat"] == 1
        line = act(client, op, kim, "suspend", reason="spam", minutes=24 * 60)
        assert closed_with(ws) == ("error.signed_out", CLOSE_SIGNED_OUT)
    assert client.get("/api/account", headers=player).status_code == 401
    refused = client.post("/api/account/signin", json={"username": "kim", "password": PASSWORD})
    assert (refused.status_code, refused.json()["code"]) == (403, "moderation.suspended")
    assert refused.json()["moment"] == line["details"]["until"]
    act(client, op, kim, "unsuspend", reason="served")
    assert client.post("/api/account/signin", json={"username": "kim", "password": PASSWORD}).status_code == 200
    assert [x["action"] for x in audit(client, op)[:2]] == ["unsuspend", "suspend"]


def test_a_closed_account_is_gone_and_the_log_keeps_its_last_name(moderated: TestClient, database_url: str) -> None:
    client = moderated
    signed_up(client, "kim")
    op = operator(client, database_url)
    kim = player_id(client, op, "kim")
    act(client, op, kim, "close", reason="threats")
    refused = client.post("/api/account/signin", json={"username": "kim", "password": PASSWORD})
    assert refused.status_code == 401
    again = client.post(f"/api/admin/players/{kim}/mute", json={"reason": "x", "minutes": 5}, headers=op)
    assert (again.status_code, again.json()["code"]) == (409, "moderation.closed")
    assert (audit(client, op)[0]["action"], audit(client, op)[0]["subject"]) == ("close", "kim")
    assert client.get("/api/admin/players", params={"id": kim}, headers=op).json()["closed"] is True


def test_an_abusive_name_becomes_a_neutral_one_and_the_old_stays_held(moderated: TestClient, database_url: str) -> None:
    client = moderated
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    kim = player_id(client, op, "kim")
    line = act(client, op, kim, "rename", reason="offensive name")
    new = line["details"]["to"]
    assert line["details"]["from"] == "kim" and new.startswith("player") and len(new) == 12
    assert client.get("/api/account", headers=player).json()["username"] == new
    taken = client.post("/api/account/signup", json={"username": "kim", "password": PASSWORD})
    assert taken.status_code == 409  # nobody takes the old name meanwhile


def test_an_operator_is_acted_on_by_no_operator(moderated: TestClient, database_url: str) -> None:
    client = moderated
    op = operator(client, database_url)
    operator(client, database_url, "otto")
    otto = player_id(client, op, "otto")
    refused = client.post(f"/api/admin/players/{otto}/suspend", json={"reason": "x", "minutes": 5}, headers=op)
    assert (refused.status_code, refused.json()["code"]) == (409, "moderation.operator")


def test_an_ended_table_closes_its_sockets_and_is_gone(moderated: TestClient, database_url: str) -> None:
    client = moderated
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    code = table_of(client, player)
    with (
        client.websocket_connect(f"/ws/{code}", headers=player) as ws,
        client.websocket_connect(f"/ws/{code}") as watcher,
    ):
        assert ws.receive_json()["type"] == "state" and watcher.receive_json()["type"] == "state"
        ended = client.post(f"/api/admin/tables/{code}/end", json={"reason": "abusive names"}, headers=op)
        assert ended.status_code == 200, ended.text
        assert closed_with(ws) == ("error.table_ended", CLOSE_NO_TABLE)
        assert closed_with(watcher) == ("error.table_ended", CLOSE_NO_TABLE)
    assert client.get(f"/api/tables/{code}").status_code == 404
    line = audit(client, op)[0]
    assert (line["action"], line["table"], line["reason"]) == ("end_table", code, "abusive names")
    again = client.post(f"/api/admin/tables/{code}/end", json={"reason": "again"}, headers=op)
    assert again.status_code == 404


@pytest.mark.parametrize("line", ["fuck you", "F U C K", "ｆｕｃｋ", "kurva", "pizdec", "you are a n1gg3r"])
def test_the_worst_words_are_refused_in_any_spelling(moderated: TestClient, database_url: str, line: str) -> None:
    client = moderated
    player = signed_up(client, "kim")
    code = table_of(client, player)
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        assert say(ws, line)["code"] == "moderation.filtered"
        assert say(ws, "good game")["type"] == "chat"


def test_an_operator_extends_the_filter_in_force_at_once(moderated: TestClient, database_url: str) -> None:
    client = moderated
    player = signed_up(client, "kim")
    op = operator(client, database_url)
    code = table_of(client, player)
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        assert say(ws, "zorblax everyone")["type"] == "chat"
        added = client.post("/api/admin/words", json={"word": "zorbl*"}, headers=op)
        assert added.status_code == 201, added.text
        assert say(ws, "ZORBLAXES everyone")["code"] == "moderation.filtered"
        assert [w["word"] for w in client.get("/api/admin/words", headers=op).json()["added"]] == ["zorbl*"]
        for bad_word in ("a*b", "zq2x"):  # a star inside, a digit read as no letter
            bad = client.post("/api/admin/words", json={"word": bad_word}, headers=op)
            assert (bad.status_code, bad.json()["code"]) == (400, "moderation.bad_word")
        assert client.delete("/api/admin/words/zorbl*", headers=op).status_code == 200
        assert say(ws, "zorblax again")["type"] == "chat"
    assert [(x["action"], x["details"]) for x in audit(client, op)[:2]] == [
        ("word_remove", {"word": "zorbl*"}),
        ("word_add", {"word": "zorbl*"}),
    ]


def test_the_same_line_and_links_are_throttled(moderated: TestClient) -> None:
    client = moderated
    player = signed_up(client, "kim")
    code = table_of(client, player)
    with client.websocket_connect(f"/ws/{code}", headers=player) as ws:
        replies = [say(ws, text) for text in ("buy gold", "BUY  gold", "buy gold", "buy gold")]
        assert [r.get("code", "said") for r in replies] == ["said", "said", "said", "moderation.repeated"]
        links = [say(ws, f"see example.com/{i}") for i in range(3)]
        assert [r.get("code", "said") for r in links] == ["said", "said", "moderation.links"]
        assert 1 <= links[-1]["seconds"] <= 600


class Desk:
    """A desk holding one open report, as the feature keeping the players' reports would hand it over."""

    def __init__(self, reported_id: int | None = None) -> None:
        evidence = (Evidence(3, 1, "you idiot", None, "2030-01-01T10:00:00+00:00", "kim"),)
        at = datetime(2030, 1, 1, 10, 1, tzinfo=UTC)
        self.report = Report(7, "ann", reported_id, "kim", "abuse", "rude all match", "ABCDEF", 3, evidence, at, "open")

    async def listed(self, handled: bool, before: int | None, limit: int) -> list[Report]:
        return [self.report] if (self.report.status != "open") == handled else []

    async def count_open(self) -> int:
        return int(self.report.status == "open")

    async def handle(self, report_id: int, operator_id: int, outcome: Outcome, resolution: str) -> Report | None:
        if report_id != self.report.id or self.report.status != "open":
            return None
        self.report = replace(self.report, status=outcome.value, resolution=resolution)
        return self.report


def test_a_report_is_listed_with_its_evidence_and_handled_once(
    make_client: Callable[..., TestClient], no_accounts_yet: None, database_url: str
) -> None:
    desk = Desk()
    client = make_client(addresses=GENEROUS, connection=CHATTY, report_desk=lambda _storage, _clock: desk)
    signed_up(client, "kim")
    op = operator(client, database_url)
    desk.report = replace(desk.report, reported_id=player_id(client, op, "kim"))
    listed = client.get("/api/admin/reports", headers=op).json()
    assert listed["open"] == 1 and listed["reports"][0]["evidence"][0]["text"] == "you idiot"
    handled = client.post("/api/admin/reports/7", json={"outcome": "actioned", "resolution": "muted"}, headers=op)
    assert handled.status_code == 200, handled.text
    assert client.post("/api/admin/reports/7", json={"outcome": "dismissed"}, headers=op).status_code == 404
    assert (
        client.get("/api/admin/reports", params={"handled": True}, headers=op).json()["reports"][0]["status"]
        == "actioned"
    )
    line = audit(client, op)[0]
    assert (line["action"], line["subject"], line["reason"], line["details"]) == (
        "report",
        "kim",
        "muted",
        {"outcome": "actioned", "report": 7},
    )


def test_a_muted_bot_account_says_nothing_through_the_bot_api(moderated: TestClient, database_url: str) -> None:
    client = moderated
    auth = bearer(bot_account(client, database_url, "robo"))
    op = operator(client, database_url)
    code = client.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}], "rounds": 1}, headers=auth).json()
    path = f"/api/bot/tables/{code['table']}/chat"
    assert client.post(path, json={"text": "good luck"}, headers=auth).status_code == 200
    assert client.post(path, json={"text": "fuck off"}, headers=auth).json()["code"] == "moderation.filtered"
    act(client, op, player_id(client, op, "robo"), "mute", reason="spam", minutes=30)
    refused = client.post(path, json={"text": "hello"}, headers=auth)
    assert (refused.status_code, refused.json()["code"]) == (403, "moderation.muted")


def test_the_role_is_granted_to_an_account_that_exists_only(moderated: TestClient, database_url: str) -> None:
    assert asyncio.run(set_operator(database_url, "nobody", True, clock=SystemClock())) is None
    op = operator(moderated, database_url)
    assert [line["action"] for line in audit(moderated, op)] == ["grant"]

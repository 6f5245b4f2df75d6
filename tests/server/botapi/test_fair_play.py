"""Fair play through the Bot API in one process: rated tables honoured or refused with why, one seat per
account at a rated table, and a bot that calls off, resigns or leaves its table."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack

from fastapi.testclient import TestClient
from httpx import Response

from chickenfoot.server.http.limits import TokenLimits

from ..accounts.conftest import GENEROUS
from ..conftest import Player
from .conftest import bearer, bot_account

EASY = {"bot": "easy"}


def coded(response: Response, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["code"])


def test_rated_true_is_honoured_or_refused_with_why(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    auth = bearer(bot_account(client, database_url, "ratedbot"))
    bot_account(client, database_url, "otherbot")
    created = client.post("/api/bot/tables", json={"opponents": [EASY], "rated": True}, headers=auth)
    assert created.status_code == 201 and created.json()["rated"] is True, created.text
    code = created.json()["table"]
    assert client.get(f"/api/tables/{code}").json()["rated"] is True
    assert client.get(f"/api/ratings/tables/{code}").json()["rated"] is True
    casual = client.post("/api/bot/tables", json={"opponents": [EASY]}, headers=auth).json()
    assert casual["rated"] is False and client.get(f"/api/tables/{casual['table']}").json()["rated"] is False
    refused = {
        "rating.not_bot": ({"opponents": [{"bot": "greedy"}], "rated": True}, 400),
        "rating.not_preset": ({"opponents": [EASY], "rated": True, "rounds": 3}, 400),
        "rating.two_seats": ({"opponents": [{"account": "ratedbot"}], "rated": True}, 403),
    }
    for code_expected, (body, status) in refused.items():
        assert coded(client.post("/api/bot/tables", json=body, headers=auth), status) == code_expected
    invited = client.post("/api/bot/tables", json={"opponents": [{"account": "otherbot"}], "rated": True}, headers=auth)
    assert invited.status_code == 201 and invited.json()["rated"] is True  # an invited bot account is rated too


def test_a_bot_calls_off_its_table_before_the_match_and_only_then(bot_client: TestClient, database_url: str) -> None:
    client = bot_client
    host = bearer(bot_account(client, database_url, "hostbot"))
    guest = bearer(bot_account(client, database_url, "guestbot"))
    code = client.post("/api/bot/tables", json={"opponents": [{"account": "guestbot"}]}, headers=host).json()["table"]
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    assert client.post(f"/api/bot/tables/{code}/abort", headers=host).json() == {"aborted": code}
    summary = client.get(f"/api/tables/{code}").json()
    assert summary["status"] == "aborted" and summary["open"] is False
    assert coded(client.post(f"/api/bot/tables/{code}/accept", headers=guest), 404) == "botapi.no_invitation"
    assert coded(client.post(f"/api/bot/tables/{code}/abort", headers=guest), 403) == "botapi.not_seated"
    moved = client.post(f"/api/bot/tables/{code}/move", json={"move": "draw", "version": 0}, headers=host)
    assert coded(moved, 409) == "error.aborted"
    playing = client.post("/api/bot/tables", json={"opponents": [EASY]}, headers=host).json()["table"]
    started = client.post(f"/api/bot/tables/{playing}/abort", headers=host)
    assert coded(started, 409) == "error.abort_started"


def test_a_bot_resigns_a_rated_match_and_finishes_last(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    client = make_client(addresses=GENEROUS, bot_limits=TokenLimits(moves="1000/second", reads="1000/second"))
    auth = bearer(bot_account(client, database_url, "quitter"))
    code = client.post("/api/bot/tables", json={"opponents": [EASY], "rated": True}, headers=auth).json()["table"]
    with ExitStack() as stack:  # a spectator: the table runs while someone watches
        watcher = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        watcher.until_state(lambda state: True)  # attached: it hears every event from here on
        assert client.post(f"/api/bot/tables/{code}/resign", headers=auth).json() == {"resigned": code}
        final = watcher.until_state(lambda s: s["match_over"] is not None)
        assert final["kinds"][0] == "bot" and "event.resigned" in json.dumps(watcher.messages)
        notice = watcher.until(lambda m: m["type"] == "rating")
    (change,) = notice["changes"]
    assert change["seat"] == 0 and change["delta"] < 0  # resigned: last, whatever the bot level made of the seat
    again = client.post(f"/api/bot/tables/{code}/resign", headers=auth)
    assert coded(again, 403) == "botapi.not_seated"  # the seat is no longer the bot's to act for


def test_a_bot_leaves_and_comes_back_as_a_page_does(make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(addresses=GENEROUS, bot_limits=TokenLimits(moves="1000/second", reads="1000/second"))
    auth = bearer(bot_account(client, database_url, "leaver"))
    code = client.post("/api/bot/tables", json={"opponents": [EASY]}, headers=auth).json()["table"]
    assert client.post(f"/api/bot/tables/{code}/leave", headers=auth).json() == {"left": code}
    with ExitStack() as stack:
        watcher = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        state = watcher.until_state(lambda s: s["match_over"] is not None)  # a bot level played the seat meanwhile
    assert state["kinds"][0] == "human" and state["left"][0]  # left, not resigned: still the bot account's seat

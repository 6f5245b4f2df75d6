"""Your seat follows you: a seat taken while signed in, or kept by a guest who signs up mid-match,
opens from any device of the account through the table's WebSocket without a seat credential."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.accounts.sessions import COOKIE

from ..conftest import claim_invite
from .conftest import PASSWORD, sign_up


def first_state(
    client: TestClient, code: str, headers: dict[str, str] | None = None, query: str = ""
) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{code}{query}", headers=headers or {}) as ws:
        message = ws.receive_json()
    assert message["type"] == "state", message
    return dict(message["state"])


def next_state(ws: Any) -> dict[str, Any]:
    """The next state message on a socket, skipping chat and presence."""
    while (message := ws.receive_json())["type"] != "state":
        pass
    return dict(message)


def other_device(client: TestClient) -> dict[str, str]:
    """The headers of a second device signed in to the same account (its own session)."""
    response = client.post("/api/account/signin", json={"username": "kim", "password": PASSWORD})
    return {"cookie": f"{COOKIE}={response.cookies[COOKIE]}"}


def test_a_seat_taken_signed_in_follows_the_account(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = client.post("/api/tables", json={"seats": [{"kind": "bot"}, {"kind": "human"}]}).json()
    phone = other_device(client)
    client.cookies.clear()
    assert first_state(client, table["code"], phone)["seat"] == 1  # no seat credential: the account's seat
    assert first_state(client, table["code"])["seat"] is None  # a guest device watches


def test_a_guest_who_signs_up_mid_match_keeps_the_seat(accounts_client: TestClient) -> None:
    client = accounts_client
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    friend = claim_invite(client, table["seats"][1]["invite"])  # a guest, not signed in
    sign_up(client, "kim")
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    wrong = client.post("/api/account/seats", json={"code": table["code"], "token": "stolen?"}, headers=csrf)
    assert (wrong.status_code, wrong.json()["code"]) == (403, "error.unknown_token")
    kept = client.post("/api/account/seats", json={"code": table["code"], "token": friend["token"]}, headers=csrf)
    assert kept.json() == {"table": table["code"], "seat": 1}
    phone = other_device(client)
    client.cookies.clear()
    assert first_state(client, table["code"], phone)["seat"] == 1
    assert first_state(client, table["code"], query=f"?token={friend['token']}")["seat"] == 1  # the guest's too

    # The creator reopens the absent seat for someone else: it no longer follows the account.
    reopened = client.post(f"/api/tables/{table['code']}/seats/1/reopen", json={"token": table["token"]})
    assert reopened.status_code == 200, reopened.text
    assert first_state(client, table["code"], phone)["seat"] is None


def test_a_cross_site_page_cannot_open_the_seat(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    with client.websocket_connect(f"/ws/{table['code']}", headers={"origin": "https://evil.example"}) as ws:
        message = ws.receive_json()
    assert message["type"] == "error" and message["code"] == "error.foreign_origin"


def test_an_account_deleted_mid_match(accounts_client: TestClient) -> None:
    """The account's sessions open nothing at once; the seat's own credential still plays; the seat is kept."""
    client = accounts_client
    sign_up(client, "kim")
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    phone = other_device(client)
    assert first_state(client, table["code"], phone)["seat"] == 0
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    assert client.delete("/api/account", headers=csrf).status_code == 200
    client.cookies.clear()
    assert first_state(client, table["code"], phone)["seat"] is None
    assert first_state(client, table["code"], query=f"?token={table['token']}")["seat"] == 0


def test_two_devices_on_one_seat_both_play(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    phone = other_device(client)
    client.cookies.clear()  # else signing in again would end the phone's session (rotation)
    laptop = other_device(client)
    client.cookies.clear()
    code = table["code"]
    with (
        client.websocket_connect(f"/ws/{code}", headers=phone) as first,
        client.websocket_connect(f"/ws/{code}", headers=laptop) as second,
    ):
        states = [first.receive_json(), second.receive_json()]
        # The bot may move between the two connections: compare the hands at one version.
        while states[0]["version"] < states[1]["version"]:
            states[0] = next_state(first)
        while states[1]["version"] < states[0]["version"]:
            states[1] = next_state(second)
        assert [message["state"]["seat"] for message in states] == [0, 0]
        assert states[0]["state"]["hand"] == states[1]["state"]["hand"]

"""Why a spectator watches: a guest at a table whose seat follows an account is asked to sign in."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import sign_up


def reason(client: TestClient, code: str) -> str:
    """Why a connection without a seat watches, as its first state says."""
    with client.websocket_connect(f"/ws/{code}") as ws:
        message = ws.receive_json()
    assert message["type"] == "state"
    return str(message["state"]["watching"]["reason"])


def test_a_guest_is_asked_to_sign_in_where_a_seat_follows_an_account(accounts_client: TestClient) -> None:
    client = accounts_client
    guests = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    sign_up(client, "kim")
    kims = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    client.cookies.clear()  # a guest's device
    assert reason(client, kims["code"]) == "sign_in"
    assert reason(client, guests["code"]) == "no_seat"

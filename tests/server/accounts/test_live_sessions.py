"""A device seated by its session, not a seat credential, drops to watching the moment the session
ends: signed out everywhere from another device, or the account deleted mid-match."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.edge.client import CLOSE_SIGNED_OUT

from .conftest import sign_up
from .test_seats import first_state, other_device


def two_devices(client: TestClient) -> tuple[str, dict[str, str], dict[str, str]]:
    """A table with kim's seat (1), and the headers of two devices signed in to kim: the laptop's
    carry its CSRF token too. The client keeps no cookie of its own."""
    csrf = sign_up(client, "kim")["csrf"]
    laptop = {"cookie": f"{COOKIE}={client.cookies[COOKIE]}", "x-csrf-token": csrf}
    code = client.post("/api/tables", json={"seats": [{"kind": "bot"}, {"kind": "human"}]}).json()["code"]
    client.cookies.clear()  # signing in ends the session the browser held: the phone is another browser
    phone = other_device(client)
    client.cookies.clear()
    return code, laptop, phone


@pytest.mark.parametrize("ending", ["/api/account/sessions", "/api/account"])
def test_a_device_seated_by_its_session_watches_once_the_session_ends(accounts_client: TestClient, ending: str) -> None:
    client = accounts_client
    code, laptop, phone = two_devices(client)
    with client.websocket_connect(f"/ws/{code}", headers=phone) as ws:
        assert ws.receive_json()["state"]["seat"] == 1
        ended = client.delete(ending, headers=laptop)  # signed out everywhere; the account deleted
        assert ended.status_code == 200, ended.text
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "error.signed_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == CLOSE_SIGNED_OUT
    assert first_state(client, code, phone)["seat"] is None


def test_signing_out_one_device_leaves_the_other_seated(accounts_client: TestClient) -> None:
    client = accounts_client
    code, laptop, phone = two_devices(client)
    with client.websocket_connect(f"/ws/{code}", headers=phone) as ws:
        assert ws.receive_json()["state"]["seat"] == 1
        assert client.post("/api/account/signout", headers=laptop).status_code == 200
        ws.send_json({"type": "ping"})
        while (message := ws.receive_json())["type"] != "pong":
            assert message["type"] != "error", message
    assert first_state(client, code, phone)["seat"] == 1

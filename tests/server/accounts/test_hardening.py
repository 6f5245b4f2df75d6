"""An account that holds up when a device is lost or left signed in (issue 38): a new password ends the
other sessions, the gravest changes ask for the password or a passkey again once the sign-in is old,
the lock-out says how long in minutes and what still works, and the data download holds what the
account did."""

from __future__ import annotations

import re
from collections.abc import Callable

from fastapi.testclient import TestClient

from chickenfoot.i18n import render_wire
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.limits import AddressLimits

from .authenticator import SoftAuthenticator
from .conftest import GENEROUS, PASSWORD, sign_up
from .test_devices import Device, two_devices
from .test_passkeys import passkey_sign_up

NEW_PASSWORD = "a new tile hub"
CONFIRM_MINUTES = 10


def test_a_new_password_ends_every_other_session(accounts_client: TestClient) -> None:
    laptop, phone = two_devices(accounts_client)
    code = laptop.post("/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()["code"]
    with phone.socket(code) as on_phone:
        assert on_phone.receive_json()["state"]["seat"] == 0
        changed = accounts_client.put("/api/account/password", json={"password": NEW_PASSWORD}, headers=laptop.headers)
        assert changed.status_code == 200, changed.text
        assert changed.json()["ended"] == 2 and changed.json()["signed_out"] is False  # the phone, the sign-up's
        while (message := on_phone.receive_json())["type"] != "error":
            pass
        assert message["code"] == "error.signed_out"  # the phone's seat drops to watching at once
    assert phone.get("/api/account").status_code == 401
    assert laptop.get("/api/account").json()["sessions"] == 1  # this device stays, as it asked
    # Not kept: this device is signed out too.
    other = Device(accounts_client, "kim", NEW_PASSWORD)
    gone = accounts_client.put(
        "/api/account/password", json={"password": PASSWORD, "keep_this_device": False}, headers=other.headers
    )
    assert gone.json() == {"ended": 2, "signed_out": True}
    assert other.get("/api/account").status_code == 401 and laptop.get("/api/account").status_code == 401
    assert "chickenfoot_session=" in gone.headers["set-cookie"]  # the cookie is cleared


def test_the_gravest_changes_ask_to_confirm_once_the_sign_in_is_old(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, clock=clock)
    csrf = {"x-csrf-token": sign_up(client, "kim")["csrf"]}
    # Right after signing in, a change goes through.
    assert client.put("/api/account/password", json={"password": NEW_PASSWORD}, headers=csrf).status_code == 200
    client.portal.call(clock.advance, CONFIRM_MINUTES * 60 + 1)  # type: ignore[union-attr]
    asks = [
        ("PUT", "/api/account/password", {"password": PASSWORD}),
        ("DELETE", "/api/account/password", None),
        ("DELETE", "/api/account/passkeys/some-key", None),
        ("POST", "/api/account/passkeys/register", {}),
        ("POST", "/api/account/bot", None),
        ("DELETE", "/api/account", None),
    ]
    for method, path, body in asks:
        refused = client.request(method, path, json=body, headers=csrf)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json() | {"detail": ""} == {"code": "account.confirm_needed", "count": 10, "detail": ""}
    assert client.get("/api/account").status_code == 200  # reading is no change
    # Confirming: not without the form token, not with a wrong password, not with nothing.
    assert client.post("/api/account/confirm", json={"password": NEW_PASSWORD}).status_code == 403
    wrong = client.post("/api/account/confirm", json={"password": "not the password"}, headers=csrf)
    assert (wrong.status_code, wrong.json()["code"]) == (401, "account.confirm_failed")
    assert client.post("/api/account/confirm", json={}, headers=csrf).status_code == 400
    confirmed = client.post("/api/account/confirm", json={"password": NEW_PASSWORD}, headers=csrf)
    assert confirmed.status_code == 200, confirmed.text
    csrf = {"x-csrf-token": confirmed.json()["csrf"]}  # a new session, as at sign-in
    assert client.delete("/api/account", headers=csrf).json() == {"deleted": True}


def test_a_passkey_confirms_its_own_account_only(make_client: Callable[..., TestClient], no_accounts_yet: None) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, clock=clock)
    theirs, mine = SoftAuthenticator(), SoftAuthenticator()
    passkey_sign_up(client, "lou", theirs)
    client.cookies.clear()
    passkey_sign_up(client, "ivo", mine)
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    client.portal.call(clock.advance, CONFIRM_MINUTES * 60 + 1)  # type: ignore[union-attr]
    assert client.post("/api/account/passkeys/register", json={}, headers=csrf).status_code == 403

    def confirm_with(authenticator: SoftAuthenticator) -> int:
        started = client.post("/api/account/passkeys/signin").json()
        credential = authenticator.get(started["options"])
        body = {"handle": started["handle"], "credential": credential}
        return client.post("/api/account/confirm", json=body, headers=csrf).status_code

    assert confirm_with(theirs) == 401  # lou's passkey proves nothing about ivo
    assert client.get("/api/account").json()["username"] == "ivo"
    assert confirm_with(mine) == 200
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    assert client.post("/api/account/passkeys/register", json={}, headers=csrf).status_code == 200


def test_the_lock_out_says_minutes_and_the_passkey(make_client: Callable[..., TestClient]) -> None:
    limits = AddressLimits(
        "10000/second", "10000/second", cutoff=None, sign_ins="9/15minutes", sign_ins_per_name="3/15minutes"
    )
    client = make_client(addresses=limits)
    sign_up(client, "erin")
    for n in range(3):
        client.post("/api/account/signin", json={"username": "erin", "password": f"guess {n}"})
    by_name = client.post("/api/account/signin", json={"username": "erin", "password": PASSWORD}).json()
    assert by_name["code"] == "account.too_many_sign_ins" and 1 <= by_name["count"] <= 15
    english = render_wire(by_name, "en")
    assert re.fullmatch(
        r"too many sign-in attempts with this username: try again in 1[45] minutes, or sign in with a passkey", english
    ), english
    assert "minu" in render_wire(by_name, "lt") and "tagongskaai" in render_wire(by_name, "fy")
    for n in range(6):
        client.post("/api/account/signin", json={"username": f"name{n}", "password": PASSWORD})
    by_address = client.post("/api/account/signin", json={"username": "other", "password": PASSWORD}).json()
    assert by_address["code"] == "account.too_many_from_address"
    assert render_wire(by_address, "en").endswith(f"try again in {by_address['count']} minutes")


def test_the_data_download_holds_what_the_account_did(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "kim")
    table = client.post("/api/tables", json={"seats": [{"kind": "human", "name": "Kim"}, {"kind": "bot"}]}).json()
    with client.websocket_connect(f"/ws/{table['code']}?token={table['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "good luck, bot"})
        while ws.receive_json()["type"] != "chat":
            pass
    answer = client.get("/api/account/data")
    assert answer.status_code == 200, answer.text
    assert re.fullmatch(
        r'attachment; filename="chickenfoot-account-\d{4}-\d{2}-\d{2}\.json"', answer.headers["content-disposition"]
    )
    data = answer.json()
    assert [(m["code"], m["seat"], m["players"][0]["name"]) for m in data["matches"]] == [(table["code"], 0, "Kim")]
    assert {"result", "over", "created_at", "finished_at"} <= set(data["matches"][0])
    assert [(line["table"], line["text"]) for line in data["chat"]] == [(table["code"], "good luck, bot")]
    assert set(data["ratings"]["now"]) == {"2", "3-4"} and data["ratings"]["changes"] == []
    assert data["seats"] == [{"table": table["code"], "seat": 0}]
    assert "id" not in data and "account_id" not in str(data)

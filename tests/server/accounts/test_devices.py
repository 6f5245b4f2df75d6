"""Two devices of one account and a guest, over HTTP and the table's WebSocket (the defects of issue 38):
every seat action by the account's session as well as by the seat's credential, "continue on another
device" moving the device that asked, a deleted player's name at the table, where signing in may lead,
and answers about an account that no cache keeps."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.edge.client import CLOSE_SEAT_ELSEWHERE

from .conftest import PASSWORD, sign_up


class Device:
    """One browser: its own session cookie (none for a guest) and that session's CSRF token."""

    def __init__(self, client: TestClient, username: str | None = None, password: str = PASSWORD) -> None:
        self.client, self.headers = client, {}
        if username is not None:
            response = client.post("/api/account/signin", json={"username": username, "password": password})
            assert response.status_code == 200, response.text
            self.headers = {"cookie": f"{COOKIE}={response.cookies[COOKIE]}", "x-csrf-token": response.json()["csrf"]}
            client.cookies.clear()  # each device sends its own cookie, and signing in again ends no other's

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(path, json=body or {}, headers=self.headers)

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def socket(self, code: str, token: str | None = None) -> Any:
        query = f"?token={token}" if token else ""
        return self.client.websocket_connect(f"/ws/{code}{query}", headers=self.headers)

    def first_state(self, code: str, token: str | None = None) -> dict[str, Any]:
        with self.socket(code, token) as ws:
            message = ws.receive_json()
        assert message["type"] == "state", message
        return dict(message["state"])


def two_devices(client: TestClient, username: str = "kim") -> tuple[Device, Device]:
    sign_up(client, username)
    client.cookies.clear()
    return Device(client, username), Device(client, username)


def until_error(ws: Any) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] != "error":
        pass
    return dict(message)


def closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_every_seat_action_by_the_accounts_session(accounts_client: TestClient) -> None:
    laptop, phone = two_devices(accounts_client)
    made = laptop.post("/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
    table = made.json()
    code = table["code"]
    # The phone holds no credential: the account's session is its seat (token absent or null alike).
    assert phone.post(f"/api/tables/{code}/public", {"public": True}).json()["public"] is True
    assert phone.post(f"/api/tables/{code}/ready", {"token": None}).status_code == 200
    invites = phone.post(f"/api/tables/{code}/invites")
    assert invites.status_code == 200, invites.text
    fresh = invites.json()["invites"]
    assert [invite["seat"] for invite in fresh] == [1, 2]
    # New links replace the laptop's: those open nothing now, the new ones seat a guest.
    guest = Device(accounts_client)
    old = table["seats"][1]["invite"].split("?invite=")[1]
    assert guest.post(f"/api/tables/{code}/claim", {"invite": old}).status_code == 403
    claimed = guest.post(f"/api/tables/{code}/claim", {"invite": fresh[0]["invite"].split("?invite=")[1]}).json()
    assert claimed["seat"] == 1
    given = phone.post(f"/api/tables/{code}/seats/2/bot", {"bot": "easy"})
    assert given.status_code == 200, given.text
    started = phone.post(f"/api/tables/{code}/start", {"bot": "easy"})
    assert started.json()["status"] == "playing"
    offer = phone.post(f"/api/tables/{code}/handover")
    assert offer.status_code == 200 and offer.json()["link"].startswith("http")
    assert phone.post(f"/api/tables/{code}/leave").status_code == 200
    # The creator reopens the absent friend's seat from the phone: a new invite.
    reopened = phone.post(f"/api/tables/{code}/seats/1/reopen")
    assert reopened.status_code == 200 and reopened.json()["invite"].startswith(f"/t/{code}?invite="), reopened.text
    # Without the session's CSRF token a page of another site cannot act for the seat.
    forged = {"cookie": phone.headers["cookie"]}
    refused = accounts_client.post(f"/api/tables/{code}/leave", json={}, headers=forged)
    assert (refused.status_code, refused.json()["code"]) == (403, "account.cross_site")
    # A guest with no credential, and another account, act for no seat; the refusals are the routes' own.
    nobody = Device(accounts_client)
    assert nobody.post(f"/api/tables/{code}/leave").json()["code"] == "error.token_opens_no_seat"
    assert nobody.post(f"/api/tables/{code}/ready").json()["code"] == "error.unknown_token"
    sign_up(accounts_client, "lou")
    accounts_client.cookies.clear()
    other = Device(accounts_client, "lou")
    assert other.post(f"/api/tables/{code}/leave").status_code == 403
    assert other.post(f"/api/tables/{code}/handover").status_code == 403


def test_only_the_creator_makes_new_invites(accounts_client: TestClient) -> None:
    laptop, _ = two_devices(accounts_client)
    table = laptop.post("/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    code = table["code"]
    guest = Device(accounts_client)
    friend = guest.post(f"/api/tables/{code}/claim", {"invite": table["seats"][1]["invite"].split("?invite=")[1]})
    refused = guest.post(f"/api/tables/{code}/invites", {"token": friend.json()["token"]})
    assert (refused.status_code, refused.json()["code"]) == (403, "error.only_creator")
    assert laptop.post(f"/api/tables/{code}/invites", {"token": table["token"]}).json()["invites"] == []


def test_continue_on_another_device_moves_the_device_that_asked(accounts_client: TestClient) -> None:
    """The laptop plays by the seat's credential, the phone by the account's session; the phone asks for
    the link and a guest tablet takes it: the tablet plays, the phone and the laptop watch, told why."""
    laptop, phone = two_devices(accounts_client)
    table = laptop.post("/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    code, credential = table["code"], table["token"]
    tablet = Device(accounts_client)
    with laptop.socket(code, credential) as on_laptop, phone.socket(code) as on_phone:
        assert on_laptop.receive_json()["state"]["seat"] == 0
        assert on_phone.receive_json()["state"]["seat"] == 0
        link = phone.post(f"/api/tables/{code}/handover").json()["link"]
        taken = tablet.post(f"/api/tables/{code}/handover/take", {"handover": link.split("#handover=")[1]})
        assert taken.status_code == 200, taken.text
        for ws in (on_phone, on_laptop):
            assert until_error(ws)["code"] == "error.seat_elsewhere"
            assert closed_with(ws) == CLOSE_SEAT_ELSEWHERE
    seat_elsewhere = {"reason": "seat_elsewhere"}
    for device, token in ((phone, None), (laptop, None), (laptop, credential)):
        watching = device.first_state(code, token)
        assert watching["seat"] is None and watching["watching"] == seat_elsewhere
    assert tablet.first_state(code, taken.json()["token"])["seat"] == 0
    # The account's session asks for no link and leaves nothing now: the seat is the tablet's.
    assert phone.post(f"/api/tables/{code}/handover").status_code == 403
    # The match stays the account's (its history and rating); the tablet, signed in to the account,
    # lets the seat follow its devices again.
    assert [m["code"] for m in phone.get("/api/matches").json()["matches"]] == [code]
    signed = Device(accounts_client, "kim")
    kept = signed.post("/api/account/seats", {"code": code, "token": taken.json()["token"]})
    assert kept.status_code == 200, kept.text
    assert phone.first_state(code)["seat"] == 0


def test_a_link_taken_by_another_account_moves_the_seat_not_the_match(accounts_client: TestClient) -> None:
    laptop, _ = two_devices(accounts_client)
    table = laptop.post("/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    code = table["code"]
    sign_up(accounts_client, "lou")
    accounts_client.cookies.clear()
    lou = Device(accounts_client, "lou")
    link = laptop.post(f"/api/tables/{code}/handover", {"token": table["token"]}).json()["link"]
    assert lou.post(f"/api/tables/{code}/handover/take", {"handover": link.split("#handover=")[1]}).status_code == 200
    assert [m["code"] for m in laptop.get("/api/matches").json()["matches"]] == [code]
    assert lou.get("/api/matches").json()["matches"] == []


def test_a_deleted_players_table_name_is_not_served(accounts_client: TestClient) -> None:
    laptop, _ = two_devices(accounts_client)
    seats = [{"kind": "human", "name": "Ann Lee"}, {"kind": "bot"}]
    table = laptop.post("/api/tables", {"seats": seats}).json()
    code = table["code"]
    spectator = Device(accounts_client)
    assert accounts_client.get(f"/api/tables/{code}").json()["seats"][0]["name"] == "Ann Lee"
    with spectator.socket(code) as watching:
        assert watching.receive_json()["state"]["names"][0] == "Ann Lee"
        assert accounts_client.delete("/api/account", headers=laptop.headers).status_code == 200
        while (message := watching.receive_json())["type"] != "state" or message["state"]["names"][0] is not None:
            assert "Ann Lee" not in str(message.get("events", []))
    assert "Ann Lee" not in accounts_client.get(f"/api/tables/{code}").text
    assert spectator.first_state(code)["names"][0] is None
    assert "Ann Lee" not in str(spectator.first_state(code, table["token"]))


@pytest.mark.parametrize(
    ("asked", "vetted"),
    [
        ("/%09/evil.example/x", "/"),
        ("/\t/evil.example/x", "/"),
        ("/\n/evil.example/x", "/"),
        ("/\r/evil.example/x", "/"),
        ("//evil.example/x", "/"),
        ("/\\evil.example/x", "/"),
        ("https://evil.example/x", "/"),
        ("javascript:alert(1)", "/"),
        ("/t/ABC234/../../x", "/"),
        ("/%2F/evil.example", "/"),
        ("", "/"),
        (None, "/"),
        ("/", "/"),
        ("/t/abc234", "/t/abc234"),
        ("/t/ABC234?invite=secret", "/t/ABC234"),
        ("/r/ABC234", "/r/ABC234"),
        ("/account", "/account"),
        ("/matches", "/matches"),
        ("/leaderboard?family=3-4", "/leaderboard?family=3-4"),
        ("/leaderboard?family=//evil.example", "/leaderboard?family=%2F%2Fevil.example"),
        ("/u/Ėglė", "/u/%C4%96gl%C4%97"),
        ("/u/a/b", "/"),
        ("/howto.html", "/howto.html"),
    ],
)
def test_where_signing_in_may_lead(asked: str | None, vetted: str) -> None:
    from chickenfoot.server.accounts.pages import next_path

    assert next_path(asked) == vetted


def test_the_sign_in_page_gets_a_vetted_path_and_a_signed_in_visitor_goes_on(accounts_client: TestClient) -> None:
    page = accounts_client.get("/signin", params={"next": "/\t/evil.example/x"})
    assert 'data-next="/"' in page.text and "evil" not in page.text
    assert 'data-next="/t/ABC234"' in accounts_client.get("/signup?next=/t/ABC234").text
    sign_up(accounts_client, "kim")
    for mode in ("signin", "signup"):
        answer = accounts_client.get(f"/{mode}", params={"next": "/%0a/evil.example/x"}, follow_redirects=False)
        assert (answer.status_code, answer.headers["location"]) == (303, "/")
    onward = accounts_client.get("/signin?next=/account", follow_redirects=False)
    assert onward.headers["location"] == "/account"


def test_answers_about_an_account_are_never_stored(accounts_client: TestClient) -> None:
    sign_up(accounts_client, "kim")
    csrf = {"x-csrf-token": accounts_client.get("/api/account").json()["csrf"]}
    table = accounts_client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    answers = [
        accounts_client.get("/api/account"),
        accounts_client.get("/api/account/data"),
        accounts_client.get("/api/account/sessions"),
        accounts_client.get("/api/account/tokens"),
        accounts_client.get("/api/matches"),
        table,
        accounts_client.post(f"/api/tables/{table.json()['code']}/handover", json={}, headers=csrf),
    ]
    for answer in answers:
        assert answer.status_code in (200, 201), answer.text
        assert answer.headers["cache-control"] == "no-store", answer.request.url

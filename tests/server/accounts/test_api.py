"""The account API over SQLite and PostgreSQL: sign-up, sign-in, the ways in, sessions, data, deletion,
and the attacks the issue names (session fixation, revoked sessions, cross-site requests, brute force,
enumeration, look-alike names)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.accounts import passwords
from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.http.limits import AddressLimits

from .conftest import PASSWORD, sign_up

EVIL = {"origin": "https://evil.example"}


def csrf(client: TestClient) -> dict[str, str]:
    return {"x-csrf-token": client.get("/api/account").json()["csrf"]}


def test_sign_up_sign_in_and_out(accounts_client: TestClient) -> None:
    client = accounts_client
    assert client.get("/api/account").json()["code"] == "account.not_signed_in"
    me = sign_up(client, "Ėglė")
    assert me["username"] == "Ėglė"
    cookie = client.cookies[COOKIE]
    raw = client.post("/api/account/signin", json={"username": "Ėglė", "password": PASSWORD})
    set_cookie = raw.headers["set-cookie"].lower()
    assert "httponly" in set_cookie and "samesite=lax" in set_cookie and "secure" not in set_cookie
    assert client.cookies[COOKIE] != cookie  # rotated at sign-in
    account = client.get("/api/account").json()
    assert (account["username"], account["password"], account["passkeys"]) == ("Ėglė", True, [])
    assert client.post("/api/account/signout", headers=csrf(client)).status_code == 200
    assert client.get("/api/account").status_code == 401


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("ab", PASSWORD, "account.name_length"),
        ("bad name", PASSWORD, "account.name_characters"),
        ("-dash", PASSWORD, "account.name_characters"),
        ("Admin", PASSWORD, "account.name_reserved"),
        ("ехрегt", PASSWORD, "account.name_reserved"),  # "expert" in Cyrillic look-alikes: a bot level
        ("admin1", PASSWORD, "account.name_reserved"),
        ("deleted.player", PASSWORD, "account.name_reserved"),
        ("Support.Team", PASSWORD, "account.name_reserved"),
        ("frank", "short", "account.password_short"),
        ("frank", "password123", "account.password_guessable"),
        ("frank", "x" * 300, "account.password_long"),
    ],
)
def test_bad_sign_ups_say_why(accounts_client: TestClient, username: str, password: str, code: str) -> None:
    response = accounts_client.post("/api/account/signup", json={"username": username, "password": password})
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert accounts_client.get("/api/account").status_code == 401


def test_look_alike_names_are_refused(accounts_client: TestClient) -> None:
    sign_up(accounts_client, "paypal")
    for look_alike in ("PayPal", "pаypal", "paypa1", "ｐａｙｐａｌ"[:6]):
        response = accounts_client.post("/api/account/signup", json={"username": look_alike, "password": PASSWORD})
        assert response.json()["code"] in ("account.name_taken", "account.name_characters"), look_alike
        assert response.status_code in (400, 409)
    response = accounts_client.post("/api/account/signup", json={"username": "pаypal", "password": PASSWORD})
    assert (response.status_code, response.json()["code"]) == (409, "account.name_taken")


@pytest.mark.parametrize(
    ("first", "others"), [("tester2", ("tester２", "ｔｅｓｔｅｒ２", "TESTER2")), ("ruta1", ("ruta１",))]
)
def test_full_width_look_alikes_are_refused(accounts_client: TestClient, first: str, others: tuple[str, ...]) -> None:
    sign_up(accounts_client, first)
    for other in others:
        response = accounts_client.post("/api/account/signup", json={"username": other, "password": PASSWORD})
        assert (response.status_code, response.json()["code"]) == (409, "account.name_taken"), other


def test_session_fixation(accounts_client: TestClient) -> None:
    """An id planted in the browser before sign-in is not the signed-in session, and opens nothing."""
    sign_up(accounts_client, "victim")
    accounts_client.cookies.clear()
    planted = {"cookie": f"{COOKIE}=attacker-chosen-session-id"}
    response = accounts_client.post(
        "/api/account/signin", json={"username": "victim", "password": PASSWORD}, headers=planted
    )
    assert response.status_code == 200
    assert response.cookies[COOKIE] not in ("", "attacker-chosen-session-id")
    accounts_client.cookies.clear()
    assert accounts_client.get("/api/account", headers=planted).status_code == 401


def device(client: TestClient, username: str) -> dict[str, str]:
    """Sign in as another device would: the headers that carry its own session cookie."""
    response = client.post("/api/account/signin", json={"username": username, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.cookies.clear()
    cookie = {"cookie": f"{COOKIE}={response.cookies[COOKIE]}"}
    return cookie | {"x-csrf-token": client.get("/api/account", headers=cookie).json()["csrf"]}


def test_a_revoked_session_is_refused(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "carol")
    client.cookies.clear()
    phone, laptop = device(client, "carol"), device(client, "carol")
    thief = {"cookie": laptop["cookie"]}  # the laptop's cookie, stolen
    assert client.get("/api/account", headers=thief).status_code == 200
    sessions = client.get("/api/account/sessions", headers=phone).json()
    assert len(sessions) == 3 and client.get("/api/account", headers=phone).json()["sessions"] == 3
    laptop_id = next(s["id"] for s in sessions if s["last_seen"] == max(t["last_seen"] for t in sessions))
    assert not next(s for s in sessions if s["id"] == laptop_id)["current"]
    assert client.delete(f"/api/account/sessions/{laptop_id}", headers=phone).status_code == 200
    assert client.get("/api/account", headers=thief).status_code == 401
    assert client.get("/api/account", headers=laptop).status_code == 401
    assert client.get("/api/account", headers=phone).status_code == 200
    assert client.delete("/api/account/sessions", headers=phone).json() == {"ended": 2}  # everywhere
    assert client.get("/api/account", headers=phone).status_code == 401


def test_cross_site_requests_with_the_cookie_are_refused(accounts_client: TestClient) -> None:
    sign_up(accounts_client, "dave")
    token = csrf(accounts_client)
    for headers in (EVIL | token, {}, {"x-csrf-token": "guess"}, {"sec-fetch-site": "cross-site"} | token):
        response = accounts_client.delete("/api/account", headers=headers)
        assert (response.status_code, response.json()["code"]) == (403, "account.cross_site"), headers
    response = accounts_client.post(
        "/api/account/signin", json={"username": "dave", "password": PASSWORD}, headers=EVIL
    )
    assert response.status_code == 403  # a login planted from another site
    assert accounts_client.get("/api/account").status_code == 200  # nothing happened


def test_sign_ins_are_limited_per_name_and_per_address(make_client: Callable[..., TestClient]) -> None:
    limits = AddressLimits(
        "10000/second", "10000/second", cutoff=None, sign_ins="9/minute", sign_ins_per_name="3/minute"
    )
    client = make_client(addresses=limits)
    sign_up(client, "erin")
    client.cookies.clear()  # the guesses come from a device that never signed in to erin
    statuses = [
        client.post("/api/account/signin", json={"username": "erin", "password": f"guess {n}"}).status_code
        for n in range(4)
    ]
    assert statuses == [401, 401, 401, 429]
    refused = client.post("/api/account/signin", json={"username": "ERIN", "password": PASSWORD})  # the right one
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert refused.json()["code"] == "account.too_many_sign_ins"
    # Other names from the same address, until the address has used its 9 (the sign-up counted too).
    statuses = [
        client.post("/api/account/signin", json={"username": f"name{n}", "password": PASSWORD}).status_code
        for n in range(4)
    ]
    assert statuses == [401, 401, 401, 429]


def test_no_enumeration_by_answer_or_time(accounts_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown name and a wrong password: the same answer, one argon2 check each, the same time within noise."""
    sign_up(accounts_client, "frida")
    checked: list[str] = []
    verify = passwords._hasher.verify

    def counted(password: str, stored: str) -> bool:
        checked.append(stored)
        return verify(password, stored)

    monkeypatch.setattr(passwords._hasher, "verify", counted)

    def attempt(username: str) -> tuple[float, int, dict[str, object]]:
        checked.clear()
        started = time.perf_counter()
        response = accounts_client.post("/api/account/signin", json={"username": username, "password": "wrong one!"})
        elapsed = time.perf_counter() - started
        assert len(checked) == 1 and checked[0].startswith("$argon2id$"), checked  # the time is one hash's
        return elapsed, response.status_code, response.json()

    attempt("frida"), attempt("nobody-here")  # warm both paths
    wrong, unknown = [], []
    for n in range(30):  # interleaved, so a change of the machine's load hits both alike
        wrong.append(attempt("frida"))
        unknown.append(attempt(f"nobody{n}"))
    assert {(status, str(body)) for _, status, body in wrong} == {(status, str(body)) for _, status, body in unknown}
    # Medians: a busy machine's stalls land on either side and would move a mean, not what a typical try takes.
    wrong_median = statistics.median(t for t, _, _ in wrong)
    unknown_median = statistics.median(t for t, _, _ in unknown)
    print(f"wrong password {wrong_median * 1e3:.1f} ms, unknown name {unknown_median * 1e3:.1f} ms (medians)")
    # The difference is noise: well under the hash's own time (a missing hash would halve the time).
    assert abs(wrong_median - unknown_median) < 0.25 * wrong_median


def test_ways_in_data_and_deletion(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "gus")
    response = client.delete("/api/account/password", headers=csrf(client))
    assert (response.status_code, response.json()["code"]) == (409, "account.last_way_in")
    assert client.delete("/api/account/passkeys/nope", headers=csrf(client)).json()["code"] == "account.no_passkey"
    assert client.put("/api/account/password", json={"password": "short"}, headers=csrf(client)).status_code == 400
    assert (
        client.put("/api/account/password", json={"password": "a new tile hub"}, headers=csrf(client)).status_code
        == 200
    )
    data = client.get("/api/account/data")
    assert data.headers["content-disposition"].startswith("attachment")
    body = data.json()
    assert body["username"] == "gus" and len(body["sessions"]) == 1 and "csrf" not in body
    assert "hash" not in str(body) and PASSWORD not in str(body)
    assert client.delete("/api/account", headers=csrf(client)).json() == {"deleted": True}
    assert client.get("/api/account").status_code == 401
    refused = client.post("/api/account/signin", json={"username": "gus", "password": "a new tile hub"})
    assert refused.json()["code"] == "account.sign_in_failed"
    taken = client.post("/api/account/signup", json={"username": "ｇｕｓ", "password": PASSWORD})
    assert (taken.status_code, taken.json()["code"]) == (409, "account.name_taken")  # held after the deletion

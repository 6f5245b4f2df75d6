"""Passkeys at the API level with a software authenticator: sign-up, sign-in, several passkeys, and
answers that must not work (another origin, a replayed assertion, a cloned authenticator's counter)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chickenfoot.server.accounts.sessions import COOKIE

from .authenticator import SoftAuthenticator
from .conftest import PASSWORD


def passkey_sign_up(client: TestClient, username: str, authenticator: SoftAuthenticator) -> dict[str, object]:
    started = client.post("/api/account/passkeys/register", json={"username": username}).json()
    options = started["options"]
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["rp"]["id"] == "testserver"
    credential = authenticator.create(options)
    response = client.post(
        "/api/account/passkeys/register/finish", json={"handle": started["handle"], "credential": credential}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def passkey_sign_in(
    client: TestClient, authenticator: SoftAuthenticator, origin: str | None = None
) -> tuple[int, dict[str, object]]:
    started = client.post("/api/account/passkeys/signin").json()
    credential = authenticator.get(started["options"], origin)
    response = client.post(
        "/api/account/passkeys/signin/finish", json={"handle": started["handle"], "credential": credential}
    )
    return response.status_code, dict(response.json())


def test_passkey_sign_up_and_sign_in(accounts_client: TestClient) -> None:
    client, phone = accounts_client, SoftAuthenticator()
    assert passkey_sign_up(client, "hana", phone)["username"] == "hana"
    account = client.get("/api/account").json()
    assert (account["password"], [key["transports"] for key in account["passkeys"]]) == (False, [["internal"]])
    client.cookies.clear()
    status, body = passkey_sign_in(client, phone)
    assert (status, body["username"]) == (200, "hana")
    assert client.get("/api/account").json()["passkeys"][0]["last_used"] is not None


def test_a_second_passkey_and_the_last_way_in(accounts_client: TestClient) -> None:
    client, phone, laptop = accounts_client, SoftAuthenticator(), SoftAuthenticator()
    passkey_sign_up(client, "ivo", phone)
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    started = client.post("/api/account/passkeys/register", json={}, headers=csrf).json()
    assert len(started["options"]["excludeCredentials"]) == 1  # the phone's, so it is not registered twice
    laptop.user_handle = started["options"]["user"]["id"]
    credential = laptop.create(started["options"])
    body = client.post(
        "/api/account/passkeys/register/finish",
        json={"handle": started["handle"], "credential": credential, "label": "laptop"},
        headers=csrf,
    ).json()
    assert [key["label"] for key in body["passkeys"]] == ["", "laptop"]
    phone_id = body["passkeys"][0]["id"]
    assert client.delete(f"/api/account/passkeys/{phone_id}", headers=csrf).status_code == 200
    last = client.delete(f"/api/account/passkeys/{body['passkeys'][1]['id']}", headers=csrf)
    assert (last.status_code, last.json()["code"]) == (409, "account.last_way_in")
    assert client.put("/api/account/password", json={"password": PASSWORD}, headers=csrf).status_code == 200
    assert client.delete(f"/api/account/passkeys/{body['passkeys'][1]['id']}", headers=csrf).status_code == 200
    client.cookies.clear()
    assert passkey_sign_in(client, phone)[0] == 401  # removed: it opens nothing


def test_answers_that_must_not_work(accounts_client: TestClient) -> None:
    client, phone = accounts_client, SoftAuthenticator()
    passkey_sign_up(client, "jan", phone)
    client.cookies.clear()
    status, body = passkey_sign_in(client, phone, origin="https://evil.example")  # a phishing page's answer
    assert (status, body["code"]) == (401, "account.passkey_failed")

    started = client.post("/api/account/passkeys/signin").json()
    answer = phone.get(started["options"])
    assert (
        client.post(
            "/api/account/passkeys/signin/finish", json={"handle": started["handle"], "credential": answer}
        ).status_code
        == 200
    )
    client.cookies.clear()
    replayed = client.post(
        "/api/account/passkeys/signin/finish", json={"handle": started["handle"], "credential": answer}
    )
    assert (replayed.status_code, replayed.json()["code"]) == (400, "account.passkey_expired")
    assert COOKIE not in replayed.cookies

    clone = SoftAuthenticator()
    clone.key, clone.credential_id, clone.user_handle = phone.key, phone.credential_id, phone.user_handle
    assert passkey_sign_in(client, clone)[0] == 401  # its counter is behind the real one's

    taken = client.post("/api/account/passkeys/register", json={"username": "JAN"})
    assert (taken.status_code, taken.json()["code"]) == (409, "account.name_taken")

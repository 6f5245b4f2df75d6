"""Sign-ins and sign-ups under a flood from many addresses (issue 39): a guesser spread over addresses
locks the name's owner out of nothing from a device that signed in before (nor from a passkey); sign-ups
from everyone together are capped with a coded 503; no account is made for a client that has gone."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from chickenfoot.messages import Code
from chickenfoot.server.accounts.devices import COOKIE as DEVICE_COOKIE
from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.service import Accounts, AccountSettings
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage

from .conftest import GENEROUS, PASSWORD, sign_up

PER_NAME = AddressLimits(
    "10000/second", "10000/second", cutoff=None, sign_ins="10000/second", sign_ins_per_name="3/15minutes"
)


def guess(client: TestClient, name: str, password: str = "a wrong guess", device: str | None = None) -> str:
    """The code of a sign-in's refusal, from a device without cookies or with ``device``'s."""
    headers = {} if device is None else {"cookie": f"{DEVICE_COOKIE}={device}"}
    answer = client.post("/api/account/signin", json={"username": name, "password": password}, headers=headers)
    return str(answer.json()["code"])


def signed_in(client: TestClient, name: str, device: str) -> str:
    """The device with cookie ``device`` signs in to ``name``: its new cookie (the jar is emptied: each
    request here says which device sends it)."""
    headers = {"cookie": f"{DEVICE_COOKIE}={device}"}
    answer = client.post("/api/account/signin", json={"username": name, "password": PASSWORD}, headers=headers)
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return answer.cookies[DEVICE_COOKIE]


def test_a_distributed_guesser_does_not_lock_out_the_owners_device(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    client = make_client(addresses=PER_NAME)
    sign_up(client, "frank")
    sign_up(client, "erin")  # the device's cookie is erin's now, frank's is forgotten
    owner = client.cookies[DEVICE_COOKIE]
    client.cookies.clear()
    for _ in range(3):  # the guessers: devices that never signed in to erin
        assert guess(client, "erin") == Code.ACCOUNT_SIGN_IN_FAILED.value.code
    assert guess(client, "erin", PASSWORD) == Code.ACCOUNT_TOO_MANY_SIGN_INS.value.code
    # The owner's device signs in all the same, again and again (each sign-in renews its cookie).
    owner = signed_in(client, "erin", signed_in(client, "erin", owner))
    # A wrong password from the owner's device is still a wrong password.
    assert guess(client, "erin", device=owner) == Code.ACCOUNT_SIGN_IN_FAILED.value.code
    # Its cookie is erin's, not a pass for every name: frank's lock-out holds for it too.
    for _ in range(3):
        guess(client, "frank")
    assert guess(client, "frank", PASSWORD, device=owner) == Code.ACCOUNT_TOO_MANY_SIGN_INS.value.code


def test_sign_ups_from_everyone_together_are_capped(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    client = make_client(addresses=dataclasses.replace(GENEROUS, sign_ups="2/minute"))
    sign_up(client, "gail")
    sign_up(client, "hank")
    refused = client.post("/api/account/signup", json={"username": "ivan", "password": PASSWORD})
    assert refused.status_code == 503 and 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.json()["code"] == Code.ACCOUNT_TOO_MANY_SIGN_UPS.value.code and refused.json()["limit"] == 2
    client.cookies.clear()  # a guest's sign-up by passkey
    passkey = client.post("/api/account/passkeys/register", json={"username": "ivan"})
    assert passkey.status_code == 503 and passkey.json()["code"] == Code.ACCOUNT_TOO_MANY_SIGN_UPS.value.code


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_no_account_for_a_client_that_has_gone(database_url: str) -> None:
    async def scenario() -> None:
        storage = Storage(database_url, FakeClock())
        await storage.migrate()
        accounts = Accounts(storage, FakeClock(), AccountSettings())

        async def gone() -> bool:
            return False

        with pytest.raises(Refusal) as refused:
            await accounts.sign_up("jill", PASSWORD, gone)
        assert refused.value.why is Why.UNAVAILABLE
        assert await accounts.store.by_skeleton(skeleton(normalised("jill"))) is None
        assert accounts.hasher.dropped == {"gone": 1}
        await storage.close()

    asyncio.run(scenario())

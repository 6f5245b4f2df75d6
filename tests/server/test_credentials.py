"""Seat credentials: only the player holds a seat's secret; invites are single-use claims."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.credentials import Credentials, digest
from chickenfoot.server.storage import game_tables, seat_secrets

from .conftest import claim_invite, create_table

HUMAN = {"kind": "human"}


def claim_of(invite: str) -> str:
    return invite.split("?invite=")[1]


def opens(client: TestClient, code: str, token: str) -> int | None:
    """The seat a WebSocket with this token gets, or ``None`` when it is refused."""
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        first = ws.receive_json()
        if first["type"] == "state":
            return int(first["state"]["seat"])
        assert first == {"type": "error", "message": "unknown token for this table", "code": "error.unknown_token"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
        return None


def test_the_creator_cannot_open_a_friends_seat_with_anything_shown_to_them(client: TestClient) -> None:
    created = create_table(client, [HUMAN, {"kind": "bot"}, HUMAN], claim=False)
    code, invite = created["code"], created["seats"][2]["invite"]
    shown = [created["token"], invite, claim_of(invite), code]
    friend = claim_invite(client, invite, "Bo")
    assert friend["seat"] == 2 and friend["token"] not in json.dumps(created)
    for value in shown:
        assert opens(client, code, value) in (None, 0), value  # the creator's own seat at most
    assert opens(client, code, friend["token"]) == 2


def test_a_used_invite_opens_nothing(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN], claim=False)
    code, claim = created["code"], claim_of(created["seats"][1]["invite"])
    first = client.post(f"/api/tables/{code}/claim", json={"invite": claim})
    assert first.status_code == 200
    again = client.post(f"/api/tables/{code}/claim", json={"invite": claim, "name": "Eve"})
    assert again.status_code == 403 and "opens nothing" in again.json()["detail"]
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] is None  # Eve changed nothing
    assert opens(client, code, claim) is None


def test_invites_are_per_table_and_unguessable(client: TestClient) -> None:
    one = create_table(client, [HUMAN, HUMAN], claim=False)
    two = create_table(client, [HUMAN, HUMAN], claim=False)
    stolen = claim_of(one["seats"][1]["invite"])
    assert client.post(f"/api/tables/{two['code']}/claim", json={"invite": stolen}).status_code == 403
    for forged in ["", "x", "A" * 43, "A" * 100]:
        assert client.post(f"/api/tables/{one['code']}/claim", json={"invite": forged}).status_code == 403
    too_long = client.post(f"/api/tables/{one['code']}/claim", json={"invite": "A" * 101})
    assert too_long.status_code == 400 and "invite" in too_long.json()["detail"]
    assert opens(client, two["code"], one["token"]) is None


def test_two_claims_of_one_invite_race_and_one_wins(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN], claim=False)
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def race() -> list[Any]:
        claims = [hub.credentials.claim(created["code"], claim_of(created["seats"][1]["invite"])) for _ in range(5)]
        return list(await asyncio.gather(*claims))

    results = client.portal.call(race)  # type: ignore[union-attr]
    winners = [r for r in results if r is not None]
    assert len(winners) == 1 and winners[0][0] == 1


def test_storage_keeps_only_digests(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    storage = client.app.state.storage  # type: ignore[attr-defined]
    secrets_shown = [created["token"], created["seats"][1]["token"], claim_of(created["seats"][1]["invite"])]

    async def dump() -> str:
        async with storage.engine.connect() as conn:
            rows = [*await conn.execute(sa.select(seat_secrets)), *await conn.execute(sa.select(game_tables))]
        return repr(rows)

    stored = client.portal.call(dump)  # type: ignore[union-attr]
    for secret in secrets_shown:
        assert secret not in stored
    assert digest(created["token"]) in stored


def test_the_creator_replaces_an_absent_friend_with_a_bot(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    created = create_table(client, [HUMAN, HUMAN, HUMAN], claim=False)
    code = created["code"]
    friend = claim_invite(client, created["seats"][1]["invite"])
    url = f"/api/tables/{code}/seats/1/bot"
    refused = client.post(url, json={"token": friend["token"], "bot": "greedy"})
    assert refused.status_code == 403 and "creator" in refused.json()["detail"]
    assert client.post(f"/api/tables/{code}/seats/0/bot", json={"token": created["token"]}).status_code == 409
    with client.websocket_connect(f"/ws/{code}?token={friend['token']}") as ws:
        ws.receive_json()
        busy = client.post(url, json={"token": created["token"], "bot": "greedy"})
        assert busy.status_code == 409 and "connected" in busy.json()["detail"]
    done = client.post(url, json={"token": created["token"], "bot": "greedy"})
    assert done.status_code == 200 and done.json()["seats"][1]["kind"] == "bot"
    assert opens(client, code, friend["token"]) is None  # the absent friend's credential is revoked
    # A seat still waiting for its friend goes to a bot too; its invite then opens nothing.
    assert client.post(f"/api/tables/{code}/seats/2/bot", json={"token": created["token"]}).status_code == 200
    late = client.post(f"/api/tables/{code}/claim", json={"invite": claim_of(created["seats"][2]["invite"])})
    assert late.status_code == 403
    assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
    assert client.post(f"/api/tables/{code}/seats/9/bot", json={"token": created["token"]}).status_code == 404
    bad_bot = client.post(f"/api/tables/{code}/seats/1/bot", json={"token": created["token"], "bot": "genius"})
    assert bad_bot.status_code == 400


def test_a_credential_survives_an_app_restart(make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    created = create_table(first, [HUMAN, HUMAN])
    second = make_client()
    assert opens(second, created["code"], created["seats"][1]["token"]) == 1
    assert opens(second, created["code"], claim_of(created["seats"][1]["invite"])) is None


class CountingStore:
    """Seat digests in memory, counting the reads of them."""

    def __init__(self, digests: list[tuple[int, str]]) -> None:
        self.digests, self.reads = digests, 0

    async def secrets_of(self, code: str, purpose: str) -> list[tuple[int, str]]:
        self.reads += 1
        await asyncio.sleep(0)  # the read takes a while: the look-ups meanwhile wait for it
        return list(self.digests)

    async def drop_secrets(self, code: str, seat: int) -> None:
        self.digests = [(s, kept) for s, kept in self.digests if s != seat]


def test_handshakes_at_one_seating_share_one_read_and_a_revoked_credential_opens_nothing() -> None:
    async def scenario() -> tuple[set[int | None], int | None, int, int | None, int, int | None, int | None]:
        store = CountingStore([(0, digest("alpha")), (1, digest("beta"))])
        credentials = Credentials(store)  # type: ignore[arg-type]
        crowd = await asyncio.gather(*(credentials.seat_of("T", "alpha", 7) for _ in range(50)))
        other = await credentials.seat_of("T", "beta", 7)
        reads = store.reads
        unknown = await credentials.seat_of("T", "gamma", 7)  # perhaps new: looked up again
        looked_again = store.reads - reads
        await credentials.revoke("T", 0)  # here: what was kept goes
        revoked_here = await credentials.seat_of("T", "alpha", 7)
        store.digests = []  # revoked by another process: the table's seating moves on when it hears
        revoked_elsewhere = await credentials.seat_of("T", "beta", 8)
        return set(crowd), other, reads, unknown, looked_again, revoked_here, revoked_elsewhere

    assert asyncio.run(scenario()) == ({0}, 1, 1, None, 1, None, None)

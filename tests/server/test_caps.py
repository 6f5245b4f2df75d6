"""Each cap on what is open at once refuses one more with its own code, at once, and counts again once
something held is closed: table WebSockets per table, per seat, per account, per address and per
credential, and this process's sockets and handshakes in progress, Bot API streams per token and per
account (server/http/caps.py). What the process counts before a socket's upgrade is accepted is refused
with an HTTP answer instead of the upgrade (server/edge/client.py ``Admission``)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.botapi.routes import releasing
from chickenfoot.server.edge.client import CLOSE_TOO_MANY_OPEN, Admission
from chickenfoot.server.http.caps import Hold, OpenCaps, OpenHolds
from chickenfoot.server.http.security import SESSION_COOKIE
from chickenfoot.server.refusals import Refusal, Why

from .accounts import conftest as accounts_fixtures
from .accounts.conftest import GENEROUS, PASSWORD, sign_up
from .botapi.conftest import bearer, bot_account
from .conftest import create_table

no_accounts_yet = accounts_fixtures.no_accounts_yet

HUMAN_AND_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def opened(stack: ExitStack, client: TestClient, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Open a socket held until ``stack`` closes; its first state."""
    ws = stack.enter_context(client.websocket_connect(path, headers=headers or {}))
    message = ws.receive_json()
    assert message["type"] == "state", message
    return dict(message["state"])


def refused(client: TestClient, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """The close code and the error's code of a socket the server refuses."""
    with client.websocket_connect(path, headers=headers or {}) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert message["type"] == "error", message
    return closed.value.code, message["code"]


def denied(client: TestClient, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, str | None]:
    """The HTTP status, the error's code and ``Retry-After`` of a socket refused before its upgrade is
    accepted (the test client raises this only when the server answers instead of accepting)."""
    with pytest.raises(WebSocketDenialResponse) as denial, client.websocket_connect(path, headers=headers or {}):
        pass
    answer = denial.value
    return answer.status_code, answer.json()["code"], answer.headers.get("retry-after")


def test_a_table_holds_at_most_its_cap_of_sockets(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_caps=OpenCaps(table=2))
    code = create_table(client, HUMAN_AND_BOT)["code"]
    with ExitStack() as stack:
        opened(stack, client, f"/ws/{code}")
        opened(stack, client, f"/ws/{code}")
        assert denied(client, f"/ws/{code}") == (429, "error.table_sockets_full", "30")
        assert denied(client, f"/ws/{code.lower()}")[1] == "error.table_sockets_full"  # one table, however written
    with ExitStack() as stack:  # the spectators left: their places are free again
        opened(stack, client, f"/ws/{code}")


def test_a_refused_handshake_holds_nothing(make_client: Callable[..., TestClient]) -> None:
    """However many are refused, the places are those of the sockets still open: one left, one comes in."""
    client = make_client(open_caps=OpenCaps(table=2))
    code = create_table(client, HUMAN_AND_BOT)["code"]
    with ExitStack() as stack:
        opened(stack, client, f"/ws/{code}")
        with ExitStack() as second:
            opened(second, client, f"/ws/{code}")
            for _ in range(5):
                assert denied(client, f"/ws/{code}")[1] == "error.table_sockets_full"
        opened(stack, client, f"/ws/{code}")
        assert denied(client, f"/ws/{code}")[1] == "error.table_sockets_full"


def test_a_credential_is_counted_before_its_seat_is_looked_up(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_caps=OpenCaps(credential=1))
    table = create_table(client, HUMAN_AND_BOT)
    code, token = table["code"], table["seats"][0]["token"]
    with ExitStack() as stack:
        assert opened(stack, client, f"/ws/{code}?token={token}")["seat"] == 0
        assert denied(client, f"/ws/{code}?token={token}")[:2] == (429, "error.credential_sockets_full")
        assert opened(stack, client, f"/ws/{code}")["seat"] is None  # a spectator still comes in


def test_the_process_refuses_as_busy_past_its_sockets(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_caps=OpenCaps(sockets=2))
    first, second = (create_table(client, HUMAN_AND_BOT)["code"] for _ in range(2))
    with ExitStack() as stack:
        opened(stack, client, f"/ws/{first}")
        opened(stack, client, f"/ws/{second}")
        assert denied(client, f"/ws/{first}") == (503, "error.server_sockets_full", "30")


def test_a_handshake_gives_its_place_back_once_at_its_table(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_caps=OpenCaps(opening=1))
    code = create_table(client, HUMAN_AND_BOT)["code"]
    with ExitStack() as stack:  # one handshake at a time, as many sockets as the other caps allow
        for _ in range(3):
            opened(stack, client, f"/ws/{code}")


def nothing_kept(code: str, token: str) -> int | None:
    return None


def test_handshakes_in_progress_past_the_cap_are_refused_as_busy() -> None:
    holds = OpenHolds(OpenCaps(opening=1))
    admission = Admission(holds, nothing_kept)
    opening = admission.admit("ABC", "10.0.0.1", {"token": "a seat token"}, {})
    held = dict(holds.open)
    with pytest.raises(Refusal) as busy:
        admission.admit("XYZ", "10.0.0.2", {}, {})
    assert (busy.value.why, busy.value.said.code.id, busy.value.retry_after) == (
        Why.UNAVAILABLE,
        "error.server_opening_full",
        2,
    )
    assert holds.open == held  # the refused one holds nothing
    opening.give_back("opening")  # the first is at its table
    admission.admit("XYZ", "10.0.0.2", {}, {}).release()
    opening.release()
    assert not holds.open


def test_a_seat_is_open_in_at_most_its_cap_of_places(make_client: Callable[..., TestClient]) -> None:
    """Its token's seat is known from the digests kept for the table once a first socket has looked it up:
    one more is refused before its upgrade is accepted."""
    client = make_client(open_caps=OpenCaps(seat=1))
    table = create_table(client, HUMAN_AND_BOT)
    code, token = table["code"], table["seats"][0]["token"]
    with ExitStack() as stack:
        assert opened(stack, client, f"/ws/{code}?token={token}")["seat"] == 0
        assert denied(client, f"/ws/{code}?token={token}") == (429, "error.seat_sockets_full", "30")
        assert opened(stack, client, f"/ws/{code}")["seat"] is None  # a spectator still comes in


def test_an_address_holds_at_most_its_cap_of_sockets(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_caps=OpenCaps(address=2))
    first, second = (create_table(client, HUMAN_AND_BOT)["code"] for _ in range(2))
    with ExitStack() as stack:
        opened(stack, client, f"/ws/{first}")
        opened(stack, client, f"/ws/{second}")
        assert denied(client, f"/ws/{first}") == (429, "error.address_sockets_full", "30")


def test_an_account_holds_at_most_its_cap_of_sockets(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    client = make_client(addresses=GENEROUS, open_caps=OpenCaps(account=1))
    sign_up(client, "kim")
    first, second = (client.post("/api/tables", json={"seats": HUMAN_AND_BOT}).json()["code"] for _ in range(2))
    session = client.post("/api/account/signin", json={"username": "kim", "password": PASSWORD})
    device = {"cookie": f"{COOKIE}={session.cookies[COOKIE]}"}
    client.cookies.clear()
    with ExitStack() as stack:
        assert opened(stack, client, f"/ws/{first}", device)["seat"] == 0  # the account's seat, by its session
        assert refused(client, f"/ws/{second}", device) == (CLOSE_TOO_MANY_OPEN, "error.account_sockets_full")


@pytest.mark.parametrize(
    ("caps", "code"),
    [
        (OpenCaps(token_streams=0), "botapi.token_streams_full"),
        (OpenCaps(account_streams=0), "botapi.account_streams_full"),
    ],
    ids=["per-token", "per-account"],
)
def test_a_bot_api_stream_over_its_cap_is_refused(
    make_client: Callable[..., TestClient], database_url: str, no_accounts_yet: None, caps: OpenCaps, code: str
) -> None:
    client = make_client(addresses=GENEROUS, open_caps=caps)
    token = bot_account(client, database_url, "capped")
    created = client.post("/api/bot/tables", json={"opponents": [{"bot": "random"}]}, headers=bearer(token))
    table = created.json()["table"]
    for path in ("/api/bot/stream", f"/api/bot/tables/{table}/stream"):
        response = client.get(path, headers=bearer(token))
        assert (response.status_code, response.json()["code"]) == (429, code)


def test_a_bot_api_stream_gives_its_place_back_however_it_ends() -> None:
    """When its lines end, when its client goes mid-stream, and when its response never began."""

    async def lines() -> AsyncIterator[bytes]:
        yield b"hello\n"
        yield b"bye\n"

    def held(holds: OpenHolds) -> Hold:
        hold = holds.hold()
        hold.take("token_streams", "token")
        return hold

    async def scenario() -> list[int]:
        holds = OpenHolds(OpenCaps(token_streams=1))
        open_after = []
        assert [line async for line in releasing(lines(), held(holds))] == [b"hello\n", b"bye\n"]
        open_after.append(holds.held("token_streams", "token"))
        going = releasing(lines(), held(holds))
        await anext(going)
        open_after.append(holds.held("token_streams", "token"))
        await going.aclose()  # the client went
        open_after.append(holds.held("token_streams", "token"))
        never = releasing(lines(), held(holds))
        del never  # the response was never sent
        gc.collect()
        open_after.append(holds.held("token_streams", "token"))
        return open_after

    assert asyncio.run(scenario()) == [0, 1, 0, 0]


def test_the_gate_below_the_application_refuses_what_admission_would_and_counts_nothing() -> None:
    holds = OpenHolds(OpenCaps(table=3, seat=1, credential=1))
    admission = Admission(holds, lambda code, token: 0 if (code, token) == ("XYZ", "seat zero") else None)
    held = [
        admission.admit("ABC", "10.0.0.1", {"token": "a seat token"}, {}),
        *(admission.admit("ABC", "10.0.0.1", {}, {}) for _ in range(2)),
        admission.admit("XYZ", "10.0.0.1", {}, {SESSION_COOKIE: "a session"}),  # its seat not known yet
    ]
    counted = dict(holds.open)
    gate = admission.refusal
    refused = {
        "table": gate("/ws/abc", {}, {}, "10.0.0.2"),
        "credential": gate("/ws/QRS", {"token": "a seat token"}, {}, None),  # from a trusted proxy: no address
        "session": gate("/ws/QRS", {}, {SESSION_COOKIE: "a seat token"}, None),  # a credential however brought
        "seat": gate("/ws/xyz", {"token": "seat zero"}, {}, None),  # its seat known from the kept digests
    }
    assert {name: None if refusal is None else refusal.said.code.id for name, refusal in refused.items()} == {
        "table": "error.table_sockets_full",
        "credential": "error.credential_sockets_full",
        "session": "error.credential_sockets_full",
        "seat": None,  # nobody holds seat 0 yet (the session's seat is looked up after the upgrade)
    }
    assert gate("/ws/XYZ", {"token": "another"}, {}, "10.0.0.2") is None
    assert gate("/api/tables", {}, {}, "10.0.0.2") is None  # not a table's socket
    assert holds.open == counted
    held.append(admission.admit("XYZ", "10.0.0.1", {"token": "seat zero"}, {}))
    seat_full = gate("/ws/xyz", {"token": "seat zero"}, {}, None)
    assert seat_full is not None and seat_full.said.code.id == "error.seat_sockets_full"
    for hold in held:
        hold.release()
    assert gate("/ws/ABC", {}, {}, "10.0.0.2") is None
    assert not holds.open

"""The caps of issue 39 on cheap HTTP, each refusing with its code: the budget of cheap requests from
everyone together (503 ``error.server_busy``), the ratings and leaderboards built per address (429
``error.too_many_profiles``, a page kept once built), quick play's joins counted as tables per address
and per account (429 ``error.too_many_tables``), and every limit per address keyed on an IPv6
client's /64."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from fastapi.testclient import TestClient
from starlette.requests import Request

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import AccountLimits, RateLimiter
from chickenfoot.server.refusals import Refusal, Why

from .accounts.conftest import GENEROUS, no_accounts_yet, sign_up
from .quickplay.conftest import empty_queue
from .ratings.conftest import empty_ratings

__all__ = ["empty_queue", "empty_ratings", "no_accounts_yet"]  # the fixtures used here, from their packages


def code_of(answer: object) -> str:
    return str(answer.json()["code"])  # type: ignore[attr-defined]


def test_cheap_requests_past_the_budget_of_everyone_are_refused_at_once(
    make_client: Callable[..., TestClient],
) -> None:
    clock = FakeClock()
    client = make_client(addresses=dataclasses.replace(GENEROUS, cheap="3/minute"), clock=clock)
    for path in ("/api/presets", "/api/lobby", "/api/leaderboard/2"):
        assert client.get(path).status_code == 200, path
    for path in ("/api/presets", "/api/players/nobody", "/api/ratings/nobody", "/u/nobody"):
        refused = client.get(path)
        assert refused.status_code == 503 and code_of(refused) == "error.server_busy", path
        assert refused.json()["limit"] == 3 and refused.headers["retry-after"] == "20"
    # What the budget does not count is served: a table's own requests, the pages' files.
    assert client.get("/api/i18n?lang=lt").status_code == 200
    # The budget fills again with time: one request each 20 s, three at most.
    client.portal.call(clock.advance, 20)  # type: ignore[union-attr]  # on the app's loop: its timers fire there
    assert client.get("/api/presets").status_code == 200
    assert client.get("/api/presets").status_code == 503
    client.portal.call(clock.advance, 3600)  # type: ignore[union-attr]  # on the app's loop: its timers fire there
    assert [client.get("/api/presets").status_code for _ in range(4)] == [200, 200, 200, 503]


def test_ratings_and_leaderboards_are_kept_and_counted_per_address(
    make_client: Callable[..., TestClient], empty_ratings: None
) -> None:
    client = make_client(addresses=dataclasses.replace(GENEROUS, profiles="3/minute"))
    for name in ("ann", "bob", "cid"):
        sign_up(client, name)
    first = client.get("/api/ratings/ann")
    assert first.status_code == 200 and first.json()["username"] == "ann"
    for _ in range(5):  # kept: the same answer, not counted again
        assert client.get("/api/ratings/ANN").content == first.content
    assert client.get("/api/ratings/bob").status_code == 200
    assert client.get("/api/leaderboard/2").status_code == 200
    for path in ("/api/ratings/cid", "/api/leaderboard/3-4"):
        refused = client.get(path)
        assert refused.status_code == 429 and code_of(refused) == "error.too_many_profiles", path
    assert client.get("/api/leaderboard/2").status_code == 200  # kept


def join(client: TestClient) -> object:
    client.cookies.clear()
    return client.post("/api/quickplay", json={"players": 2})


def test_quick_play_joins_count_as_tables_of_the_address(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    client = make_client(addresses=dataclasses.replace(GENEROUS, tables="2/minute", quick_plays="100/minute"))
    assert client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).status_code == 201
    assert join(client).status_code == 201  # type: ignore[attr-defined]
    refused = join(client)
    assert refused.status_code == 429 and code_of(refused) == "error.too_many_tables"  # type: ignore[attr-defined]
    refused = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert refused.status_code == 429 and code_of(refused) == "error.too_many_tables"


def test_quick_play_joins_count_as_tables_of_the_account(
    make_client: Callable[..., TestClient], empty_queue: str, no_accounts_yet: None
) -> None:
    client = make_client(addresses=GENEROUS, account_limits=AccountLimits(tables="1/minute"))
    sign_up(client, "dee")
    assert client.post("/api/quickplay", json={"players": 2}).status_code == 201
    refused = client.post("/api/quickplay", json={"players": 2})
    assert refused.status_code == 429 and code_of(refused) == "error.too_many_tables"


def request_from(host: str) -> Request:
    return Request({"type": "http", "client": (host, 50000), "headers": [], "path": "/", "method": "GET"})


def test_every_limit_per_address_keys_on_an_ipv6_clients_64() -> None:
    async def scenario() -> None:
        limiter = RateLimiter(dataclasses.replace(GENEROUS, tables="2/minute"))
        one_host = ["2001:db8:5:6::1", "2001:db8:5:6:ffff:ffff:ffff:fffe"]
        for host in one_host:
            await limiter.check("table", client_address(request_from(host)))
        try:
            await limiter.check("table", client_address(request_from("2001:db8:5:6:1234::9")))
        except Refusal as refused:
            assert refused.why is Why.TOO_MANY
        else:
            raise AssertionError("a third table from one /64 was not refused")
        # The next /64, and IPv4 addresses, are others.
        await limiter.check("table", client_address(request_from("2001:db8:5:7::1")))
        await limiter.check("table", client_address(request_from("203.0.113.7")))
        await limiter.check("table", client_address(request_from("203.0.113.8")))

    asyncio.run(scenario())

"""Fixtures of the friends-and-blocks tests: an app whose per-account limits are the test's to choose,
and players, each a signed-in browser of their own (its session cookie and CSRF token sent by hand)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.http.limits import AccountLimits
from chickenfoot.server.social import schema
from chickenfoot.server.storage import Storage

from ..accounts.conftest import ACCOUNT_TABLES, GENEROUS, PASSWORD

SOCIAL_TABLES = [schema.challenges, schema.reports, schema.follows, schema.blocks, schema.privacy]
SOCIAL_TABLES += [schema.presence]

EVERYTHING = AccountLimits(*["10000/second"] * 5)


@pytest.fixture
def no_accounts_yet(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without accounts, nor friends and blocks."""
    if database_url.startswith("sqlite"):
        return

    async def empty() -> None:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        async with storage.transaction() as conn:
            for table in SOCIAL_TABLES + ACCOUNT_TABLES:
                await conn.execute(table.delete())
        await storage.close()

    asyncio.run(empty())


@pytest.fixture
def social_client(make_client: Callable[..., TestClient], no_accounts_yet: None) -> TestClient:
    return make_client(addresses=GENEROUS, account_limits=EVERYTHING)


class Person:
    """A signed-in player in a browser of their own: every request carries their session and CSRF token."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client, self.name = client, name
        client.cookies.clear()
        response = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        self.headers = {"cookie": f"{COOKIE}={response.cookies[COOKIE]}", "x-csrf-token": response.json()["csrf"]}
        client.cookies.clear()

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(path, json=body or {}, headers=self.headers)

    def put(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.put(path, json=body, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)

    def ok(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """A request that must succeed: its JSON."""
        response = getattr(self, method)(path, body) if body is not None else getattr(self, method)(path)
        assert response.status_code in (200, 201), response.text
        return dict(response.json())

    def socket(self, code: str, token: str | None = None) -> WebSocketTestSession:
        query = "" if token is None else f"?token={token}"
        return self.client.websocket_connect(f"/ws/{code}{query}", headers=self.headers)

    def follow(self, name: str) -> None:
        self.ok("post", "/api/social/follows", {"name": name})

    def block(self, name: str) -> None:
        self.ok("post", "/api/social/blocks", {"name": name})

    def news(self) -> dict[str, Any]:
        return self.ok("get", "/api/social/news")

    def friends(self) -> dict[str, dict[str, Any]]:
        return {friend["name"]: friend for friend in self.ok("get", "/api/social/friends")["friends"]}

    def choose(self, challenges: str = "everyone", status: str = "everyone") -> None:
        self.ok("put", "/api/social/privacy", {"challenges": challenges, "status": status})


def refusal(response: Any) -> tuple[int, dict[str, Any]]:
    """A refusal as its receiver sees it: the status and the whole body."""
    return response.status_code, dict(response.json())

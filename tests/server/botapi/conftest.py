"""Fixtures of the Bot API tests: bot accounts with tokens, made as their operator and owner would."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.clock import SystemClock

from ..accounts import conftest as accounts_fixtures
from ..accounts.conftest import GENEROUS, sign_up

no_accounts_yet = accounts_fixtures.no_accounts_yet


@pytest.fixture
def bot_client(make_client: Callable[..., TestClient], no_accounts_yet: None) -> TestClient:
    return make_client(addresses=GENEROUS)


def csrf(client: TestClient) -> dict[str, str]:
    return {"x-csrf-token": client.get("/api/account").json()["csrf"]}


def bot_account(client: TestClient, database_url: str, name: str, scopes: list[str] | None = None) -> str:
    """Sign up ``name``, have the operator mark it a bot account, and mint a token on its account page."""
    sign_up(client, name)
    assert asyncio.run(make_bot_account(database_url, name, mint=False, clock=SystemClock())) is True
    body: dict[str, Any] = {"label": "test"} | ({"scopes": scopes} if scopes is not None else {})
    response = client.post("/api/account/tokens", json=body, headers=csrf(client))
    assert response.status_code == 201, response.text
    client.post("/api/account/signout", headers=csrf(client))
    client.cookies.clear()
    return str(response.json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}

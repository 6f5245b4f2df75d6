"""Fixtures of the account API tests: an app whose sign-in limits are the test's to choose."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.accounts.schema import accounts
from chickenfoot.server.botapi import schema as _bot_api_tables  # noqa: F401  # they name accounts: emptied too
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.testing.stores import emptied

ACCOUNT_TABLES = [
    table
    for table in reversed(accounts.metadata.sorted_tables)
    if table is accounts or any(key.column.table is accounts for key in table.foreign_keys)
]
"""The accounts and every table naming one (the Bot API's included), those naming them first."""
GENEROUS = AddressLimits(
    "10000/second",
    "10000/second",
    cutoff=None,
    chat="10000/second",
    sign_ins="10000/second",
    sign_ins_per_name="10000/second",
)
PASSWORD = "tile hub toe chicken"


@pytest.fixture
def no_accounts_yet(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without accounts."""
    if not database_url.startswith("sqlite"):
        asyncio.run(emptied(database_url, ACCOUNT_TABLES))


@pytest.fixture
def accounts_client(make_client: Callable[..., TestClient], no_accounts_yet: None) -> TestClient:
    return make_client(addresses=GENEROUS)


def sign_up(client: TestClient, username: str, password: str = PASSWORD, **headers: str) -> dict[str, Any]:
    response = client.post("/api/account/signup", json={"username": username, "password": password}, headers=headers)
    assert response.status_code == 201, response.text
    return dict(response.json())


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account/signin", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    return dict(response.json())

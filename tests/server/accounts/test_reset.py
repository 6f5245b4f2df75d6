"""The operator's reset (``chickenfoot account reset NAME``): every way in goes; a one-time link signs in once."""

from __future__ import annotations

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from chickenfoot.cli import app

from .conftest import PASSWORD, sign_up


def test_reset_removes_the_ways_in_and_gives_a_one_time_link(accounts_client: TestClient, database_url: str) -> None:
    client = accounts_client
    sign_up(client, "lena")
    runner = CliRunner()
    unknown = runner.invoke(app, ["account", "reset", "nobody", "--database-url", database_url])
    assert unknown.exit_code == 1 and "no account named 'nobody'" in unknown.output
    result = runner.invoke(
        app, ["account", "reset", "LENA", "--database-url", database_url, "--origin", "https://cf.example"]
    )
    assert result.exit_code == 0, result.output
    url = result.output.strip()
    assert url.startswith("https://cf.example/account#link=")
    link = url.split("#link=")[1]

    assert client.get("/api/account").status_code == 401  # its sessions ended
    refused = client.post("/api/account/signin", json={"username": "lena", "password": PASSWORD})
    assert refused.json()["code"] == "account.sign_in_failed"  # its password went
    assert client.post("/api/account/link", json={"link": link}).json()["username"] == "lena"
    client.cookies.clear()
    used = client.post("/api/account/link", json={"link": link})
    assert (used.status_code, used.json()["code"]) == (400, "account.link_used")

"""The Bot API's events a bot author relies on, on a real server: an invitation says whether the table
is rated and who invited by account name; the inviter hears a decline and its reason; an invitation
called off is withdrawn; a table stream ends with its match."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from chickenfoot.testing.bot_accounts import PASSWORD, bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

pytestmark = pytest.mark.slow  # a real server process

STREAM = httpx.Timeout(30, read=30)
"""A line that does not come within this fails the test (each comes at once)."""


def events_of(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The stream's messages (keep-alive lines skipped)."""
    return (json.loads(line) for line in response.iter_lines() if line)


def online(server: str) -> dict[str, bool]:
    return {bot["name"]: bot["online"] for bot in httpx.get(f"{server}/api/bots").json()["bots"]}


def test_invitations_declines_and_the_end_of_a_table_stream(tmp_path: Path) -> None:
    port, database_url = free_port(), f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    server = f"http://127.0.0.1:{port}"
    with ExitStack() as stack:
        log = stack.enter_context((tmp_path / "serve.log").open("w"))
        stack.enter_context(served(port, database_url, output=log, options=OPEN_LIMITS))
        host_token, guest_token = (
            bot_token(server, database_url, "hostbot"),
            bot_token(server, database_url, "guestbot"),
        )
        host = stack.enter_context(httpx.Client(base_url=server, headers={"Authorization": f"Bearer {host_token}"}))
        guest = stack.enter_context(httpx.Client(base_url=server, headers={"Authorization": f"Bearer {guest_token}"}))
        assert online(server) == {"guestbot": False, "hostbot": False}
        guest_events = events_of(stack.enter_context(guest.stream("GET", "/api/bot/stream", timeout=STREAM)))
        assert next(guest_events)["type"] == "hello"
        assert online(server) == {"guestbot": True, "hostbot": False}  # its stream is open: it hears invitations
        host_stream = stack.enter_context(host.stream("GET", "/api/bot/stream", timeout=STREAM))
        host_events = events_of(host_stream)
        assert next(host_events)["type"] == "hello"

        # A person whose account is kim names their seat "hostbot": the invitation says kim.
        person = stack.enter_context(httpx.Client(base_url=server))
        signed_up = person.post("/api/account/signup", json={"username": "kim", "password": PASSWORD})
        assert signed_up.status_code == 201, signed_up.text
        seats = [{"kind": "human", "name": "hostbot"}, {"kind": "human"}]
        table = person.post("/api/tables", json={"seats": seats}).json()
        invite = {"token": table["token"], "bot": "guestbot"}
        assert person.post(f"/api/tables/{table['code']}/seats/1/invite", json=invite).status_code == 200
        invitation = next(guest_events)
        assert (invitation["type"], invitation["from"], invitation["rated"]) == ("invitation", "kim", False)
        assert "rounds" not in invitation["rules"]  # the classic rules play all their rounds

        rated = host.post("/api/bot/tables", json={"opponents": [{"account": "guestbot"}], "rated": True}).json()
        invitation = next(guest_events)
        assert (invitation["table"], invitation["from"], invitation["rated"]) == (rated["table"], "hostbot", True)
        declined = guest.post(f"/api/bot/tables/{rated['table']}/decline", json={"reason": "rated"})
        assert declined.json() == {"declined": rated["table"]}
        heard = next(event for event in host_events if event["type"] != "table_started")
        assert heard == {
            "type": "invitation_declined",
            "table": rated["table"],
            "seat": 1,
            "by": "guestbot",
            "reason": "rated",
        }
        assert guest.post(f"/api/bot/tables/{table['code']}/decline", json={"reason": "never"}).status_code == 400

        called_off = host.post("/api/bot/tables", json={"opponents": [{"account": "guestbot"}]}).json()["table"]
        assert next(guest_events)["table"] == called_off
        assert host.post(f"/api/bot/tables/{called_off}/abort").json() == {"aborted": called_off}
        assert next(guest_events) == {"type": "invitation_cancelled", "table": called_off}

        # A table stream ends with its match: the last line says match_over, and nothing follows it.
        code = host.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}], "rounds": 1}).json()["table"]
        rng, moved, last = random.Random(1), -1, None
        with host.stream("GET", f"/api/bot/tables/{code}/stream", timeout=STREAM) as stream:
            for message in events_of(stream):
                last = message
                if message["type"] != "state" or message["version"] <= moved:
                    continue
                state = message["state"]
                if state["match_over"] is None and state["to_move"] == state["seat"] and state["forced"] is None:
                    body = {"move": rng.choice(state["legal"]), "version": message["version"]}
                    while (answer := host.post(f"/api/bot/tables/{code}/move", json=body)).status_code == 429:
                        time.sleep(int(answer.headers["retry-after"]))  # over the token's moves: wait as told
                    if answer.status_code == 200:
                        moved = message["version"]
        assert last is not None and last["type"] == "state" and last["state"]["match_over"] is not None
        host_stream.close()
        assert any(online(server)["hostbot"] is False for _ in range(100))  # closed: offline once the server saw it

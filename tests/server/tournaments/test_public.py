"""Operators' public events: made through the API or on the command line (with the same checks), listed for
everyone, joined before their start, started by the organiser at their time on the fake clock, and a
repeating one's next scheduled when it starts; a player makes none."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from chickenfoot.cli import app
from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.moderation.admin import set_operator
from chickenfoot.server.tournaments.settings import next_start

from ..social.conftest import Person, refusal
from .conftest import finished, people, wait_for


def operator(client: TestClient, database_url: str) -> Person:
    olga = Person(client, "olga")
    assert asyncio.run(set_operator(database_url, "olga", True, clock=SystemClock())) is not None
    return olga


def at(clock: FakeClock, hours: float) -> str:
    return datetime.fromtimestamp(clock.now() + hours * 3600, UTC).isoformat()


def public(client: TestClient) -> list[dict[str, Any]]:
    """The public events, as anyone (signed in or not) sees them listed."""
    client.cookies.clear()
    listed = client.get("/api/tournaments")
    assert listed.status_code == 200
    return list(listed.json()["public"])


SWISS = {"format": "swiss", "rounds": 1, "table_size": 2, "match_rounds": 1}


def test_a_weekly_event_starts_at_its_time_and_its_next_is_scheduled_a_week_later(
    events_client: TestClient, clock: FakeClock, database_url: str
) -> None:
    client = events_client
    olga = operator(client, database_url)
    ann, bob = people(client, 2)
    made = olga.ok(
        "post",
        "/api/tournaments",
        {"name": "Sunday Swiss", **SWISS, "public": True, "repeat": "weekly", "starts_at": at(clock, 1)},
    )
    code = made["code"]
    (listed,) = public(client)
    assert (listed["code"], listed["status"], listed["repeat"], listed["public"]) == (code, "scheduled", "weekly", True)
    for person in (ann, bob):
        person.ok("post", f"/api/tournaments/{code}/join")
    # A second early, the organiser's look leaves it waiting.
    client.portal.call(clock.advance, 3599)  # type: ignore[union-attr]
    organiser = client.app.state.tournaments.organiser  # type: ignore[attr-defined]
    client.portal.call(organiser.look, None)  # type: ignore[union-attr]
    assert wait_for(client, code, lambda e, _: True).status == "scheduled"
    client.portal.call(clock.advance, 1)  # type: ignore[union-attr]
    # Woken too: a look still running when the clock moved had not yet set the timer the move fires.
    client.portal.call(organiser.wake)  # type: ignore[union-attr]
    event = wait_for(client, code, finished)
    assert event.started_at is not None and event.starts_at is not None
    assert event.started_at >= event.starts_at and event.next_made

    shown = {e["code"]: e for e in public(client)}
    assert shown[code]["status"] == "finished"
    (following,) = [e for e in shown.values() if e["code"] != code]
    assert following["status"] == "scheduled" and following["repeat"] == "weekly"
    assert datetime.fromisoformat(following["starts_at"]) == event.starts_at + timedelta(weeks=1)
    assert (following["name"], following["format"], following["table_size"]) == ("Sunday Swiss", "swiss", 2)
    # Anyone signed in joins the next one before it starts; nobody joins the one that is over.
    ann.ok("post", f"/api/tournaments/{following['code']}/join")
    status, body = refusal(bob.post(f"/api/tournaments/{code}/join"))
    assert (status, body["code"]) == (409, "tournament.over")


def test_a_player_makes_no_public_or_repeating_event_and_an_operator_none_without_a_time(
    events_client: TestClient, clock: FakeClock, database_url: str
) -> None:
    client = events_client
    (ann,) = people(client, 1)
    for extra in ({"public": True, "starts_at": at(clock, 1)}, {"repeat": "daily", "starts_at": at(clock, 1)}):
        status, body = refusal(ann.post("/api/tournaments", {"name": "Mine", **SWISS, **extra}))
        assert (status, body["code"]) == (403, "tournament.operators_only")
    olga = operator(client, database_url)
    for extra, code in [
        ({"public": True}, "tournament.public_needs_start"),
        ({"public": True, "starts_at": at(clock, -1)}, "tournament.bad_start"),
        ({"repeat": "daily", "starts_at": at(clock, 1)}, "tournament.repeat_public"),
    ]:
        status, body = refusal(olga.post("/api/tournaments", {"name": "Ours", **SWISS, **extra}))
        assert (status, body["code"]) == (400, code)
    assert public(client) == [] and ann.ok("get", "/api/tournaments")["mine"] == []
    # A public event has no creator: an operator calls it off, its players cannot.
    code = olga.ok("post", "/api/tournaments", {"name": "Ours", **SWISS, "public": True, "starts_at": at(clock, 1)})[
        "code"
    ]
    status, body = refusal(ann.post(f"/api/tournaments/{code}/cancel"))
    assert (status, body["code"]) == (403, "tournament.creator_only")
    status, body = refusal(olga.post(f"/api/tournaments/{code}/start"))
    assert (status, body["code"]) == (403, "tournament.creator_only")
    olga.ok("post", f"/api/tournaments/{code}/cancel")
    assert [e["status"] for e in public(client)] == []  # a cancelled event is listed no more


def test_the_next_of_a_series_skips_the_times_a_stopped_server_missed() -> None:
    first = datetime(2026, 12, 6, 19, tzinfo=UTC)
    assert next_start(first, "weekly", first) == first + timedelta(weeks=1)
    assert next_start(first, "weekly", first + timedelta(days=3)) == first + timedelta(weeks=1)
    assert next_start(first, "weekly", first + timedelta(days=15)) == first + timedelta(weeks=3)
    assert next_start(first, "daily", first + timedelta(hours=30)) == first + timedelta(days=2)


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["tournament", *args])


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--format", "knockout"], "a tournament is an arena, a Swiss or a round-robin"),
        (["--format", "arena"], "an arena lasts from half a minute to a day"),
        (["--format", "swiss", "--rounds", "3", "--repeat", "monthly"], "a tournament repeats daily or weekly"),
        (["--format", "swiss", "--rounds", "3", "--duplicate", "best"], "duplicate deals are scored by"),
    ],
)
def test_the_command_line_refuses_bad_input_in_one_line_and_makes_nothing(
    database_url: str, no_events_yet: None, args: list[str], said: str
) -> None:
    start = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    done = run("create", "Sunday", "--starts-at", start, *args, "--database-url", database_url)
    assert done.exit_code == 1
    assert done.stderr.count("\n") == 1 and said in done.stderr


def test_the_command_line_wants_a_start_with_its_time_zone(database_url: str) -> None:
    done = run("create", "Sunday", "--starts-at", "2026-12-12T19:00", "--format", "arena", "--minutes", "30")
    assert done.exit_code == 1 and "needs its time zone" in done.stderr
    done = run("create", "Sunday", "--starts-at", "Sunday", "--format", "arena", "--minutes", "30")
    assert done.exit_code == 1 and "is no date and time" in done.stderr


def test_an_operator_makes_and_cancels_a_weekly_arena_on_the_command_line(
    events_client: TestClient, database_url: str
) -> None:
    start = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)
    done = run(
        "create", "Friday arena", "--starts-at", start.isoformat(), "--format", "arena", "--minutes", "60",
        "--repeat", "weekly", "--database-url", database_url,
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    code = done.stdout.split()[1].rstrip(":")
    (listed,) = public(events_client)
    assert (listed["code"], listed["format"], listed["minutes"], listed["repeat"]) == (code, "arena", 60, "weekly")
    assert datetime.fromisoformat(listed["starts_at"]) == start
    assert run("cancel", code, "--database-url", database_url).exit_code == 0
    assert public(events_client) == []
    again = run("cancel", code, "--database-url", database_url)
    assert again.exit_code == 1 and "this tournament is over" in again.stderr

"""Rated tables over HTTP and the WebSocket: who may create and join one, the rating change at the end
of a match, a player's history and rank, the leaderboards (SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.ratings.levels import LEVEL_RATINGS
from chickenfoot.testing.waiting import until_now

from ..accounts.conftest import GENEROUS, sign_up
from ..conftest import INSTANT, Player, claim_invite, create_table, play_out, seat_players, settle

EASY_BOT = {"kind": "bot", "bot": "easy"}
ME = {"kind": "human"}


def refusal(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["code"])


def test_a_rated_table_needs_an_account_classic_rules_and_bot_levels(ratings_client: TestClient) -> None:
    client = ratings_client
    assert refusal(client.post("/api/tables", json={"seats": [ME, EASY_BOT], "rated": True}), 403) == "rating.sign_in"
    sign_up(client, "kim")
    double_6 = {"seats": [ME, EASY_BOT], "rated": True, "preset": "double-6"}
    assert refusal(client.post("/api/tables", json=double_6), 400) == "rating.not_preset"
    short = {"seats": [ME, EASY_BOT], "rated": True, "rounds": 3}
    assert refusal(client.post("/api/tables", json=short), 400) == "rating.not_preset"
    greedy = {"seats": [ME, {"kind": "bot", "bot": "greedy"}], "rated": True}
    assert refusal(client.post("/api/tables", json=greedy), 400) == "rating.not_bot"
    five = {"seats": [ME] + [EASY_BOT] * 4, "rated": True}
    assert refusal(client.post("/api/tables", json=five), 400) == "rating.not_players"
    casual = create_table(client, [ME, EASY_BOT])
    assert client.get(f"/api/ratings/tables/{casual['code']}").json() == {"rated": False, "family": "2", "changes": []}
    rated = create_table(client, [ME, EASY_BOT, EASY_BOT], rated=True)
    assert rated["rated"] is True
    assert client.get(f"/api/tables/{rated['code']}").json()["rated"] is True
    assert client.get(f"/api/ratings/tables/{rated['code']}").json()["family"] == "3-4"


def test_a_guest_cannot_take_a_seat_at_a_rated_table(ratings_client: TestClient) -> None:
    client = ratings_client
    sign_up(client, "kim")
    table = create_table(client, [ME, ME], claim=False, rated=True, open=True)
    invite = table["seats"][1]["invite"]
    code, claim = invite.removeprefix("/t/").split("?invite=")
    client.cookies.clear()  # a guest
    assert refusal(client.post(f"/api/tables/{code}/claim", json={"invite": claim}), 403) == "rating.sign_in"
    assert refusal(client.post(f"/api/tables/{code}/join", json={}), 403) == "rating.sign_in"
    sign_up(client, "sam")
    assert claim_invite(client, invite)["seat"] == 1  # the invite still works for an account


def test_a_rated_match_changes_the_rating_once_and_tells_the_table(ratings_client: TestClient) -> None:
    client = ratings_client
    sign_up(client, "kim")
    table = create_table(client, [ME, EASY_BOT], rated=True)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        final = play_out(players, random.Random(5))
        notice = players[0].until(lambda m: m["type"] == "rating")
    (change,) = notice["changes"]
    won = final["match_over"]["winners"] == [0]
    assert change["seat"] == 0 and change["before"] == 1500 and change["provisional"] is True
    assert change["delta"] == change["after"] - change["before"] and (change["delta"] > 0) == won
    assert client.get(f"/api/ratings/tables/{table['code']}").json()["changes"] == [change]
    profile = client.get("/api/ratings/KIM").json()
    assert profile["username"] == "kim"
    heads_up = profile["families"]["2"]
    assert heads_up["rating"] == change["after"] and heads_up["matches"] == 1
    assert heads_up["rank"] is None  # provisional: not on the leaderboard
    assert [point["table"] for point in heads_up["history"]] == [table["code"]]
    assert profile["families"]["3-4"]["history"] == [] and profile["families"]["3-4"]["rating"] == 1500


def test_unknown_players_and_families_are_refused_in_one_line(ratings_client: TestClient) -> None:
    client = ratings_client
    assert refusal(client.get("/api/ratings/nobody"), 404) == "rating.no_player"
    assert refusal(client.get("/api/leaderboard/5"), 404) == "rating.no_family"
    assert refusal(client.get("/api/ratings/tables/NOSUCH"), 404) == "error.no_table"


def test_the_leaderboard_lists_the_bot_levels_at_their_fixed_ratings(ratings_client: TestClient) -> None:
    board = ratings_client.get("/api/leaderboard/3-4").json()
    assert board["players"] == [] and board["active_days"] == 30
    assert [bot["level"] for bot in board["bots"]] == list(LEVEL_RATINGS["3-4"])
    assert [bot["rating"] for bot in board["bots"]] == [r.shown for r in LEVEL_RATINGS["3-4"].values()]
    assert ratings_client.get("/leaderboard").status_code == 200


def test_a_rated_table_gives_no_engine_help_until_its_match_is_over(ratings_client: TestClient) -> None:
    client = ratings_client
    sign_up(client, "kim")
    table = create_table(client, [ME, EASY_BOT], rated=True)
    code = table["code"]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        me = players[0]
        state = settle(players)
        assert state["to_move"] == 0 and me.state["legal"]  # my turn: a hint would be answered elsewhere
        me.send({"type": "hint"})
        refused = me.until(lambda m: m["type"] in ("hint", "error"))
        assert refused["type"] == "error" and refused["code"] == "rating.no_hints", refused
        spectator = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        spectator.send({"type": "hint"})
        assert spectator.until(lambda m: m["type"] == "error")["code"] == "rating.no_hints"
        # Nor a review, a replay or the record while the match is on: the hands would be face up.
        for path in ("review", "replay", "record"):
            assert refusal(client.get(f"/api/tables/{code}/{path}"), 403).endswith("_not_over"), path
        play_out(players, random.Random(3))
    assert client.get(f"/api/tables/{code}/replay").status_code == 200  # once it is over, everyone may look


def test_one_account_cannot_take_two_seats_of_a_rated_table(ratings_client: TestClient) -> None:
    client = ratings_client
    sign_up(client, "kim")
    table = create_table(client, [ME, ME, EASY_BOT], claim=False, rated=True, open=True)
    code, claim = table["seats"][1]["invite"].removeprefix("/t/").split("?invite=")
    assert refusal(client.post(f"/api/tables/{code}/claim", json={"invite": claim}), 403) == "rating.two_seats"
    assert refusal(client.post(f"/api/tables/{code}/join", json={}), 403) == "rating.two_seats"
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] is None  # nothing changed
    client.cookies.clear()
    sign_up(client, "sam")
    assert claim_invite(client, table["seats"][1]["invite"])["seat"] == 1  # the invite still works for another


def until(done: Callable[[], bool], tries: int = 1_000) -> bool:
    """Ask ``done`` until it holds (each ask a request the server answers after what it had to do)."""
    return any(done() for _ in range(tries))


GRACE = 12.0
"""The grace of docs/players/browser.md: a page closed this long is covered by its bot."""


@pytest.mark.usefixtures("empty_ratings")
def test_closing_the_page_of_a_rated_match_against_bots_counts_as_finishing_last(
    make_client: Callable[..., TestClient],
) -> None:
    clock = FakeClock()
    client = make_client(dataclasses.replace(INSTANT, grace=GRACE), clock=clock, addresses=GENEROUS)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    sign_up(client, "kim")
    table = create_table(client, [ME, EASY_BOT], rated=True)
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        Player(ws).until_state(lambda s: s["status"] == "playing")
    # The page is closed: nobody is connected. A rated match does not pause: its player is gone, not yet
    # absent for good (a phone switching apps comes back within the grace and nothing happened).
    assert until(lambda: not client.get(f"/api/tables/{code}").json()["seats"][0]["connected"])
    client.portal.call(clock.advance, GRACE - 0.1)  # type: ignore[union-attr]
    assert code in hub.tables and hub.tables[code].absent() == []
    client.portal.call(clock.advance, 0.1)  # type: ignore[union-attr]

    def covered() -> bool:  # the grace's end is a command the table handles in its turn
        return client.get("/api/presets").is_success and hub.tables[code].absent() == [0]

    assert until(covered)  # covered by its bot, which plays the match to its end
    for _ in range(20_000):  # each step runs the automatic move due now (the pauses are 0)
        if client.get(f"/api/tables/{code}").json()["status"] == "finished":
            break
        client.portal.call(clock.advance, 0.0)  # type: ignore[union-attr]
    assert client.get(f"/api/tables/{code}").json()["status"] == "finished"

    def rated() -> dict[str, Any] | None:  # the rating is recorded beside the table, once its match is over
        # A second a look: the cheap requests' budget fills again, and a ratings answer kept is kept 10 s.
        client.portal.call(clock.advance, 1.0)  # type: ignore[union-attr]
        heads_up: dict[str, Any] = client.get("/api/ratings/kim").json()["families"]["2"]
        return heads_up if heads_up["matches"] else None

    until_now(rated, 60, "the rated match recorded")
    heads_up = rated()
    assert (
        heads_up is not None and heads_up["matches"] == 1 and heads_up["rating"] < 1500
    )  # abandoned: last, whatever its bot made of it
    (change,) = client.get(f"/api/ratings/tables/{code}").json()["changes"]
    assert change["seat"] == 0 and change["delta"] < 0


def test_a_player_whose_seat_is_handed_to_a_bot_finishes_last(ratings_client: TestClient) -> None:
    client = ratings_client
    sign_up(client, "kim")
    table = create_table(client, [ME, ME, EASY_BOT], claim=False, rated=True)
    code = table["code"]
    client.cookies.clear()
    sign_up(client, "sam")
    claim_invite(client, table["seats"][1]["invite"])  # Sam takes the seat, then never comes to the table
    handed = client.post(f"/api/tables/{code}/seats/1/bot", json={"token": table["token"], "bot": "easy"})
    assert handed.status_code == 200 and handed.json()["seats"][1]["kind"] == "bot"
    with ExitStack() as stack:
        kim = {0: Player(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={table['token']}")))}
        play_out(kim, random.Random(2))
        notice = kim[0].until(lambda m: m["type"] == "rating")
    changes = {change["seat"]: change for change in notice["changes"]}
    assert set(changes) == {0, 1}  # Sam's abandoned seat counts, for Sam
    assert changes[1]["delta"] < 0 and changes[1]["after"] < changes[1]["before"]
    assert client.get("/api/ratings/sam").json()["families"]["3-4"]["matches"] == 1

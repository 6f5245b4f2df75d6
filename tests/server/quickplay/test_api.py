"""Quick play over HTTP: two browsers join, their heartbeats hand each a seat at one new table;
guests play casual; leaving the page leaves the queue."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.quickplay import QuickPlaySettings
from chickenfoot.server.quickplay.ratings import EQUAL_RATING
from chickenfoot.server.quickplay.routes import GUEST_COOKIE
from chickenfoot.server.ratings.service import LevelRatings

from ..accounts.conftest import GENEROUS, sign_up


def join(client: TestClient, **body: Any) -> str:
    """Join as a new browser (a cookie of its own); the ticket."""
    client.cookies.clear()
    response = client.post("/api/quickplay", json={"players": 2, **body})
    assert response.status_code == 201, response.text
    assert GUEST_COOKIE in response.cookies
    return str(response.json()["ticket"])


def beat(client: TestClient, ticket: str) -> dict[str, Any]:
    response = client.post("/api/quickplay/beat", json={"ticket": ticket})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_two_browsers_are_seated_at_one_new_table_and_play_there(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    client = make_client()
    ann, bo = join(client, name="Ann"), join(client, name="Bo")
    seated = [beat(client, ann), beat(client, bo)]
    assert [s["status"] for s in seated] == ["seated", "seated"]
    assert seated[0]["code"] == seated[1]["code"] and {s["seat"] for s in seated} == {0, 1}
    code = seated[0]["code"]
    table = client.get(f"/api/tables/{code}").json()
    assert [(s["kind"], s["name"]) for s in table["seats"]] == [("human", "Ann"), ("human", "Bo")]
    assert not table["open"] and table["status"] == "playing" and table["rated"] is False
    for s in seated:
        with client.websocket_connect(f"/ws/{code}?token={s['token']}") as ws:
            state = ws.receive_json()
            assert state["type"] == "state" and state["state"]["seat"] == s["seat"]
    again = client.post("/api/quickplay/beat", json={"ticket": ann})
    assert again.status_code == 404 and again.json()["code"] == "quickplay.gone"  # a seat is handed out once


def test_a_waiting_player_sees_how_many_wait_and_for_how_long(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock)
    ann = join(client, players=4, bots_after=None)
    bo = join(client, players=4, bots_after=None)
    client.portal.call(clock.advance, 7)  # type: ignore[union-attr]
    assert beat(client, ann) | {"beat": 0} == {"status": "waiting", "waiting": 2, "waited": 7, "beat": 0}
    assert beat(client, join(client, players=2))["waiting"] == 1  # another pool
    client.post("/api/quickplay/leave", json={"ticket": bo})
    assert beat(client, ann)["waiting"] == 1


def test_leaving_the_page_leaves_the_queue_when_the_heartbeats_stop(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, quick_play=QuickPlaySettings(lease_seconds=15))
    gone = join(client, players=4, bots_after=None)
    stays = join(client, players=4, bots_after=None)
    for _ in range(4):
        client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
        assert beat(client, stays)["status"] == "waiting"
    assert beat(client, stays)["waiting"] == 1
    assert client.post("/api/quickplay/beat", json={"ticket": gone}).status_code == 404


def test_a_browser_has_one_entry_and_guests_play_casual(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    client = make_client()
    first = join(client, players=4, bots_after=None)
    again = client.post("/api/quickplay", json={"players": 4, "bots_after": None})  # same cookie
    assert again.status_code == 201
    assert client.post("/api/quickplay/beat", json={"ticket": first}).status_code == 404
    assert beat(client, again.json()["ticket"])["waiting"] == 1
    rated = client.post("/api/quickplay", json={"players": 2, "rated": True})
    assert rated.status_code == 401 and rated.json()["code"] == "quickplay.rated_needs_account"
    for bad in ({"players": 3}, {"players": 2, "bots_after": -1}, {"players": 2, "name": "a\nb"}):
        refused = client.post("/api/quickplay", json=bad)
        assert refused.status_code == 400 and refused.json()["code"] == "error.invalid"
    assert beat(client, again.json()["ticket"])["waiting"] == 1  # bad requests changed nothing


def test_a_seat_found_for_a_player_who_left_before_taking_it_goes_to_a_bot(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, quick_play=QuickPlaySettings(lease_seconds=15))

    def kinds(code: str) -> list[tuple[str, str | None]]:
        return [(s["kind"], s["bot"]) for s in client.get(f"/api/tables/{code}").json()["seats"]]

    ann, bo = join(client, name="Ann"), join(client, name="Bo")
    seated = beat(client, ann)  # Ann and Bo are paired; Ann takes her seat
    client.post("/api/quickplay/leave", json={"ticket": bo})  # Bo's page closed first
    expected = [("human", None), ("bot", LevelRatings().near(EQUAL_RATING))]  # the level nearest a new player
    assert kinds(seated["code"]) == (expected if seated["seat"] == 0 else expected[::-1])
    cy, _dee = join(client), join(client)
    seated = beat(client, cy)  # Dee's page stops before her next heartbeat
    eve = join(client, players=4, bots_after=None)
    for _ in range(2):  # Eve's heartbeats keep her waiting; each runs a pass
        client.portal.call(clock.advance, 8)  # type: ignore[union-attr]
        assert beat(client, eve)["status"] == "waiting"
    # 16 s without a heartbeat: Dee's lease has run out, and her seat has gone to a bot.
    assert kinds(seated["code"]) == (expected if seated["seat"] == 0 else expected[::-1])


class Ratings:
    """Each account's rating by its username's order of sign-up; records what it was asked."""

    def __init__(self, ratings: list[float]) -> None:
        self.ratings = ratings
        self.ids: dict[int, int] = {}
        self.asked: list[int] = []

    async def __call__(self, account_id: int, players: int) -> float:
        self.asked.append(players)
        return self.ratings[self.ids.setdefault(account_id, len(self.ids))]


def test_accounts_wait_in_the_rated_pool_paired_by_their_ratings(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock, ratings = FakeClock(), Ratings([1400, 1800])
    client = make_client(clock=clock, addresses=GENEROUS, quick_play=QuickPlaySettings(ratings=ratings))
    tickets = []
    for _ in range(2):
        client.cookies.clear()
        sign_up(client, f"qp{secrets.token_hex(4)}")
        joined = client.post("/api/quickplay", json={"players": 2, "rated": True})
        assert joined.status_code == 201, joined.text
        tickets.append(joined.json()["ticket"])
    guest = join(client)  # casual: another pool, whatever its rating
    assert ratings.asked == [2, 2]  # both asked at tables of two
    for _ in range(5):  # 400 apart: each window reaches 400 after 30 s
        client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
        assert [beat(client, t)["waiting"] for t in tickets] == [2, 2]
        assert beat(client, guest)["waiting"] == 1
    client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
    seated = [beat(client, t) for t in tickets]
    assert [s["status"] for s in seated] == ["seated", "seated"] and seated[0]["code"] == seated[1]["code"]
    assert beat(client, guest)["status"] == "waiting"
    assert client.get(f"/api/tables/{seated[0]['code']}").json()["rated"] is True


def test_players_at_their_own_pace_wait_in_a_pool_of_their_own_and_get_a_turn_based_table(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    client = make_client()
    live = join(client, name="Cy")
    ann = join(client, name="Ann", move_seconds=86_400)
    assert beat(client, live)["status"] == "waiting" and beat(client, ann)["status"] == "waiting"  # not paired
    bo = join(client, name="Bo", move_seconds=86_400)
    seated = [beat(client, ann), beat(client, bo)]
    assert [s["status"] for s in seated] == ["seated", "seated"] and seated[0]["code"] == seated[1]["code"]
    table = client.get(f"/api/tables/{seated[0]['code']}").json()
    assert table["pace"] == {"move_seconds": 86_400, "on_timeout": "replace"} and table["turn_timer"] is None
    assert beat(client, live)["status"] == "waiting"
    refused = client.post("/api/quickplay", json={"players": 2, "move_seconds": 60})
    assert refused.status_code == 400  # only the times per move a table may have


def test_a_player_who_left_the_page_while_queued_is_not_paired(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, quick_play=QuickPlaySettings(lease_seconds=15))
    ghost = join(client, name="Ghost")  # its page closes without a word: no leave, no heartbeat
    client.portal.call(clock.advance, 8)  # type: ignore[union-attr]  # two heartbeats missed
    ann = join(client, name="Ann")
    heard = beat(client, ann)
    assert heard["status"] == "waiting" and heard["waiting"] == 2  # counted until its lease runs out, never paired
    client.portal.call(clock.advance, 8)  # type: ignore[union-attr]  # 16 s: the ghost's lease has run out
    assert beat(client, ann) == {"status": "waiting", "waiting": 1, "waited": 8.0, "beat": 3.0}
    bo = join(client, name="Bo")
    seated = [beat(client, ann), beat(client, bo)]
    assert [s["status"] for s in seated] == ["seated", "seated"] and seated[0]["code"] == seated[1]["code"]
    assert client.post("/api/quickplay/beat", json={"ticket": ghost}).status_code == 404


def test_a_partner_who_never_comes_is_covered_by_a_bot_though_nobody_else_waits(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, quick_play=QuickPlaySettings(lease_seconds=15))
    ann, _bo = join(client, name="Ann"), join(client, name="Bo")  # paired at once; Bo's page then dies
    seated = beat(client, ann)
    code, bo_seat = seated["code"], 1 - seated["seat"]
    table = client.get(f"/api/tables/{code}").json()
    assert table["status"] == "waiting" and table["seats"][bo_seat]["kind"] == "human"
    # Nobody else is in the queue, so no heartbeat runs a pass: the seat still goes to a bot, and Ann plays.
    client.portal.call(clock.advance, 18)  # type: ignore[union-attr]  # Bo's lease (15 s) and a heartbeat more
    for _ in range(1_000):  # the bot is seated by a command the table handles in its turn
        table = client.get(f"/api/tables/{code}").json()
        if table["seats"][bo_seat]["kind"] == "bot":
            break
    assert table["seats"][bo_seat]["kind"] == "bot" and table["status"] == "playing"


def test_a_table_its_players_never_come_to_is_swept_soon(
    make_client: Callable[..., TestClient], empty_queue: str
) -> None:
    clock = FakeClock()
    client = make_client(clock=clock, quick_play=QuickPlaySettings(unplayed_seconds=600))
    ann, bo = join(client), join(client)
    code = beat(client, ann)["code"]
    assert beat(client, bo)["code"] == code
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(clock.advance, 599)  # type: ignore[union-attr]  # on the app's loop: its timers fire there
    client.portal.call(hub.sweep)  # type: ignore[union-attr]
    assert client.get(f"/api/tables/{code}").status_code == 200
    client.portal.call(clock.advance, 2)  # type: ignore[union-attr]
    client.portal.call(hub.sweep)  # type: ignore[union-attr]
    assert client.get(f"/api/tables/{code}").status_code == 404

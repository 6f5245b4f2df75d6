"""The lobby's HTTP endpoints and the page routes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chickenfoot import PRESETS
from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.rules import MAX_PLAYERS

from .conftest import create_table

HUMAN = {"kind": "human"}


def test_presets_lists_rules_and_bots(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert data["presets"]["classic"] == PRESETS["classic"].to_dict()
    assert data["presets"]["six-arms"]["hub_arms"] == 6
    assert data["bots"] == ["easy", "medium", "hard", "expert"] == list(LEVELS)
    assert data["default_bot"] == DEFAULT_LEVEL and data["max_players"] == MAX_PLAYERS


def test_create_gives_tokens_to_human_seats_only(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, HUMAN])
    assert len(table["code"]) == 6
    seats = table["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert "token" not in seats[1] and "invite" not in seats[1]
    assert seats[0]["token"] != seats[2]["token"]
    assert seats[0]["invite"] == f"/t/{table['code']}?token={seats[0]['token']}"


def test_summary_and_status(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    table = create_table(client, seats, preset="six-arms")
    summary = client.get(f"/api/tables/{table['code'].lower()}").json()
    assert summary["code"] == table["code"]
    assert summary["rules"]["hub_arms"] == 6
    assert summary["players"] == 2 and summary["round"] == 1 and summary["totals"] == [0, 0]
    assert summary["status"] == "playing"  # the creator holds the only human seat
    assert summary["seats"][0] == {"seat": 0, "kind": "human", "name": "Ann", "connected": False, "bot": None}
    assert summary["seats"][1]["bot"] == "random" and summary["seats"][1]["connected"] is True


def test_rules_overrides_and_rounds(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], rules={"max_pip": 6, "drawn_tile": "must"}, rounds=2)
    summary = client.get(f"/api/tables/{table['code']}").json()
    assert summary["rules"]["max_pip"] == 6 and summary["rules"]["drawn_tile"] == "must"
    assert summary["rounds"] == 2


def test_join_takes_free_human_seats_then_409(client: TestClient) -> None:
    table = create_table(client, [HUMAN, {"kind": "bot"}, HUMAN])
    code = table["code"]
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"})
    assert joined.status_code == 200
    assert joined.json()["seat"] == 2 and joined.json()["token"] == table["seats"][2]["token"]
    summary = client.get(f"/api/tables/{code}").json()
    assert summary["status"] == "playing" and summary["seats"][2]["name"] == "Bo"
    full = client.post(f"/api/tables/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "no free seat" in full.json()["detail"]


def test_bad_requests_get_one_line_errors(client: TestClient) -> None:
    cases = [
        ({"seats": [HUMAN]}, "seats"),
        ({"seats": [{"kind": "bot"}, {"kind": "bot"}]}, "human"),
        ({"seats": [HUMAN, HUMAN], "preset": "nope"}, "unknown rules preset"),
        ({"seats": [HUMAN, HUMAN], "rules": {"hub_arms": 5}}, "hub_arms"),
        ({"seats": [HUMAN, HUMAN], "rules": {"colour": "red"}}, "unknown rules field"),
        ({"seats": [HUMAN, HUMAN], "rounds": 99}, "rounds"),
        ({"seats": [HUMAN, {"kind": "bot", "bot": "genius"}]}, "unknown bot"),
        ({"seats": [HUMAN, {"kind": "alien"}]}, "kind"),
        ({"seats": [HUMAN] * 9}, "seats"),
    ]
    for body, words in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400, body
        detail = response.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and words in detail, (body, detail)
    assert client.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"}).status_code == 400


def test_unknown_table_is_404(client: TestClient) -> None:
    assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.post("/api/tables/ZZZZZZ/join", json={}).status_code == 404
    assert client.get("/api/tables/ZZZZZZ/record").status_code == 404


def test_record_is_403_before_the_match_ends(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN])
    response = client.get(f"/api/tables/{table['code']}/record")
    assert response.status_code == 403 and "over" in response.json()["detail"]


def test_tables_survive_an_app_restart(make_client: object) -> None:
    first = make_client()  # type: ignore[operator]
    table = create_table(first, [{"kind": "human", "name": "Ann"}, HUMAN])
    second = make_client()  # type: ignore[operator]
    summary = second.get(f"/api/tables/{table['code']}").json()
    assert summary["seats"][0]["name"] == "Ann" and summary["status"] == "waiting"


def test_the_page_is_served_at_the_lobby_and_table_routes(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    table = client.get("/t/ABC123?token=whatever")
    assert table.status_code == 200 and table.text == lobby.text
    assert client.get("/app.js").status_code == 200

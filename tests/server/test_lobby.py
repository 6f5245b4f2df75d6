"""The lobby's HTTP endpoints and the page routes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chickenfoot import PRESETS
from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.rules import MAX_PLAYERS

from .conftest import create_table, ready

HUMAN = {"kind": "human"}


def test_presets_lists_rules_and_bots(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert data["presets"]["classic"] == PRESETS["classic"].to_dict()
    assert data["presets"]["six-arms"]["hub_arms"] == 6
    assert data["bots"] == ["easy", "medium", "hard", "expert"] == list(LEVELS)
    assert data["default_bot"] == DEFAULT_LEVEL and data["max_players"] == MAX_PLAYERS


def test_create_gives_the_creator_a_secret_and_invites_for_the_others(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, HUMAN], False)
    code, seats = table["code"], table["seats"]
    assert len(code) == 6 and table["seat"] == 0 and table["open"] is False
    assert len(table["token"]) >= 43  # 32 bytes, URL-safe base64
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert "invite" not in seats[0] and "invite" not in seats[1] and "token" not in seats[2]
    assert seats[2]["invite"].startswith(f"/t/{code}?invite=")
    assert table["token"] not in seats[2]["invite"]


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


def test_join_takes_free_human_seats_of_an_open_table_then_409(client: TestClient) -> None:
    table = create_table(client, [HUMAN, {"kind": "bot"}, HUMAN], False, open=True)
    code = table["code"]
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"})
    assert joined.status_code == 200
    assert joined.json()["seat"] == 2 and joined.json()["token"] != table["token"]
    summary = client.get(f"/api/tables/{code}").json()
    # Seated, not yet dealt: the match begins once both have pressed Ready.
    assert summary["status"] == "waiting" and summary["seats"][2]["name"] == "Bo" and summary["open"] is True
    ready(client, code, table["token"])
    ready(client, code, joined.json()["token"])
    assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
    full = client.post(f"/api/tables/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "no free seat" in full.json()["detail"]
    # The seat's invite, handed out at creation, opens nothing once a stranger joined.
    claim = table["seats"][2]["invite"].split("?invite=")[1]
    assert client.post(f"/api/tables/{code}/claim", json={"invite": claim}).status_code == 403


def test_an_invite_only_table_refuses_join(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], False)
    refused = client.post(f"/api/tables/{table['code']}/join", json={"name": "Eve"})
    assert refused.status_code == 403 and "invite-only" in refused.json()["detail"]
    assert client.get(f"/api/tables/{table['code']}").json()["open"] is False


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
    assert client.post("/api/tables/ZZZZZZ/claim", json={"invite": "x"}).status_code == 404
    assert client.get("/api/tables/ZZZZZZ/record").status_code == 404


def test_record_is_403_before_the_match_ends(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN])
    response = client.get(f"/api/tables/{table['code']}/record")
    assert response.status_code == 403 and "over" in response.json()["detail"]


def test_tables_survive_an_app_restart(make_client: object) -> None:
    first = make_client()  # type: ignore[operator]
    table = create_table(first, [{"kind": "human", "name": "Ann"}, HUMAN], False)
    second = make_client()  # type: ignore[operator]
    summary = second.get(f"/api/tables/{table['code']}").json()
    assert summary["seats"][0]["name"] == "Ann" and summary["status"] == "waiting"


def test_the_page_is_served_at_the_lobby_and_table_routes(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    table = client.get("/t/ABC123?token=whatever")
    assert table.status_code == 200 and table.text == lobby.text
    assert client.get("/app.js").status_code == 200


def test_the_api_documentation_only_in_debug(make_client: Callable[..., TestClient]) -> None:
    quiet, debug = make_client(), make_client(debug=True)
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert quiet.get(path).status_code == 404, path
        assert debug.get(path).status_code == 200, path
    assert "/api/tables/{code}/claim" in debug.get("/openapi.json").json()["paths"]
    # The documentation pages run the CDN's scripts: every header but the CSP; the rest keeps it.
    assert "content-security-policy" not in debug.get("/docs").headers
    assert debug.get("/docs").headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" in debug.get("/openapi.json").headers


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
rule_fields = st.sampled_from(
    ["max_pip", "hub_arms", "toes", "drawn_tile", "draw_limit", "double_blank_points", "hand_size", "rounds", "x"]
)


@given(
    rules=st.dictionaries(rule_fields, json_values, max_size=4),
    extra=st.dictionaries(st.sampled_from(["preset", "rounds", "open", "turn_timer", "seats"]), json_values),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_table_request_is_created_or_refused_in_one_line(
    client: TestClient, rules: dict[str, Any], extra: dict[str, Any]
) -> None:
    body = {"seats": [HUMAN, {"kind": "bot"}], "rules": rules} | extra
    response = client.post("/api/tables", json=body)
    assert response.status_code in (201, 400), (body, response.text)
    if response.status_code == 400:
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail

"""Every error the HTTP API answers is a message: ``{"detail": English, "code", ...params}``, worded
in every language from its code, as the page shows it (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.i18n import LANGUAGES, render_wire, translations
from chickenfoot.messages import Code

from .conftest import create_table

HUMAN = {"kind": "human"}


def refusals(client: TestClient) -> list[tuple[int, dict[str, Any]]]:
    """One request for each way the API refuses, with its answer."""
    invite_only = create_table(client, [HUMAN, HUMAN], claim=False)
    full = create_table(client, [HUMAN, {"kind": "bot"}], open=True)
    code, token = invite_only["code"], invite_only["token"]
    post = client.post
    answers = [
        client.get("/api/tables/NOSUCH"),
        client.get("/api/tables/NOSUCH/replay"),
        client.get(f"/api/tables/{code}/replay"),
        client.get(f"/api/tables/{code}/record"),
        post(f"/api/tables/{code}/join", json={}),
        post(f"/api/tables/{full['code']}/join", json={"name": "Cy"}),
        post(f"/api/tables/{code}/claim", json={"invite": "nothing"}),
        post(f"/api/tables/{code}/seats/1/bot", json={"token": "not the creator's"}),
        post(f"/api/tables/{code}/seats/7/bot", json={"token": token}),
        post(f"/api/tables/{code}/seats/0/bot", json={"token": token}),
        post(f"/api/tables/{code}/seats/1/bot", json={"token": token, "bot": "genius"}),
        post("/api/tables", json={"seats": [{"kind": "bot"}, {"kind": "bot"}]}),
        post("/api/tables", json={"seats": [HUMAN, HUMAN], "preset": "nope"}),
        post("/api/tables", json={"seats": [HUMAN]}),
        post("/api/tables", json={"seats": [{"kind": "human", "name": "x" * 41}, HUMAN]}),
        post("/api/tables", json={"seats": [{"kind": "human", "name": "A\u0000B"}, HUMAN]}),
        post("/api/tables", json={"seats": [HUMAN, HUMAN], "rounds": 0}),
        post("/api/tables", json={"seats": [HUMAN, HUMAN], "turn_timer": 45}),
        post("/api/tables", json={"seats": [HUMAN, HUMAN], "open": "yes please"}),
        post("/api/tables", json={}),
        post("/api/tables", content=b"{oops", headers={"content-type": "application/json"}),
        client.get("/no/such/file.js"),
        client.delete("/api/presets"),
    ]
    return [(answer.status_code, answer.json()) for answer in answers]


def test_every_refusal_is_a_message_in_every_language(client: TestClient) -> None:
    answers = refusals(client)
    assert all(400 <= status < 500 for status, _ in answers), answers
    codes = [body["code"] for _, body in answers]
    assert {
        "error.no_table",
        "error.replay_not_over",
        "error.record_not_over",
        "error.invite_only",
        "error.no_free_seat",
        "error.invite_used",
        "error.creator_only",
        "error.no_seat",
        "error.not_friends_seat",
        "error.unknown_bot",
        "error.no_human_seat",
        "error.bad_rules",
        "error.invalid",
        "error.body.json",
        "error.http",
    } <= set(codes)
    reasons = {body["reason"]["code"] for _, body in answers if body["code"] == "error.invalid"}
    assert reasons == {
        "invalid.too_few",
        "invalid.too_long",
        "invalid.name",
        "invalid.at_least",
        "invalid.choice",
        "invalid.type",
        "invalid.missing",
    }
    for status, body in answers:
        # The English beside the code is the catalog's English: one sentence, said once.
        assert body["detail"] == render_wire(body, "en", ["seat 0", "seat 1"]), (status, body)
        for lang in LANGUAGES:
            text = render_wire(body, lang)
            assert text and "{" not in text and "\n" not in text, (lang, body, text)
            if lang != "en" and body["code"] != "error.invalid":
                english = Code.parse(body["code"]).value.english
                assert translations(lang).pgettext(body["code"], english) != english, (lang, body["code"])


@pytest.mark.parametrize("path", ["/api/tables/NOSUCH", "/api/tables/NOSUCH/review"])
def test_a_missing_table_is_named_in_the_message(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json() == {"detail": "no table 'NOSUCH'", "code": "error.no_table", "table": "NOSUCH"}
    assert render_wire(answer.json(), "lt") == "Stalo „NOSUCH“ nėra"

"""Reports: a chat line or a player reported with a reason keeps its evidence (the lines around it and who
said each, the table, the time, who reported), whatever happens to the table after; the same report
twice is refused, open reports are capped and reports limited per account; the report desk (the shape
of the moderation page's port) lists, counts and handles them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.clock import SystemClock
from chickenfoot.server.http.limits import AccountLimits
from chickenfoot.server.social.reports import OPEN_PER_REPORTER, Evidence, Outcome, report_desk
from chickenfoot.server.storage import Storage, game_tables

from ..accounts.conftest import GENEROUS
from .conftest import Person


def said(ws: Any, text: str) -> int:
    """Say ``text`` at the table; its line's number."""
    ws.send_json({"type": "chat", "text": text})
    while (message := ws.receive_json()).get("type") != "chat" or message.get("line", {}).get("text") != text:
        pass
    return int(message["line"]["n"])


def test_a_reported_line_keeps_its_evidence_after_the_table_is_gone(
    social_client: TestClient, database_url: str
) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    table = ann.ok("post", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}]})
    code = table["code"]
    bob_seat = bob.ok("post", f"/api/tables/{code}/claim", {"invite": table["seats"][1]["invite"].split("?invite=")[1]})
    with ann.socket(code, table["token"]) as to_ann, bob.socket(code, bob_seat["token"]) as to_bob:
        said(to_ann, "hello")
        rude = said(to_bob, "you are terrible")
        said(to_ann, "that is not nice")
    body = {"table": code.lower(), "line": rude, "reason": "abuse", "note": "  insults\nagain "}
    filed = ann.ok("post", "/api/social/reports", body)
    twice = ann.post("/api/social/reports", body)
    assert (twice.status_code, twice.json()["code"]) == (409, "social.already_reported")
    own = bob.post("/api/social/reports", {"table": code, "line": rude, "reason": "spam"})
    assert (own.status_code, own.json()["code"]) == (400, "social.not_yourself")
    gone = ann.post("/api/social/reports", {"table": code, "line": 99, "reason": "spam"})
    assert (gone.status_code, gone.json()["code"]) == (404, "social.no_line")
    by_name = bob.ok("post", "/api/social/reports", {"name": "ann", "reason": "name"})

    async def check() -> None:
        storage = Storage(database_url, SystemClock())
        async with storage.transaction() as conn:  # the table goes: the report stays, with its evidence
            await conn.execute(game_tables.delete().where(game_tables.c.code == code))
        reports = report_desk(storage, SystemClock())
        report = await reports.get(filed["id"])
        assert report is not None
        wire = report.wire()
        assert (wire["reporter"], wire["reported"], wire["reason"], wire["note"]) == (
            "ann",
            "bob",
            "abuse",
            "insults again",
        )
        assert (wire["table"], wire["line"], wire["status"]) == (code, rude, "open")
        assert [(line["text"], line["by"], line["seat"]) for line in wire["evidence"]] == [
            ("hello", "ann", 0),
            ("you are terrible", "bob", 1),
            ("that is not nice", "ann", 0),
        ]
        assert report.evidence[1] == Evidence(rude, 1, "you are terrible", None, report.evidence[1].at, "bob")
        # The moderation page's desk: open ones listed (a page at a time), counted, handled once.
        assert await reports.count_open() == 2
        assert [r.id for r in await reports.listed(False, None, 50)] == [by_name["id"], filed["id"]]
        assert [r.id for r in await reports.listed(False, by_name["id"], 50)] == [filed["id"]]
        assert [r.id for r in await reports.listed(False, None, 1)] == [by_name["id"]]
        assert await reports.listed(True, None, 50) == []
        ann_id = (await reports.get(by_name["id"])).reported_id  # type: ignore[union-attr]
        assert ann_id is not None
        handled = await reports.handle(filed["id"], ann_id, Outcome.ACTIONED, "  warned\n")
        assert handled is not None and (handled.status, handled.resolution) == ("actioned", "warned")
        assert handled.handled_at is not None
        assert await reports.handle(filed["id"], ann_id, Outcome.DISMISSED, "again") is None  # handled once
        assert await reports.handle(10**6, ann_id, Outcome.DISMISSED, "") is None  # no such report
        assert [r.id for r in await reports.listed(False, None, 50)] == [by_name["id"]]
        assert [r.id for r in await reports.listed(True, None, 50)] == [filed["id"]]
        assert await reports.count_open() == 1
        await storage.close()

    asyncio.run(check())
    again = ann.post("/api/social/reports", body)  # handled: the same line may be reported again
    assert again.status_code == 404  # but the table, and its lines, are gone now


def test_reports_are_capped_and_limited_per_account(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    client = make_client(addresses=GENEROUS, account_limits=AccountLimits(reports=f"{OPEN_PER_REPORTER + 1}/hour"))
    ann = Person(client, "ann")
    names = [f"p{n:02}" for n in range(OPEN_PER_REPORTER + 1)]
    for name in names:
        Person(client, name)
    for name in names[:OPEN_PER_REPORTER]:
        ann.ok("post", "/api/social/reports", {"name": name, "reason": "other"})
    full = ann.post("/api/social/reports", {"name": names[-1], "reason": "other"})
    assert (full.status_code, full.json()["code"]) == (429, "social.too_many_reports")
    limited = ann.post("/api/social/reports", {"name": names[-1], "reason": "other"})
    assert (limited.status_code, limited.json()["code"]) == (429, "social.too_many_reported")
    unknown = Person(client, "bob").post("/api/social/reports", {"name": "ann", "reason": "rude"})
    assert unknown.status_code == 400  # not a reason there is

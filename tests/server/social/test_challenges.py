"""Challenges: made with a table's options, accepted (the table made by the seating feature's own path,
both players seated), declined, withdrawn or expired (the challenger told each time), refused by the
challenged player's choices, capped and limited per account."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.http.limits import AccountLimits
from chickenfoot.server.social.challenges import Caps, ChallengeStore
from chickenfoot.server.social.challenging import ChallengeSettings
from chickenfoot.server.storage import Storage

from ..accounts.conftest import GENEROUS
from .conftest import EVERYTHING, Person


def challenge(challenger: Person, to: str, **options: Any) -> int:
    made = challenger.ok("post", "/api/social/challenges", {"to": to, **options})
    return int(made["id"])


def received(person: Person) -> list[tuple[int, str, int, bool]]:
    """The open challenges the player received, as the lobby and the friends page list them."""
    return [(r["id"], r["name"], r["players"], r["rated"]) for r in person.news()["received"]]


def bell(person: Person) -> list[tuple[str, str, str | None, str]]:
    """What the player's bell lists, the newest first: each notice's kind, words, detail and the page it opens."""
    listed = person.ok("get", "/api/notifications")["notices"]
    return [(n["kind"], n["text"], n["detail"], n["url"]) for n in listed]


def test_a_challenge_accepted_seats_both_players_at_a_new_table(social_client: TestClient) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    made = challenge(ann, "bob", preset="classic", rounds=3, players=3, bot="easy")
    assert received(bob) == [(made, "ann", 3, False)]
    assert bell(bob) == [("challenge", "ann challenges you to a match", "3 players, casual", "/friends")]
    assert [(w["id"], w["to"]) for w in ann.news()["waiting"]] == [(made, "bob")]
    seat = bob.ok("post", f"/api/social/challenges/{made}/accept")
    code = seat["code"]
    assert seat["seat"] == 0 and seat["token"]
    assert received(bob) == [] and ann.news()["waiting"] == []
    assert ann.news()["accepted"] == [{"id": made, "name": "bob", "table": code}]
    assert bell(ann) == [("answer", "bob accepted your challenge", None, "/friends")]
    again = bob.post(f"/api/social/challenges/{made}/accept")
    assert (again.status_code, again.json()["code"]) == (409, "social.no_challenge")
    mine = ann.ok("post", f"/api/social/challenges/{made}/seat")
    assert (mine["code"], mine["seat"]) == (code, 1)
    twice = ann.post(f"/api/social/challenges/{made}/seat")
    assert (twice.status_code, twice.json()["code"]) == (409, "social.seat_taken")
    assert ann.news()["accepted"] == []  # the seat is taken: nothing waits for ann any more
    table = social_client.get(f"/api/tables/{code}").json()
    assert [(s["kind"], s["name"], s["bot"]) for s in table["seats"]] == [
        ("human", "bob", None),
        ("human", "ann", None),
        ("bot", None, "easy"),
    ]
    assert (table["rounds"], table["open"], table["rated"], table["status"]) == (3, False, False, "waiting")
    for token in (seat["token"], mine["token"]):
        assert social_client.post(f"/api/tables/{code}/ready", json={"token": token}).status_code == 200
    assert social_client.get(f"/api/tables/{code}").json()["status"] == "playing"
    for person, expected in ((bob, 0), (ann, 1)):
        with person.socket(code) as ws:  # no seat credential: the signed-in account's seat
            assert ws.receive_json()["state"]["seat"] == expected


def test_declined_withdrawn_and_expired_challenges_tell_the_challenger(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)
    ann, bob = Person(client, "ann"), Person(client, "bob")
    declined = challenge(ann, "bob")
    bob.ok("post", f"/api/social/challenges/{declined}/decline")
    assert bell(ann) == [("answer", "bob declined your challenge", None, "/friends")]
    assert ann.news()["accepted"] == [] and received(bob) == []
    withdrawn = challenge(ann, "bob")
    ann.ok("post", f"/api/social/challenges/{withdrawn}/withdraw")
    assert received(bob) == []
    late = bob.post(f"/api/social/challenges/{withdrawn}/accept")
    assert (late.status_code, late.json()["code"]) == (409, "social.no_challenge")
    expired = challenge(ann, "bob")
    client.portal.call(clock.advance, ChallengeSettings().challenge_seconds - 1)  # type: ignore[union-attr]
    assert [r[0] for r in received(bob)] == [expired]
    client.portal.call(clock.advance, 1)  # type: ignore[union-attr]
    assert received(bob) == []
    assert bell(ann)[0] == ("answer", "bob did not answer your challenge in time", None, "/friends")
    assert bob.post(f"/api/social/challenges/{expired}/accept").status_code == 409


def test_the_challenged_players_choices_decide_who_may_challenge(social_client: TestClient) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    bob.choose(challenges="nobody")
    refused = ann.post("/api/social/challenges", {"to": "bob"})
    assert (refused.status_code, refused.json()["code"], refused.json()["name"]) == (403, "social.not_accepting", "bob")
    bob.choose(challenges="friends")
    assert ann.post("/api/social/challenges", {"to": "bob"}).status_code == 403
    bob.follow("ann")
    assert ann.post("/api/social/challenges", {"to": "bob"}).status_code == 201
    assert ann.ok("get", "/api/social/players/bob") == {
        "you": False,
        "following": False,
        "blocking": False,
        "challenge": True,
    }
    for options, code in (
        ({"preset": "nonsense"}, "error.bad_rules"),
        ({"rated": True, "preset": "double-12"}, "rating.not_preset"),
    ):
        bad = bob.post("/api/social/challenges", {"to": "ann", **options})
        assert (bad.status_code, bad.json()["code"]) == (400, code), bad.text
    itself = ann.post("/api/social/challenges", {"to": "ann"})
    assert (itself.status_code, itself.json()["code"]) == (400, "social.not_yourself")
    turn_based = ann.post("/api/social/challenges", {"to": "bob", "pace": "turn-based"})
    assert turn_based.status_code == 400  # a pace is a time per move and a rule, as a new table's
    for path in ("/api/social/challenges/99999999999/accept", "/api/social/challenges/0/decline"):
        assert bob.post(path).status_code == 400, path  # refused before any query: no number the database holds not
    huge_line = ann.post("/api/social/follows", {"table": "ABC123", "line": 2**40})
    assert huge_line.status_code == 400


def test_a_challenge_at_ones_own_pace_makes_a_table_at_that_pace(social_client: TestClient) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    pace = {"move_seconds": 86400, "on_timeout": "lose"}
    made = challenge(ann, "bob", pace=pace, turn_timer=30)
    assert [(r["id"], r["pace"]) for r in bob.news()["received"]] == [(made, pace)]
    assert [(w["id"], w["pace"]) for w in ann.news()["waiting"]] == [(made, pace)]
    detail = "2 players, casual. "
    detail += "At your own pace: 1 day per move; when time runs out, they lose the match (two players)"
    assert bell(bob) == [("challenge", "ann challenges you to a match", detail, "/friends")]
    lt = bob.ok("get", "/api/notifications?lang=lt")["notices"][0]["detail"]
    assert lt.startswith("2 žaidėjai, be reitingo. Savo tempu: 1 diena vienam ėjimui; kai laikas baigiasi, ")
    code = bob.ok("post", f"/api/social/challenges/{made}/accept")["code"]
    table = social_client.get(f"/api/tables/{code}").json()
    assert (table["pace"], table["turn_timer"]) == (pace, None)  # its time per move instead of a turn timer
    live = challenge(bob, "ann")
    assert [(r["id"], r["pace"]) for r in ann.news()["received"]] == [(live, None)]
    assert bell(ann)[0][2] == "2 players, casual"  # real-time, as every table is unless it says otherwise
    code = ann.ok("post", f"/api/social/challenges/{live}/accept")["code"]
    table = social_client.get(f"/api/tables/{code}").json()
    assert (table["pace"], table["turn_timer"]) == (None, 60)


def test_losing_on_time_is_refused_at_more_than_two_players(social_client: TestClient) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    for players, on_timeout in ((3, "lose"), (4, "lose"), (2, "sometimes")):
        pace = {"move_seconds": 3600, "on_timeout": on_timeout}
        refused = ann.post("/api/social/challenges", {"to": "bob", "players": players, "pace": pace})
        assert refused.status_code == 400, refused.text
        assert (refused.json()["code"] == "error.lose_on_time_two") == (on_timeout == "lose"), refused.text
    assert bob.news()["received"] == [] and bell(bob) == []  # nothing kept, nobody told
    for rule in ("move", "replace"):
        made = challenge(ann, "bob", players=3, pace={"move_seconds": 3600, "on_timeout": rule})
        code = bob.ok("post", f"/api/social/challenges/{made}/accept")["code"]
        table = social_client.get(f"/api/tables/{code}").json()
        assert (table["players"], table["pace"]) == (3, {"move_seconds": 3600, "on_timeout": rule})


def test_a_challenge_at_ones_own_pace_waits_one_moves_time_for_its_answer(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)
    ann, bob, cyd = Person(client, "ann"), Person(client, "bob"), Person(client, "cyd")
    hour = challenge(ann, "bob", pace={"move_seconds": 3600})
    challenge(ann, "cyd")
    client.portal.call(clock.advance, ChallengeSettings().challenge_seconds)  # type: ignore[union-attr]
    assert [r[0] for r in received(bob)] == [hour] and received(cyd) == []  # the real-time one ran out
    client.portal.call(clock.advance, 3600 - ChallengeSettings().challenge_seconds - 1)  # type: ignore[union-attr]
    assert [r[0] for r in received(bob)] == [hour]
    client.portal.call(clock.advance, 1)  # type: ignore[union-attr]
    assert received(bob) == []
    assert bell(ann)[0] == ("answer", "bob did not answer your challenge in time", None, "/friends")
    assert bob.post(f"/api/social/challenges/{hour}/accept").status_code == 409
    week = challenge(ann, "bob", pace={"move_seconds": 604800, "on_timeout": "replace"})
    client.portal.call(clock.advance, 6 * 86400)  # type: ignore[union-attr]
    code = bob.ok("post", f"/api/social/challenges/{week}/accept")["code"]
    assert client.get(f"/api/tables/{code}").json()["pace"] == {"move_seconds": 604800, "on_timeout": "replace"}


def test_a_rated_challenge_makes_a_rated_table(social_client: TestClient) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    made = challenge(ann, "bob", rated=True)
    code = bob.ok("post", f"/api/social/challenges/{made}/accept")["code"]
    assert social_client.get(f"/api/tables/{code}").json()["rated"] is True


def test_challenges_are_capped_and_limited_per_account(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    people = AccountLimits(challenges_per_player="2/hour")
    client = make_client(addresses=GENEROUS, account_limits=people, challenges=ChallengeSettings(caps=Caps(2, 1)))
    ann, _, cyd, dee = (Person(client, name) for name in ("ann", "bob", "cyd", "dee"))
    challenge(ann, "bob")
    pending = ann.post("/api/social/challenges", {"to": "bob"})
    assert (pending.status_code, pending.json()["code"]) == (409, "social.challenge_pending")
    per_player = ann.post("/api/social/challenges", {"to": "bob"})
    assert (per_player.status_code, per_player.json()["code"]) == (429, "social.too_many_challenges_of")
    busy = cyd.post("/api/social/challenges", {"to": "bob"})  # bob has one waiting already
    assert (busy.status_code, busy.json()["code"]) == (429, "social.their_challenges_full")
    challenge(ann, "cyd")
    full = ann.post("/api/social/challenges", {"to": "dee"})
    assert (full.status_code, full.json()["code"], full.json()["limit"]) == (429, "social.challenges_full", 2)
    assert received(dee) == [] and bell(dee) == []


def test_challenges_are_capped_as_every_notice_one_person_causes_on_anothers_phone(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    people = dataclasses.replace(EVERYTHING, invitations_sent="2/hour", invitations_received="1/hour")
    client = make_client(addresses=GENEROUS, account_limits=people)
    ann, bob, cyd, dee = (Person(client, name) for name in ("ann", "bob", "cyd", "dee"))
    challenge(ann, "bob")
    busy = cyd.post("/api/social/challenges", {"to": "bob"})  # bob has had his one challenge this hour
    assert (busy.status_code, busy.json()["code"]) == (429, "notify.too_many_received")
    assert cyd.news()["waiting"] == [] and received(bob) == [(received(bob)[0][0], "ann", 2, False)]
    challenge(ann, "cyd")
    limited = ann.post("/api/social/challenges", {"to": "dee"})  # ann has sent her two this hour
    assert (limited.status_code, limited.json()["code"]) == (429, "notify.too_many_sent")
    assert received(dee) == [] and bell(dee) == []
    assert sorted(w["to"] for w in ann.news()["waiting"]) == ["bob", "cyd"]


def test_answered_challenges_are_forgotten_after_their_days(social_client: TestClient, database_url: str) -> None:
    ann, bob = Person(social_client, "ann"), Person(social_client, "bob")
    answered, waiting = challenge(ann, "bob"), challenge(bob, "ann")
    bob.ok("post", f"/api/social/challenges/{answered}/decline")

    async def prune(days: float) -> int:
        storage = Storage(database_url, SystemClock())
        pruned = await ChallengeStore(storage).prune(datetime.now(UTC) + timedelta(days=days))
        await storage.close()
        return pruned

    assert asyncio.run(prune(0)) == 0  # answered, but its time has not run out yet
    assert asyncio.run(prune(1)) == 1  # a day later: the answered one goes
    assert [r[0] for r in received(ann)] == [waiting]
    assert [w["id"] for w in bob.news()["waiting"]] == [waiting]  # the waiting one stays

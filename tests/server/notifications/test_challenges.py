"""Challenges through the notifications: a challenge received and its answer are in the bell, pushed to
every device that allowed it and in the e-mail digest, in the receiver's language, each opening the
friends page (where a challenge is answered); and no notice a player causes reaches one who blocks them,
whatever its kind."""

from __future__ import annotations

from typing import Any

from chickenfoot.server.notices import Invited, RematchOffered
from chickenfoot.testing.mail import body

from .conftest import DIGEST_SECONDS, ORIGIN, App, Person
from .test_mail import confirmed
from .test_push import allowed_device


def post(person: Person, path: str, json: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = person.call("POST", path, json=json or {})
    assert answer.status_code in (200, 201), answer.text
    return dict(answer.json())


def bell(person: Person, lang: str = "en") -> list[tuple[str, str, str | None, str | None, str]]:
    """The player's bell, the newest first: each notice's kind, words, detail, table and the page it opens."""
    return [(n["kind"], n["text"], n["detail"], n["table"], n["url"]) for n in person.notices(lang)["notices"]]


def test_a_challenge_reaches_the_bell_every_device_and_the_digest_in_the_receivers_language(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    allowed_device(app, bob, "phone")
    confirmed(app, bob, "bob@example.org")
    bob.call("POST", "/api/notifications/language", json={"language": "lv"})
    made = post(ann, "/api/social/challenges", {"to": "bob", "players": 3, "rated": False})["id"]
    said = ("ann izaicina tevi uz partiju", "3 spēlētāji, bez reitinga")
    assert bell(bob, "lv") == [("challenge", *said, None, "/friends")]
    assert app.send_due() == 1
    [push] = app.push_service.wait_for(1)
    assert push.payload["body"] == "\n".join(said) and push.payload["url"] == "/friends"
    assert push.payload["kind"] == "challenge" and push.payload["tag"] == f"challenge:{made}"
    assert push.headers["urgency"] == "high"
    app.advance(DIGEST_SECONDS)
    app.send_due()
    digest = app.catcher.wait_for(2)[-1]
    assert digest["Content-Language"] == "lv"
    assert f"{said[0]}\n{said[1]}\n  {ORIGIN}/friends\n" in body(digest)


def test_each_answer_reaches_the_challenger(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    ann.call("POST", "/api/notifications/language", json={"language": "fy"})
    declined = post(ann, "/api/social/challenges", {"to": "bob"})["id"]
    post(bob, f"/api/social/challenges/{declined}/decline")
    assert bell(ann, "fy") == [("answer", "bob hat dyn útdaging ôfwiisd", None, None, "/friends")]
    accepted = post(ann, "/api/social/challenges", {"to": "bob"})["id"]
    code = post(bob, f"/api/social/challenges/{accepted}/accept")["code"]
    newest = bell(ann)[0]
    assert newest == ("answer", "bob accepted your challenge", None, code, "/friends")
    assert ann.notices()["unread"] == 2
    post(ann, f"/api/social/challenges/{accepted}/seat")
    post(ann, "/api/notifications/read", {"table": code})  # the table's page opened: its answer is read
    assert ann.notices()["unread"] == 1


def test_no_notice_a_player_causes_reaches_one_who_blocks_them(app: App) -> None:
    ann, bob, cyd = app.sign_up("ann"), app.sign_up("bob"), app.sign_up("cyd")
    allowed_device(app, ann, "phone")
    post(ann, "/api/social/blocks", {"name": "bob"})
    code = app.table()
    app.notify(ann, Invited(code, seat=1, inviter="bob", players=2), sender=bob.id)
    app.notify(ann, RematchOffered(code, by="bob"), sender=bob.id)
    refused = bob.call("POST", "/api/social/challenges", json={"to": "ann"})
    assert refused.status_code == 403 and refused.json()["code"] == "social.not_accepting"
    assert bell(ann) == [] and app.send_due() == 0 and app.push_service.received == []
    app.notify(ann, Invited(code, seat=1, inviter="cyd", players=2), sender=cyd.id)  # anyone else: heard
    assert [line[1] for line in bell(ann)] == [f"cyd invites you to table {code}"] and app.send_due() == 1
    ann.call("DELETE", "/api/social/blocks/bob")
    app.notify(ann, RematchOffered(code, by="bob"), sender=bob.id)  # unblocked: heard again
    assert bell(ann)[0][1] == f"bob offers a rematch at table {code}"

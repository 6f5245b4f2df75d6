"""Web Push: received and decrypted by a push service on this machine, signed by the server's one VAPID key,
sent to every device that allowed it, a device gone dropped, quiet hours respected, in the receiver's language."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from chickenfoot.server.notices import Invited, Kind, MatchOver, YourTurn
from chickenfoot.server.notifications.push import topic

from .conftest import App, Person


def allowed_device(app: App, person: Person, name: str) -> None:
    person.subscribe(app.push_service.device(name).subscription())


def test_a_notice_reaches_every_device_decrypted_signed_and_in_the_receivers_language(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    for device in ("phone", "laptop"):
        allowed_device(app, ann, device)
    ann.call("POST", "/api/notifications/language", json={"language": "lt"})
    code = app.table()
    app.notify(ann, Invited(code, seat=1, inviter="Bob", players=2), sender=bob.id)
    assert app.send_due() == 2
    received = app.push_service.wait_for(2)
    assert sorted(push.device for push in received) == ["laptop", "phone"]
    for push in received:
        assert push.payload["body"] == f"Bob kviečia tave prie stalo {code}"
        assert push.payload["title"] == "Vištos koja" and push.payload["url"] == f"/t/{code}"
        assert push.payload["kind"] == "invited" and push.payload["tag"] == f"invited:{code}:1"
        assert push.headers["topic"] == topic(f"invited:{code}:1") and push.headers["urgency"] == "high"
        assert push.claims["aud"] == app.push_service.origin and push.claims["sub"] == "mailto:noreply@chickenfoot.test"
    signer = {push.headers["authorization"].split("k=")[1] for push in received}
    settings = ann.call("GET", "/api/notifications/settings").json()
    assert signer == {settings["push"]["key"]} and settings["push"]["devices"] == 2
    assert app.send_due() == 0  # each sent once


def test_the_vapid_key_is_made_once_and_kept_for_every_process_and_restart(make_app: Callable[..., App]) -> None:
    first, second = make_app(), make_app()  # two processes on one database
    keys = {app.notifications.push.public_key for app in (first, second) if app.notifications.push is not None}
    assert len(keys) == 1


def test_a_device_the_push_service_says_is_gone_gets_nothing_more(app: App) -> None:
    ann = app.sign_up("ann")
    for device in ("old", "lost", "new"):
        allowed_device(app, ann, device)
    app.push_service.answers |= {"old": 410, "lost": 404}
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.send_due()
    assert sorted(app.push_service.refused) == [("lost", 404), ("old", 410)]
    assert [push.device for push in app.push_service.wait_for(1)] == ["new"]
    assert ann.call("GET", "/api/notifications/settings").json()["push"]["devices"] == 1
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.send_due()
    assert [push.device for push in app.push_service.wait_for(2)] == ["new", "new"]
    assert len(app.push_service.refused) == 2


def test_a_push_service_that_says_try_later_gets_it_again_later_once(app: App) -> None:
    ann = app.sign_up("ann")
    allowed_device(app, ann, "phone")
    app.push_service.answers["phone"] = 503
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.send_due()
    assert app.push_service.refused == [("phone", 503)] and app.send_due() == 0  # not due again yet
    del app.push_service.answers["phone"]
    app.advance(30)
    assert app.send_due() == 1
    assert len(app.push_service.wait_for(1)) == 1 and app.send_due() == 0


def test_an_endpoint_at_no_known_push_service_is_refused(app: App) -> None:
    ann = app.sign_up("ann")
    device = app.push_service.device("phone").subscription()
    for endpoint in ("http://127.0.0.1:6379/", "https://example.org/push", "file:///etc/passwd"):
        refused = ann.call("POST", "/api/notifications/subscriptions", json={**device, "endpoint": endpoint})
        assert refused.status_code == 400 and refused.json()["code"] == "notify.bad_subscription"
    broken = {**device, "keys": {"p256dh": "AAAA", "auth": device["keys"]["auth"]}}
    assert ann.call("POST", "/api/notifications/subscriptions", json=broken).status_code == 400
    assert ann.call("GET", "/api/notifications/settings").json()["push"]["devices"] == 0


def test_a_kind_not_chosen_for_push_is_listed_but_not_pushed(app: App) -> None:
    ann = app.sign_up("ann")
    allowed_device(app, ann, "phone")
    ann.choose(choices={Kind.MATCH_OVER: ["in_app"]}, time_zone="UTC")
    code = app.table()
    app.notify(ann, MatchOver(code, won=True))
    assert app.send_due() == 0 and ann.notices()["unread"] == 1


def test_quiet_hours_hold_a_push_until_they_end_in_the_receivers_time_zone(app: App) -> None:
    ann = app.sign_up("ann")
    allowed_device(app, ann, "phone")
    now = datetime.fromtimestamp(app.clock.now(), UTC)  # 2023-11-14 22:13:20 UTC: 00:13:20 in Vilnius
    assert (now.hour, now.minute, now.second) == (22, 13, 20)
    ann.choose(choices={}, quiet_from=23 * 60, quiet_until=7 * 60, time_zone="Europe/Vilnius")
    app.notify(ann, YourTurn(app.table(), turn=1))
    assert app.send_due() == 0 and ann.notices()["unread"] == 1  # listed at once, not pushed
    app.advance(6 * 3600 + 45 * 60)  # 06:58:20 in Vilnius
    assert app.send_due() == 0
    app.advance(100)  # 07:00:00
    assert app.send_due() == 1 and app.push_service.wait_for(1)


def test_a_push_held_by_quiet_hours_is_not_sent_once_its_notice_was_read(app: App) -> None:
    ann = app.sign_up("ann")
    allowed_device(app, ann, "phone")
    ann.choose(choices={}, quiet_from=0, quiet_until=23 * 60 + 59, time_zone="UTC")
    code = app.table()
    app.notify(ann, YourTurn(code, turn=1))
    ann.call("POST", "/api/notifications/read", json={"table": code})  # seen on another device meanwhile
    app.advance(24 * 3600)
    app.send_due()
    assert app.push_service.received == []


def test_a_later_turn_at_the_same_table_replaces_the_push_still_waiting(app: App) -> None:
    ann = app.sign_up("ann")
    allowed_device(app, ann, "phone")
    ann.choose(choices={}, quiet_from=0, quiet_until=23 * 60 + 59, time_zone="UTC")
    code = app.table()
    for turn in (1, 2, 3):
        app.notify(ann, YourTurn(code, turn=turn))
    app.advance(24 * 3600)
    assert app.send_due() == 1
    assert [push.payload["count"] for push in app.push_service.wait_for(1)] == [3]

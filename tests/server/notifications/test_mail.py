"""E-mail, received by a real SMTP server on this machine (aiosmtpd): an address confirmed by a link first,
digests that count right, one-click unsubscribe (RFC 8058), a mail server down for a while with nothing
lost or sent twice, and a sign-in link to a confirmed address."""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

import sqlalchemy as sa

from chickenfoot.server.notices import ChatLine, Invited, MatchOver, YourTurn
from chickenfoot.server.notifications.schema import notification_outbox
from chickenfoot.testing.mail import body, links

from .conftest import DIGEST_SECONDS, ORIGIN, App, Person


def confirmed(app: App, person: Person, address: str) -> None:
    """``person`` adds ``address`` and opens the link the confirmation e-mail brings."""
    before = len(app.catcher.messages)
    asked = person.call("POST", "/api/notifications/email", json={"address": address})
    assert asked.status_code == 202 and asked.json()["email"]["pending"] == address
    assert app.send_due() == 1
    mail = app.catcher.wait_for(before + 1)[-1]
    assert mail["To"] == address and mail["Subject"] == "Chicken Foot: confirm your e-mail address"
    [link] = links(mail)
    assert link.startswith(f"{ORIGIN}/account#confirm=")
    opened = app.client.post("/api/notifications/email/confirm", json={"link": urlsplit(link).fragment[8:]})
    assert opened.status_code == 200, opened.text
    assert person.call("GET", "/api/notifications/settings").json()["email"] == {
        "address": address,
        "pending": None,
        "available": True,
    }


def test_an_address_gets_nothing_but_its_confirmation_link_until_it_is_opened(app: App) -> None:
    ann = app.sign_up("ann")
    ann.call("POST", "/api/notifications/email", json={"address": "ann@example.org"})
    app.send_due()
    [confirmation] = app.catcher.wait_for(1)
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.advance(DIGEST_SECONDS)
    assert app.send_due() == 0 and len(app.catcher.messages) == 1  # no digest to an address not confirmed
    link = urlsplit(links(confirmation)[0]).fragment.removeprefix("confirm=")
    assert app.client.post("/api/notifications/email/confirm", json={"link": link}).status_code == 200
    spent = app.client.post("/api/notifications/email/confirm", json={"link": link})
    assert spent.status_code == 400 and spent.json()["code"] == "notify.link_used"  # once only
    assert "ann" in body(confirmation) and confirmation["Message-ID"].startswith("<verify-")


def test_a_second_address_asked_for_makes_the_first_ones_link_open_nothing(app: App) -> None:
    ann = app.sign_up("ann")
    for address in ("old@example.org", "new@example.org"):
        ann.call("POST", "/api/notifications/email", json={"address": address})
        app.send_due()
    first, second = app.catcher.wait_for(2)
    for mail, works in ((first, False), (second, True)):
        link = urlsplit(links(mail)[0]).fragment.removeprefix("confirm=")
        assert (app.client.post("/api/notifications/email/confirm", json={"link": link}).status_code == 200) is works
    assert ann.call("GET", "/api/notifications/settings").json()["email"]["address"] == "new@example.org"


def test_addresses_that_could_become_headers_are_refused(app: App) -> None:
    ann = app.sign_up("ann")
    for address in ("ann", "ann@example", "a b@example.org", "ann@example.org\r\nBcc: x@y.org", "<a@b.org>"):
        refused = ann.call("POST", "/api/notifications/email", json={"address": address})
        assert refused.status_code == 400 and refused.json()["code"] == "notify.bad_address", address
    assert app.send_due() == 0


def test_a_digest_says_everything_unread_at_once_and_counts_the_tables_waiting(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    confirmed(app, ann, "ann@example.org")
    tables = [app.table() for _ in range(4)]
    for code in tables[:3]:
        app.notify(ann, YourTurn(code, turn=1))
    app.notify(ann, YourTurn(tables[0], turn=3))  # the same table again: still one table waiting
    app.notify(ann, Invited(tables[3], seat=1, inviter="Bob", players=4), sender=bob.id)
    app.notify(ann, MatchOver(tables[3], won=True))  # not chosen for e-mail by default
    ann.call("POST", "/api/notifications/read", json={"table": tables[2]})  # seen on the site meanwhile
    app.advance(DIGEST_SECONDS - 1)
    assert app.send_due() == 0  # a digest waits for more
    app.advance(1)
    assert app.send_due() == 1
    digest = app.catcher.wait_for(2)[-1]
    text = body(digest)
    assert digest["Subject"] == "Chicken Foot: 3 new notifications"
    assert text.startswith("2 tables wait for you.\n")
    assert f"Your turn at table {tables[0]}\n  {ORIGIN}/t/{tables[0]}" in text
    assert f"Bob invites you to table {tables[3]}" in text and "won the match" not in text
    assert tables[2] not in text
    app.notify(ann, ChatLine(tables[0], by="Bob", number=1))  # chat: not chosen for e-mail
    app.advance(DIGEST_SECONDS)
    assert app.send_due() == 0  # nothing new for e-mail: no second digest


def test_a_digest_is_in_the_receivers_language(app: App) -> None:
    ann = app.sign_up("ann")
    confirmed(app, ann, "ann@example.org")
    ann.call("POST", "/api/notifications/language", json={"language": "fy"})
    for _ in range(2):
        app.notify(ann, YourTurn(app.table(), turn=1))
    app.advance(DIGEST_SECONDS)
    app.send_due()
    digest = app.catcher.wait_for(2)[-1]
    assert digest["Subject"] == "Hinnepoat: 2 nije meldings" and digest["Content-Language"] == "fy"
    assert body(digest).startswith("2 tafels wachtsje op dy.\n")


def test_one_click_unsubscribes_without_a_session_and_stops_the_digests(app: App) -> None:
    ann = app.sign_up("ann")
    confirmed(app, ann, "ann@example.org")
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.advance(DIGEST_SECONDS)
    app.send_due()
    digest = app.catcher.wait_for(2)[-1]
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = digest["List-Unsubscribe"].strip("<>")
    assert one_click.startswith(f"{ORIGIN}/api/notifications/unsubscribe/")
    page = links(digest)[-1]
    assert page.startswith(f"{ORIGIN}/unsubscribe/")
    app.client.cookies.clear()  # the mail provider posts it: no session, no origin
    assert app.client.get(urlsplit(page).path).status_code == 200  # opening the page changes nothing
    assert "email" in ann.call("GET", "/api/notifications/settings").json()["choices"]["your_turn"]
    posted = app.client.post(urlsplit(one_click).path, content="List-Unsubscribe=One-Click")
    assert posted.status_code == 200, posted.text
    choices = ann.call("GET", "/api/notifications/settings").json()["choices"]
    assert not any("email" in channels for channels in choices.values())
    assert choices["your_turn"] == ["in_app", "push"]
    app.notify(ann, YourTurn(app.table(), turn=1))
    app.advance(DIGEST_SECONDS)
    assert app.send_due() == 0 and len(app.catcher.messages) == 2
    forged = urlsplit(one_click).path[:-4] + "AAAA"
    assert app.client.post(forged).status_code == 404


def test_a_mail_server_down_for_a_while_loses_nothing_and_gets_each_message_once(app: App) -> None:
    people = [app.sign_up(name) for name in ("ann", "bob", "cyd")]
    for person in people:
        confirmed(app, person, f"{person.name}@example.org")
    app.catcher.stop()
    for person in people:
        app.notify(person, YourTurn(app.table(), turn=1))
    app.advance(DIGEST_SECONDS)
    assert app.send_due() == 3  # each tried, and failed: the mail server is down
    for wait in (30, 60, 120):  # tried again and again, waiting longer each time
        app.advance(wait - 1)
        assert app.send_due() == 0
        app.advance(1)
        assert app.send_due() == 3
    app.catcher.start()
    app.advance(240)
    assert app.send_due() == 3
    received = app.catcher.wait_for(6)[3:]
    assert sorted(mail["To"] for mail in received) == [f"{p.name}@example.org" for p in people]
    assert all(count == 1 for count in Counter(mail["Message-ID"] for mail in app.catcher.messages).values())
    app.advance(3600)
    assert app.send_due() == 0 and len(app.catcher.messages) == 6  # nothing twice


def test_a_sign_in_link_goes_to_a_confirmed_address_only_and_works_once(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    confirmed(app, ann, "ann@example.org")
    app.client.cookies.clear()
    # One answer for all: nobody learns who has an address (and a name no account can have, a NUL byte
    # in it, asks the database nothing: PostgreSQL would refuse it as a failure of the store).
    for name in ("ann", "bob", "nobody", "an\x00n"):
        asked = app.client.post("/api/account/recover", json={"username": name})
        assert asked.status_code == 202 and asked.json() == {"sent": True}
    assert bob.id and app.send_due() == 1
    mail = app.catcher.wait_for(2)[-1]
    assert mail["To"] == "ann@example.org" and mail["Subject"] == "Chicken Foot: a link to sign in"
    assert "within 30 minutes" in body(mail)
    [link] = links(mail)
    secret = urlsplit(link).fragment.removeprefix("recover=")
    signed_in = app.client.post("/api/account/link", json={"link": secret})
    assert signed_in.status_code == 200 and signed_in.json()["username"] == "ann"
    app.client.cookies.clear()
    assert app.client.post("/api/account/link", json={"link": secret}).json()["code"] == "account.link_used"
    assert secret not in outbox_text(app)  # made when its e-mail was sent, kept nowhere but in it


def outbox_text(app: App) -> str:
    """Every row of the outbox, as text."""

    async def read() -> str:
        async with app.client.app.state.storage.reading() as conn:  # type: ignore[attr-defined]
            return str((await conn.execute(sa.select(notification_outbox))).all())

    return app.run(read)


def test_a_sign_in_link_expires(app: App) -> None:
    ann = app.sign_up("ann")
    confirmed(app, ann, "ann@example.org")
    app.client.cookies.clear()
    app.client.post("/api/account/recover", json={"username": "ann"})
    app.send_due()
    secret = urlsplit(links(app.catcher.wait_for(2)[-1])[0]).fragment.removeprefix("recover=")
    app.advance(30 * 60)
    assert app.client.post("/api/account/link", json={"link": secret}).json()["code"] == "account.link_used"

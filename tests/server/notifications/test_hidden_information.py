"""The hidden-information audit (tests/server/test_hidden_information.py) extended to what leaves the server
by push and e-mail: a whole match of two accounts who chose every notice on every channel, their turns and
chat lines told through the notify port as the match went, a chat line naming a tile, the match's end and a
rematch offered; every push decrypted by the push service and every e-mail received, with its headers, and
every row kept for them, names no tile."""

from __future__ import annotations

import random
from contextlib import ExitStack

import sqlalchemy as sa

from chickenfoot import Match
from chickenfoot.server.notices import ChatLine, Kind, YourTurn
from chickenfoot.server.notifications.schema import notification_outbox, notifications
from chickenfoot.testing.mail import body

from ..conftest import claim_invite, play_out, ready, seat_players
from ..test_hidden_information import TILE, held_tiles
from .conftest import DIGEST_SECONDS, App
from .test_mail import confirmed

EVERYWHERE = {kind.value: ["in_app", "push", "email"] for kind in Kind}


def stored_text(app: App) -> str:
    async def read() -> str:
        async with app.client.app.state.storage.reading() as conn:  # type: ignore[attr-defined]
            rows = [
                *(await conn.execute(sa.select(notifications))),
                *(await conn.execute(sa.select(notification_outbox))),
            ]
            return "\n".join(map(str, rows))

    return app.run(read)


def test_no_push_and_no_email_names_a_tile(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    for person in (ann, bob):
        confirmed(app, person, f"{person.name}@example.org")
        person.subscribe(app.push_service.device(person.name).subscription())
        person.choose(choices=EVERYWHERE, time_zone="UTC")
    created = ann.call(
        "POST",
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot"}], "rounds": 2},
    )
    table = created.json()
    code, accounts = table["code"], {0: ann, 1: bob}
    table["seats"][0]["token"] = table["token"]
    bob.call("GET", "/api/account")
    table["seats"][1]["token"] = claim_invite(app.client, table["seats"][1]["invite"], "Bob")["token"]
    for seat in (0, 1):
        ready(app.client, code, table["seats"][seat]["token"])
    with ExitStack() as stack:
        players = seat_players(app.client, table, stack)
        players[1].send({"type": "chat", "text": "I hold the 9-4 and the 6-6"})
        final = play_out(players, random.Random(11))
        ann_sockets = players[0]
        app.client.post(f"/api/tables/{code}/rematch", json={"token": table["token"]})
    lines = [m for m in ann_sockets.messages if m["type"] == "chat"]
    assert any("9-4" in str(line) for line in lines)  # the tile was said at the table, to the table
    turns = {(m["state"]["to_move"], m["version"]) for m in ann_sockets.messages if m["type"] == "state"}
    for seat, version in sorted(turns, key=lambda turn: turn[1]):
        if seat in accounts:  # as a turn-based table will tell its players through the port
            app.notify(accounts[seat], YourTurn(code, turn=version))
    app.notify(ann, ChatLine(code, by="Bob", number=1))
    app.settle()
    app.advance(DIGEST_SECONDS)
    while app.send_due():
        pass
    assert final["match_over"] is not None
    pushes = app.push_service.received
    mails = app.catcher.messages[2:]  # after the two confirmation links
    assert {push.payload["kind"] for push in pushes} >= {"your_turn", "match_over", "chat", "rematch"}
    assert len(mails) == 2 and all("1 table waits for you." in body(mail) for mail in mails)
    match = Match.from_record(app.client.get(f"/api/tables/{code}/record").json())
    every_tile = set().union(*held_tiles(match, 0), *held_tiles(match, 1), *held_tiles(match, 2))
    assert len(every_tile) > 20  # the ground truth: tiles were held, and hidden, all match long
    texts = [push.raw.decode() for push in pushes] + [f"{mail.as_string()}\n{body(mail)}" for mail in mails]
    for text in [*texts, stored_text(app)]:
        assert not TILE.search(text), TILE.search(text)

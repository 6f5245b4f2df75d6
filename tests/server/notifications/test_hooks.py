"""The events that exist today reach the notify port: a match over (with the rating's change when it was
rated), a rematch offered, a bot account invited; and an invitation storm is refused, per sender and per
receiver."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from chickenfoot.server.botapi.admin import make_bot_account
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.http.limits import AccountLimits

from ..conftest import claim_invite, play_out, ready, seat_players
from .conftest import App, Person

EASY_BOT = {"kind": "bot", "bot": "easy"}


def created(person: Person, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = person.call("POST", "/api/tables", json={"seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    table = dict(answer.json())
    table["seats"][table["seat"]]["token"] = table["token"]
    return table


def test_the_players_of_a_match_hear_that_it_is_over(app: App) -> None:
    ann = app.sign_up("ann")
    table = created(ann, [{"kind": "human", "name": "Ann"}, EASY_BOT], rounds=1)
    with ExitStack() as stack:
        final = play_out(seat_players(app.client, table, stack), random.Random(3))
    app.settle()
    [notice] = ann.notices()["notices"]
    won = final["match_over"]["winners"] == [0]
    code = table["code"]
    assert notice["text"] == (f"You won the match at table {code}" if won else f"The match at table {code} is over")
    assert notice["detail"] is None  # not rated


def test_a_rated_matchs_players_hear_their_ratings_change(app: App) -> None:
    kim = app.sign_up("kim")
    table = created(kim, [{"kind": "human"}, EASY_BOT], rated=True)
    with ExitStack() as stack:
        players = seat_players(app.client, table, stack)
        play_out(players, random.Random(5))
        rating = players[0].until(lambda m: m["type"] == "rating")
    app.run(app.client.app.state.notifications.settle)  # type: ignore[attr-defined]
    (change,) = rating["changes"]
    [notice] = kim.notices()["notices"]
    delta = change["delta"]
    assert notice["detail"] == f"Your rating changed by {'+' if delta > 0 else '−'}{abs(delta)}"


def test_the_other_players_hear_that_a_rematch_is_offered(app: App) -> None:
    ann, bob = app.sign_up("ann"), app.sign_up("bob")
    table = created(ann, [{"kind": "human", "name": "Ann"}, {"kind": "human"}], rounds=1)
    bob.call("GET", "/api/account")  # bob's session is the client's now
    table["seats"][1]["token"] = claim_invite(app.client, table["seats"][1]["invite"], "Bob")["token"]
    for seat in table["seats"]:
        ready(app.client, table["code"], seat["token"])
    with ExitStack() as stack:
        play_out(seat_players(app.client, table, stack), random.Random(1))
        offered = app.client.post(f"/api/tables/{table['code']}/rematch", json={"token": table["token"]})
        assert offered.status_code == 200 and offered.json()["code"] is None  # Bob has not accepted yet
    texts = [notice["text"] for notice in bob.notices()["notices"]]
    assert f"Ann offers a rematch at table {table['code']}" in texts
    assert not [n for n in ann.notices()["notices"] if n["kind"] == "rematch"]  # not to the one who offered


def bot(app: App, database_url: str, name: str) -> Person:
    person = app.sign_up(name)
    assert asyncio.run(make_bot_account(database_url, name, mint=False, clock=SystemClock())) is True
    return person


def token_of(person: Person) -> str:
    minted = person.call("POST", "/api/account/tokens", json={"label": "test"})
    assert minted.status_code == 201, minted.text
    return str(minted.json()["token"])


def test_a_bot_account_invited_to_a_seat_hears_so(app: App, database_url: str) -> None:
    botty = bot(app, database_url, "botty")
    ann = app.sign_up("ann")
    table = created(ann, [{"kind": "human", "name": "Ann"}, {"kind": "human"}], rounds=1)
    invited = app.client.post(
        f"/api/tables/{table['code']}/seats/1/invite", json={"token": table["token"], "bot": "botty"}
    )
    assert invited.status_code == 200, invited.text
    [notice] = botty.notices()["notices"]
    # The inviting account's name, not "Ann" typed at the table (anyone may type any name there).
    assert notice["text"] == f"ann invites you to table {table['code']}"


def test_an_invitation_storm_is_refused_per_sender_and_per_receiver(
    make_app: Callable[..., App], database_url: str
) -> None:
    app = make_app(account_limits=AccountLimits(invitations_sent="3/hour", invitations_received="2/hour"))
    sender, target, other = (bot(app, database_url, name) for name in ("sender", "target", "other"))
    secret = token_of(sender)
    app.advance(1)  # the Bot API trusts a token looked up for a few seconds, counted from a clock past 0

    def invite(name: str) -> Any:
        body = {"opponents": [{"account": name}], "rounds": 1}
        return app.client.post("/api/bot/tables", json=body, headers={"authorization": f"Bearer {secret}"})

    first = invite("target")
    assert first.status_code == 201, first.text
    assert invite("target").status_code == 201
    refused = invite("target")  # the receiver has had enough
    assert refused.status_code == 429 and refused.json()["code"] == "notify.too_many_received"
    assert int(refused.headers["retry-after"]) > 0
    assert invite("other").status_code == 201
    refused = invite("other")  # the sender has sent enough, to anyone
    assert refused.status_code == 429 and refused.json()["code"] == "notify.too_many_sent"
    assert len(target.notices()["notices"]) == 2 and len(other.notices()["notices"]) == 1

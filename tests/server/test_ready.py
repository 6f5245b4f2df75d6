"""A table's life: the ready step before the first deal, a player's grace shown to the others, a turn
clock that stands while its player is away, and spectators counted and told why they watch."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import ExitStack

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.table_config import Timing

from .conftest import INSTANT, Player, claim_invite, create_table, ready, settle

HUMAN = {"kind": "human"}
GRACE = 12.0


def test_the_first_deal_waits_until_every_player_is_ready(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN, {"kind": "bot"}], claim=False)
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        assert ann.until_state(lambda s: True)["ready"] == [False, True, True]  # a bot's seat needs nobody
        bo = claim_invite(client, table["seats"][1]["invite"], "Bo")
        state = ann.until_state(lambda s: s["free_seats"] == [])
        assert state["status"] == "waiting" and state["ready"] == [False, False, True]
        ready(client, code, bo["token"])
        state = ann.until_state(lambda s: s["ready"][1])
        assert state["status"] == "waiting" and state["turn_deadline"] is None  # no clock runs yet
        ready(client, code, table["token"])
        assert ann.until_state(lambda s: s["status"] == "playing")["ready"] == [True, True, True]
    again = client.post(f"/api/tables/{code}/ready", json={"token": bo["token"]})
    assert again.status_code == 409 and again.json()["code"] == "error.ready_started"


def test_only_the_creator_starts_with_bots_and_the_empty_seats_invites_open_nothing(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN, HUMAN], claim=False)
    code = table["code"]
    bo = claim_invite(client, table["seats"][1]["invite"], "Bo")
    refused = client.post(f"/api/tables/{code}/start", json={"token": bo["token"]})
    assert refused.status_code == 403 and refused.json()["code"] == "error.start_creator_only"
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    started = client.post(f"/api/tables/{code}/start", json={"token": table["token"], "bot": "greedy"})
    assert started.status_code == 200, started.text
    summary = client.get(f"/api/tables/{code}").json()
    assert summary["status"] == "playing" and [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]
    assert summary["seats"][2]["bot"] == "greedy"
    claim = table["seats"][2]["invite"].split("?invite=")[1]
    assert client.post(f"/api/tables/{code}/claim", json={"invite": claim}).status_code == 403
    assert client.post(f"/api/tables/{code}/start", json={"token": table["token"]}).status_code == 409


def test_a_table_for_one_person_starts_at_once(client: TestClient) -> None:
    table = create_table(client, [HUMAN, {"kind": "bot"}])
    assert client.get(f"/api/tables/{table['code']}").json()["status"] == "playing"


def test_the_others_see_the_grace_deadline_until_the_player_returns(make_client: Callable[..., TestClient]) -> None:
    clock = FakeClock()
    client = make_client(timing=Timing(0, 0, 0, grace=GRACE, bot_seconds=0.05), clock=clock)
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    code, bo_token = table["code"], table["seats"][1]["token"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        ann.until_state(lambda s: s["status"] == "playing")
        with client.websocket_connect(f"/ws/{code}?token={bo_token}"):
            ann.until_state(lambda s: s["connected"][1])
        left_at = clock.now()
        state = ann.until_state(lambda s: s["grace"][1] is not None)
        assert state["grace"] == [None, left_at + GRACE] and not state["covered"][1]
        with client.websocket_connect(f"/ws/{code}?token={bo_token}"):  # back within the grace
            assert ann.until_state(lambda s: s["connected"][1])["grace"] == [None, None]
        ann.until_state(lambda s: s["grace"][1] is not None)
        client.portal.call(clock.advance, GRACE)  # type: ignore[union-attr]
        state = ann.until_state(lambda s: s["covered"][1])
        assert state["grace"] == [None, None]


class HandedLease:
    """A lease keeper whose lease the test takes away and gives back (as another process would)."""

    def __init__(self) -> None:
        self.hold: object | None = object()


def test_a_seat_left_while_another_process_held_the_lease_is_covered_by_the_next_holder(
    make_client: Callable[..., TestClient],
) -> None:
    clock = FakeClock()
    client = make_client(timing=Timing(0, 0, 0, grace=GRACE, bot_seconds=0.05), clock=clock)
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    code, bo_token = table["code"], table["seats"][1]["token"]
    live = client.app.state.hub.tables[code]  # type: ignore[attr-defined]
    lease = HandedLease()
    live.keeper = lease
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        with client.websocket_connect(f"/ws/{code}?token={bo_token}"):
            ann.until_state(lambda s: s["connected"][1])
            lease.hold = None  # another process holds the lease while Bo leaves: it is not this one's to time
            client.portal.call(live.lease_changed, False)  # type: ignore[union-attr]
        assert ann.until_state(lambda s: not s["connected"][1])["grace"] == [None, None]
        lease.hold = object()  # the lease comes back (its holder stalled or died) before covering Bo
        client.portal.call(live.lease_changed, True)  # type: ignore[union-attr]
        assert ann.until_state(lambda s: s["grace"][1] is not None)["grace"][1] == clock.now() + GRACE
        client.portal.call(clock.advance, GRACE)  # type: ignore[union-attr]
        assert ann.until_state(lambda s: s["covered"][1])["grace"] == [None, None]


def test_the_next_lease_holder_goes_on_with_the_countdown_it_heard(make_client: Callable[..., TestClient]) -> None:
    clock = FakeClock()
    client = make_client(timing=Timing(0, 0, 0, grace=GRACE, bot_seconds=0.05), clock=clock)
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    code = table["code"]
    live = client.app.state.hub.tables[code]  # type: ignore[attr-defined]
    lease = HandedLease()
    lease.hold = None
    live.keeper = lease
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        ann.until_state(lambda s: s["status"] == "playing")
        deadline = clock.now() + GRACE  # the holder, in another process, saw Bo go and says when it covers
        client.portal.call(live.refresh_presence, [], None, {1: deadline})  # type: ignore[union-attr]
        assert ann.until_state(lambda s: s["grace"][1] is not None)["grace"][1] == deadline
        client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
        lease.hold = object()  # that holder stalls: the lease is this process's now
        client.portal.call(live.lease_changed, True)  # type: ignore[union-attr]
        ann.until(lambda m: m["type"] == "state")  # its recount, read before time moves
        assert ann.state["grace"][1] == deadline
        client.portal.call(clock.advance, GRACE - 5)  # type: ignore[union-attr]
        state = ann.until_state(lambda s: s["covered"][1])
        assert state["grace"] == [None, None] and clock.now() == deadline


def test_a_turn_clock_stands_while_its_player_is_away(make_client: Callable[..., TestClient]) -> None:
    clock = FakeClock()
    client = make_client(timing=Timing(0, 0, 0, grace=GRACE, bot_seconds=0.05), clock=clock)
    table = create_table(client, [HUMAN, HUMAN], turn_timer=30)
    code, tokens = table["code"], [seat["token"] for seat in table["seats"]]
    sockets = {seat: ExitStack() for seat in (0, 1)}
    players = {
        s: Player(sockets[s].enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[s]}"))) for s in (0, 1)
    }
    settle(players)
    state = players[0].until_state(lambda s: all(s["connected"]))
    mover, deadline = state["to_move"], state["turn_deadline"]
    other = players[1 - mover]
    assert deadline is not None
    client.portal.call(clock.advance, 5)  # type: ignore[union-attr]
    sockets[mover].close()  # the mover's page closes: the clock stands, the grace runs instead
    state = other.until_state(lambda s: not s["connected"][mover])
    assert state["turn_deadline"] is None and state["grace"][mover] == clock.now() + GRACE
    client.portal.call(clock.advance, 8)  # type: ignore[union-attr]  # away 8 s, within the grace
    client.portal.call(asyncio.sleep, 0)  # type: ignore[union-attr]
    with client.websocket_connect(f"/ws/{code}?token={tokens[mover]}"):
        back = other.until_state(lambda s: s["connected"][mover])
        assert back["turn_deadline"] == deadline + 8 and back["grace"][mover] is None  # the time away is not counted
        assert back["to_move"] == mover and not back["covered"][mover]
    sockets[1 - mover].close()


def test_spectators_are_counted_and_told_why_they_watch(make_client: Callable[..., TestClient]) -> None:
    client = make_client(timing=INSTANT)
    table = create_table(client, [HUMAN, {"kind": "bot"}])
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        assert ann.until_state(lambda s: True)["spectators"] == 0
        with client.websocket_connect(f"/ws/{code}") as watching:
            watcher = Player(watching)
            assert watcher.until(lambda m: m["type"] == "state")["state"]["watching"] == {"reason": "no_seat"}
            assert ann.until_state(lambda s: s["spectators"] == 1)["spectators"] == 1
        assert ann.until_state(lambda s: s["spectators"] == 0)["spectators"] == 0
        assert not any("watching" in m["state"] for m in ann.messages if m["type"] == "state")  # a player is not


def test_each_device_of_a_seat_is_told_how_many_have_it_open(make_client: Callable[..., TestClient]) -> None:
    client = make_client(timing=INSTANT)
    table = create_table(client, [HUMAN, {"kind": "bot"}])
    seat = f"/ws/{table['code']}?token={table['token']}"
    with client.websocket_connect(seat) as ws:
        laptop = Player(ws)
        assert laptop.until_state(lambda s: True)["devices"] == 1
        with client.websocket_connect(seat) as other:
            phone = Player(other)
            assert phone.until_state(lambda s: True)["devices"] == 2
            assert laptop.until_state(lambda s: s["devices"] == 2)["connected"][0]
        # The phone closed: the laptop is told it holds the seat alone, and the seat stays connected.
        alone = laptop.until_state(lambda s: s["devices"] == 1)
        assert alone["connected"][0] and not alone["covered"][0]
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        assert "devices" not in Player(ws).until_state(lambda s: True)  # a spectator holds no seat

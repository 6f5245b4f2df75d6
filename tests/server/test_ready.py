"""A table's life: the ready step before the first deal, a player's grace shown to the others, a turn
clock that stands while its player is away, and spectators counted and told why they watch."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import ExitStack

from fastapi.testclient import TestClient

from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus, Message
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.commands import Attach, Close, Detach, LeaseChanged, Recount, Wake
from chickenfoot.server.table.config import Seat, TableConfig, Timing
from chickenfoot.server.table.ports import Alone
from chickenfoot.server.table.protocol import LogSent
from chickenfoot.server.table.registry import new_code

from .conftest import INSTANT, Player, State, claim_invite, create_table, ready, settle

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


class HandedLease(Alone):
    """The peers of a table whose lease the test takes away and gives back (as another process
    would), with nobody to tell."""

    def __init__(self, driving: bool) -> None:
        self.driving = driving


class Page:
    """A player's open page: what it is sent is read back from the table's texts when asked."""

    def attached(self, first: str, log_sent: LogSent) -> None:
        pass

    def on_change(self, message: Message) -> None:
        pass


def shown(table: Table, seat: int = 0) -> State:
    """The state a page of ``seat`` is sent now."""
    text, _ = table.state_text(seat, [])
    state: State = json.loads(text)["state"]
    return state


async def two_players(database_url: str, clock: FakeClock, lease: HandedLease) -> tuple[Storage, Table]:
    """A table in play for Ann and Bo (their seats taken, both ready), Ann's page open."""
    storage = Storage(database_url, clock)
    await storage.migrate()
    config = TableConfig(Rules(), [Seat("human", "Ann", taken=True), Seat("human", "Bo", taken=True)], seed=1)
    code = new_code()
    assert await storage.create_table(code, config.to_json())
    timing = Timing(0, 0, 0, grace=GRACE, bot_seconds=0.05)
    table = Table.restore(code, config, [], Services(storage, LocalBus(), timing, LocalConnections(), clock), lease)
    await table.submit(Attach(0, Page()))
    return storage, table


def test_a_seat_left_while_another_process_held_the_lease_is_covered_by_the_next_holder(database_url: str) -> None:
    async def scenario() -> None:
        clock, lease = FakeClock(), HandedLease(driving=True)
        storage, table = await two_players(database_url, clock, lease)
        await table.submit(Attach(1, Page()))
        await table.submit(Wake())  # its arrival announced
        assert shown(table)["connected"][1]
        lease.driving = False  # another process holds the lease while Bo leaves: it is not this one's to time
        await table.submit(LeaseChanged(False))
        await table.submit(Detach(1))
        state = shown(table)
        assert not state["connected"][1] and state["grace"] == [None, None]
        lease.driving = True  # the lease comes back (its holder stalled or died) before covering Bo
        await table.submit(LeaseChanged(True))
        assert shown(table)["grace"][1] == clock.now() + GRACE
        clock.advance(GRACE)
        await table.submit(Wake())  # after the cover the grace's end asked for
        state = shown(table)
        assert state["covered"][1] and state["grace"] == [None, None]
        await table.submit(Close())
        await storage.close()

    asyncio.run(scenario())


def test_the_next_lease_holder_goes_on_with_the_countdown_it_heard(database_url: str) -> None:
    async def scenario() -> None:
        clock, lease = FakeClock(), HandedLease(driving=False)
        storage, table = await two_players(database_url, clock, lease)
        assert shown(table)["status"] == "playing"
        deadline = clock.now() + GRACE  # the holder, in another process, saw Bo go and says when it covers
        await table.submit(Recount([], None, {1: deadline}))
        assert shown(table)["grace"][1] == deadline
        clock.advance(5)
        lease.driving = True  # that holder stalls: the lease is this process's now
        await table.submit(LeaseChanged(True))
        assert shown(table)["grace"][1] == deadline
        clock.advance(GRACE - 5)
        await table.submit(Wake())  # after the cover the grace's end asked for
        state = shown(table)
        assert state["covered"][1] and state["grace"] == [None, None] and clock.now() == deadline
        await table.submit(Close())
        await storage.close()

    asyncio.run(scenario())


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

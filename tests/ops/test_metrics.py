"""Prometheus metrics: what a scrape shows, where it is served, and that no label comes from a player."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import WebSocketTestSession

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.ops.metrics import LAG_SECONDS, SAMPLE_SECONDS, Metrics, Readings
from server.conftest import create_table, play_out, seat_players

METRICS = "http://testserver:9100/metrics"
"""The metrics port of the apps below (the test client's requests name their port)."""

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> tuple[str, Samples]:
    answer = client.get(METRICS)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }
    return answer.text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample ``name`` whose labels include ``labels`` (the ``process`` label is every sample's)."""
    found = [v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls)]
    assert len(found) == 1, (name, labels, found)
    return found[0]


def metered(make_client: Callable[..., TestClient], **settings: object) -> TestClient:
    return make_client(metrics_port=9100, **settings)


def test_every_sample_names_its_process_and_the_metrics_port_serves_nothing_else(
    make_client: Callable[..., TestClient],
) -> None:
    client = metered(make_client)
    _, samples = scrape(client)
    processes = {dict(labels)["process"] for _, labels in samples}
    assert len(processes) == 1 and all(":" in process for process in processes)
    assert value(samples, "chickenfoot_storage_up") == 1
    assert value(samples, "chickenfoot_worker_queue", worker="hints") == 0
    assert value(samples, "chickenfoot_metrics_scrape_cpu_seconds_count") == 0
    assert value(scrape(client)[1], "chickenfoot_metrics_scrape_cpu_seconds_count") == 1  # the scrape before
    assert client.get("http://testserver:9100/api/presets").status_code == 404
    assert client.get("/metrics").status_code == 404  # not on the players' port
    assert "chickenfoot_" not in client.get("/metrics").text


def next_reply(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message that is no state (the table tells of a socket's arrival in a state of its own,
    in its turn, so that state may come before or after the replies)."""
    while (message := ws.receive_json())["type"] == "state":
        pass
    return dict(message)


def test_a_table_and_its_sockets_are_counted_and_no_label_names_a_table(
    make_client: Callable[..., TestClient],
) -> None:
    client = metered(make_client)
    table = create_table(client, [{"kind": "human"}, {"kind": "bot"}])
    code = table["code"]
    assert client.get(f"/api/tables/{code}").status_code == 200
    assert client.get("/api/tables/NOSUCH").status_code == 404
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "ping"})
        ws.send_text("{not json")
        ws.send_json({"type": "pong"})
        assert next_reply(ws)["type"] == "pong"
        assert next_reply(ws)["type"] == next_reply(ws)["type"] == "error"
        text, samples = scrape(client)
        assert value(samples, "chickenfoot_sockets") == 1
        assert value(samples, "chickenfoot_tables_in_memory") == 1
    route = "/api/tables/{code}"
    assert value(samples, "chickenfoot_http_request_seconds_count", route=route, method="GET") == 2
    assert value(samples, "chickenfoot_http_responses_total", route=route, status="2xx") == 1
    assert value(samples, "chickenfoot_http_responses_total", route=route, status="4xx") == 1
    assert value(samples, "chickenfoot_ws_message_seconds_count", kind="ping") == 1
    assert value(samples, "chickenfoot_ws_message_seconds_count", kind="other") == 2
    assert code not in text and "NOSUCH" not in text
    assert value(scrape(client)[1], "chickenfoot_sockets") == 0


def test_a_match_played_counts_its_actions_commits_and_bots(make_client: Callable[..., TestClient]) -> None:
    client = metered(make_client)
    table = create_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], rounds=1)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        play_out(players, random.Random(7))
    record = client.get(f"/api/tables/{table['code']}/record").json()
    actions = sum(len(r["moves"]) for r in record["rounds"])
    _, samples = scrape(client)
    assert value(samples, "chickenfoot_actions_stored_total") == actions
    assert 1 <= value(samples, "chickenfoot_storage_commit_seconds_count") <= actions
    assert value(samples, "chickenfoot_bot_think_seconds_count", level="easy") >= 1


def test_rate_limit_refusals_and_sign_ins_are_counted_by_kind(make_client: Callable[..., TestClient]) -> None:
    limits = AddressLimits("10000/second", "1/minute", cutoff=None, chat="10000/second")
    client = metered(make_client, addresses=limits)
    seats = [{"kind": "human"}, {"kind": "bot"}]
    assert [client.post("/api/tables", json={"seats": seats}).status_code for _ in range(3)] == [201, 429, 429]
    name, password = f"op{secrets.token_hex(4)}", "tile hub toe chicken"
    assert client.post("/api/account/signup", json={"username": name, "password": password}).status_code == 201
    assert client.post("/api/account/signin", json={"username": name, "password": password}).status_code == 200
    assert client.post("/api/account/signin", json={"username": name, "password": "wrong one"}).status_code == 401
    _, samples = scrape(client)
    assert value(samples, "chickenfoot_rate_limit_refusals_total", limit="address", kind="table") == 2
    assert value(samples, "chickenfoot_sign_ins_total", method="password", outcome="ok") == 1
    assert value(samples, "chickenfoot_sign_ins_total", method="password", outcome="failed") == 1


def test_quick_play_waiting_is_read_from_the_shared_queue(make_client: Callable[..., TestClient]) -> None:
    clock = FakeClock()
    client = metered(make_client, clock=clock)
    before = value(scrape(client)[1], "chickenfoot_quick_play_waiting")
    assert client.post("/api/quickplay", json={"players": 4, "bots_after": None}).status_code == 201
    assert value(scrape(client)[1], "chickenfoot_quick_play_waiting") == before  # read at most once a second
    clock.advance(SAMPLE_SECONDS)
    assert value(scrape(client)[1], "chickenfoot_quick_play_waiting") == before + 1


def readings(**overrides: object) -> Readings:
    async def nobody() -> int:
        return 0

    parts: dict[str, object] = {
        "tables": lambda: 0,
        "queues": lambda: {},
        "refusals": lambda: {},
        "storage_up": lambda: True,
        "quick_play_waiting": nobody,
    }
    return Readings(**(parts | overrides))  # type: ignore[arg-type]


def samples_of(metrics: Metrics) -> Mapping[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = asyncio.run(metrics.scrape()).decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_the_readings_are_read_at_each_scrape() -> None:
    queues = {"hints": 3, "replays": 1, "reviews": 7}
    refused = {("address", "chat"): 4, ("token", "move"): 2}
    metrics = Metrics(readings(tables=lambda: 12, queues=lambda: queues, refusals=lambda: refused), process="p:1")
    samples = samples_of(metrics)
    assert value(dict(samples), "chickenfoot_tables_in_memory", process="p:1") == 12
    for worker, length in queues.items():
        assert value(dict(samples), "chickenfoot_worker_queue", worker=worker) == length
    assert value(dict(samples), "chickenfoot_rate_limit_refusals_total", limit="token", kind="move") == 2
    queues["hints"] = 0
    assert value(dict(samples_of(metrics)), "chickenfoot_worker_queue", worker="hints") == 0


def test_the_event_loops_lag_is_how_late_a_sleep_woke() -> None:
    clock = FakeClock()
    metrics = Metrics(readings(), clock, process="p:1")

    async def run() -> None:
        metrics.start()
        await asyncio.sleep(0)  # the sampler goes to sleep
        clock.advance(LAG_SECONDS + 0.3)  # it wakes 0.3 s late
        await asyncio.sleep(0)
        await metrics.stop()

    asyncio.run(run())
    samples = dict(samples_of(metrics))
    assert value(samples, "chickenfoot_event_loop_lag_seconds_count") == 1
    assert abs(value(samples, "chickenfoot_event_loop_lag_seconds_sum") - 0.3) < 1e-9
    assert value(samples, "chickenfoot_event_loop_lag_seconds_bucket", le="0.25") == 0
    assert value(samples, "chickenfoot_event_loop_lag_seconds_bucket", le="0.5") == 1

"""Prometheus metrics of one server process, served on a port of their own (``--metrics-port``).

Why a port of its own rather than a token on the public one: the players' port is the one nginx
publishes, and the metrics port is not published at all, so there is no secret to hand out, rotate
or leak in a scrape configuration, and a scrape never meets the players' rate limits or ``Host``
check. It listens on ``--metrics-host`` (loopback unless told otherwise) and answers ``GET /metrics``
and nothing else (404).

Every series carries the label ``process`` (this process: its host name and process id), and no
label ever takes a value from a player: routes are their templates (``/api/tables/{code}``), message
kinds and bot levels come from fixed lists, so the number of series is bounded whatever clients
send. What the server holds (tables, sockets, queues, refusals so far) is read when a scrape comes
(:class:`Readings`, each a narrow port of the server); how long things took is observed as it
happens, by the middleware (:class:`Instrumented`) and the events of :mod:`.events`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import orjson
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chickenfoot.server.clock import SYSTEM_CLOCK, Clock
from chickenfoot.server.ops import events
from chickenfoot.server.table.protocol import MAX_FRAME_BYTES

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
LAG_SECONDS = 0.5
"""The event loop's lag is sampled this often: a sleep of this long that ended late, by how much."""
SAMPLE_SECONDS = 1.0
"""What needs a query (quick play's queue) is read at most this often, however often scrapes come."""
MESSAGE_KINDS = frozenset({"move", "hint", "next_round", "name", "ping", "chat", "react"})
"""The client messages of docs/protocol.md; any other (or an unreadable one) counts as ``other``."""
SIGN_INS = {
    "/api/account/signin": "password",
    "/api/account/passkeys/signin/finish": "passkey",
    "/api/account/link": "link",
}
"""The routes that sign a person in, and how."""


def process_label() -> str:
    """This process among the others: its host (a container's id) and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True, slots=True)
class Readings:
    """What a scrape reads from the server: each a narrow port, called on the event loop."""

    tables: Callable[[], int]
    """Tables held in memory by this process."""
    queues: Callable[[], Mapping[str, int]]
    """Work waiting for (or in) the worker processes, by worker (``hints``, ``replays``, ``reviews``)."""
    refusals: Callable[[], Mapping[tuple[str, str], int]]
    """Requests refused by a rate limit so far, by what the limit counts per (``address``, ``name``, ``token``,
    ``account``) and the kind of request (or ``cutoff``, ``paused``); and by a cap on what is open at
    once (``open``, and the cap: ``table``, ``seat``, ``account``, ``address``, ``token_streams``,
    ``account_streams``)."""
    storage_up: Callable[[], bool]
    """The game store answers (as the server last found)."""
    quick_play_waiting: Callable[[], Awaitable[int]]
    """Players waiting in quick play's queue (all processes: it is in the database)."""


class Metrics:
    """One process's metrics: a registry of its own, so several applications in one process (tests) stay apart."""

    def __init__(self, readings: Readings, clock: Clock = SYSTEM_CLOCK, process: str | None = None) -> None:
        self.readings, self.clock = readings, clock
        self.process = process or process_label()
        disable_created_metrics()  # type: ignore[no-untyped-call]  # a counter's start time: a series more each, which nobody reads
        inner = CollectorRegistry(auto_describe=True)
        self.http = Histogram(
            "chickenfoot_http_request_seconds",
            "Time from a request's arrival to its answer's start, by route and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=inner,
        )
        self.responses = Counter(
            "chickenfoot_http_responses", "Answers by route and status class.", ["route", "status"], registry=inner
        )
        self.messages = Histogram(
            "chickenfoot_ws_message_seconds",
            "Time a table socket's message took to handle, by kind.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=inner,
        )
        self.loop_lag = Histogram(
            "chickenfoot_event_loop_lag_seconds",
            f"How late a {LAG_SECONDS:g} s sleep on the event loop woke.",
            buckets=LATENCY_BUCKETS,
            registry=inner,
        )
        self.bot_think = Histogram(
            "chickenfoot_bot_think_seconds",
            "Time a bot took to choose a move, by level.",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=inner,
        )
        self.commits = Histogram(
            "chickenfoot_storage_commit_seconds",
            "Time to commit a batch of actions (a move waits for its batch).",
            buckets=LATENCY_BUCKETS,
            registry=inner,
        )
        self.actions = Counter(
            "chickenfoot_actions_stored",
            "Actions stored by this process: moves, draws, passes and new rounds (moves a second: its rate).",
            registry=inner,
        )
        self.sign_ins = Counter(
            "chickenfoot_sign_ins", "Sign-in attempts by method and outcome.", ["method", "outcome"], registry=inner
        )
        self.scrape_cpu = Histogram(
            "chickenfoot_metrics_scrape_cpu_seconds",
            "CPU time of the event loop's thread to write one scrape (counted from the next scrape on).",
            buckets=LATENCY_BUCKETS,
            registry=inner,
        )
        self.sockets = 0
        """Table WebSockets open in this process (counted by :class:`Instrumented`)."""
        self.quick_play_waiting = 0
        self._sampled: float | None = None
        self._sampling: asyncio.Task[None] | None = None
        inner.register(_Readings(self))
        inner.register(ProcessCollector(registry=None))
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Labelled(inner, self.process))
        self._stop_listening: Callable[[], None] | None = None
        self._lag: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen to the events and sample the event loop's lag (once the loop runs)."""
        self._stop_listening = events.listen(self)
        self._lag = asyncio.create_task(self._sample_lag())

    async def stop(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
        for task in (self._lag, self._sampling):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def scrape(self) -> bytes:
        """The text exposition format of every metric, after reading what needs reading."""
        now = self.clock.monotonic()
        if self._sampled is None or now - self._sampled >= SAMPLE_SECONDS:
            self._sampled = now
            if self._sampling is None or self._sampling.done():
                self._sampling = asyncio.ensure_future(self._sample())
            with contextlib.suppress(TimeoutError):  # the last value stands
                await asyncio.wait_for(asyncio.shield(self._sampling), SAMPLE_SECONDS)
        started = time.thread_time()  # the loop's own CPU: what a scrape takes from the players
        text = generate_latest(self.registry)
        self.scrape_cpu.observe(time.thread_time() - started)
        return text

    async def _sample(self) -> None:
        with contextlib.suppress(Exception):  # the game store down: its own gauge says so
            self.quick_play_waiting = await self.readings.quick_play_waiting()

    async def _sample_lag(self) -> None:
        while True:
            started = self.clock.monotonic()
            await self.clock.sleep(LAG_SECONDS)
            self.loop_lag.observe(max(0.0, self.clock.monotonic() - started - LAG_SECONDS))

    # events.Listener

    def bot_thought(self, level: str, seconds: float) -> None:
        self.bot_think.labels(level).observe(seconds)

    def actions_stored(self, count: int, seconds: float) -> None:
        self.actions.inc(count)
        self.commits.observe(seconds)

    # observed by the middleware

    def answered(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        template = getattr(route, "path", None) or "other"  # static files, and paths nothing answers
        self.http.labels(template, scope["method"]).observe(seconds)
        self.responses.labels(template, f"{status // 100}xx").inc()
        if (method := SIGN_INS.get(template)) is not None and scope["method"] == "POST":
            outcome = "ok" if status < 300 else "refused" if status == 429 else "failed" if status < 500 else "error"
            self.sign_ins.labels(method, outcome).inc()


class _Readings(Collector):
    """The gauges and counters read from the server at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        readings = self.metrics.readings
        yield GaugeMetricFamily("chickenfoot_tables_in_memory", "Tables held in memory.", value=readings.tables())
        yield GaugeMetricFamily("chickenfoot_sockets", "Table WebSockets open.", value=self.metrics.sockets)
        queues = GaugeMetricFamily(
            "chickenfoot_worker_queue", "Jobs waiting for or in a worker process.", labels=["worker"]
        )
        for worker, length in sorted(readings.queues().items()):
            queues.add_metric([worker], length)
        yield queues
        refusals = CounterMetricFamily(
            "chickenfoot_rate_limit_refusals", "Requests refused by a rate limit.", labels=["limit", "kind"]
        )
        for (limit, kind), count in sorted(readings.refusals().items()):
            refusals.add_metric([limit, kind], count)
        yield refusals
        yield GaugeMetricFamily(
            "chickenfoot_quick_play_waiting",
            "Players waiting in quick play's queue (every process's).",
            value=self.metrics.quick_play_waiting,
        )
        yield GaugeMetricFamily(
            "chickenfoot_storage_up", "1 while the game store answers.", value=float(readings.storage_up())
        )


class _Labelled(Collector):
    """Every sample of ``inner`` with the label ``process`` added."""

    def __init__(self, inner: CollectorRegistry, process: str) -> None:
        self.inner, self.process = inner, process

    def collect(self) -> Iterator[Metric]:
        for family in self.inner.collect():
            labelled = Metric(family.name, family.documentation, family.type, family.unit)
            labelled.samples = [
                sample._replace(labels={"process": self.process, **sample.labels}) for sample in family.samples
            ]
            yield labelled


def message_kind(data: str | bytes | None) -> str:
    """The kind of a client message, from a fixed list (``other`` for any other, or an unreadable one).

    >>> message_kind('{"type": "move", "move": "9-9", "version": 0}'), message_kind("[1]"), message_kind(None)
    ('move', 'other', 'other')
    """
    if data is None or len(data) > MAX_FRAME_BYTES:
        return "other"
    try:
        message = orjson.loads(data)
    except orjson.JSONDecodeError:
        return "other"
    kind = message.get("type") if isinstance(message, dict) else None
    return kind if kind in MESSAGE_KINDS else "other"


class Instrumented:
    """ASGI middleware: serves ``GET /metrics`` on the metrics port (and nothing else there), and
    times everything on the others: each HTTP answer to its start, each table socket's message from
    its arrival until the server reads the socket's next one (its handling: the connection reads again
    once the table answered the message's command, its wait in the mailbox included), and the sockets
    open."""

    def __init__(self, app: ASGIApp, metrics: Metrics, metrics_port: int) -> None:
        self.app, self.metrics, self.metrics_port = app, metrics, metrics_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server")
        if scope["type"] in ("http", "websocket") and server is not None and server[1] == self.metrics_port:
            await self._metrics_port(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _metrics_port(self, scope: Scope, _receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        found = scope["path"] == "/metrics" and scope["method"] == "GET"
        body = await self.metrics.scrape() if found else b"not found\n"
        content_type = CONTENT_TYPE_LATEST if found else "text/plain; charset=utf-8"
        headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200 if found else 404, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        clock = self.clock
        started = clock.monotonic()
        status: int | None = None

        async def timed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start" and status is None:
                status = int(message["status"])
                self.metrics.answered(scope, status, clock.monotonic() - started)
            await send(message)

        try:
            await self.app(scope, receive, timed)
        finally:
            if status is None:  # failed before answering: the server's error answer comes from outside
                self.metrics.answered(scope, 500, clock.monotonic() - started)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        metrics, clock = self.metrics, self.clock
        pending: tuple[str, float] | None = None
        accepted = False

        async def received() -> Message:
            nonlocal pending
            if pending is not None:  # the server is back for more: the last message is handled
                kind, arrived = pending
                metrics.messages.labels(kind).observe(clock.monotonic() - arrived)
                pending = None
            message = await receive()
            if message["type"] == "websocket.receive":
                pending = (message_kind(message.get("text") or message.get("bytes")), clock.monotonic())
            return message

        async def sent(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                metrics.sockets += 1
            await send(message)

        try:
            await self.app(scope, received, sent)
        finally:
            if accepted:
                metrics.sockets -= 1

    @property
    def clock(self) -> Clock:
        return self.metrics.clock

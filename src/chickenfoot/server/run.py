"""Start the server process (``chickenfoot serve``)."""

from __future__ import annotations

import dataclasses
import errno
import ipaddress
import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path

import uvicorn
from sqlalchemy.engine import make_url

from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.server import collector
from chickenfoot.server.accounts.service import AccountSettings
from chickenfoot.server.app import Settings, create_app
from chickenfoot.server.http.caps import OpenCaps
from chickenfoot.server.http.connections import ConnectionCaps, guarded_h11
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.http.security import checked_origin, checked_proxy, redact_logs
from chickenfoot.server.log_limits import limit_client_caused
from chickenfoot.server.notifications.service import NotificationSettings
from chickenfoot.server.ops import logs
from chickenfoot.server.quickplay import QuickPlaySettings
from chickenfoot.server.storage import default_database_url
from chickenfoot.server.table.config import Timing
from chickenfoot.server.table.registry import Expiry

SHUTDOWN_SECONDS = 10
"""How long a stopping server waits for its open connections to finish before it cuts them."""
HEAD_BYTES = 16 << 10
"""A request line and headers longer than this get 400 before they are read further."""
LOG_LEVELS = ("debug", "info", "warning", "error")
WEAK_PASSWORDS = frozenset({"", "chickenfoot", "change-me", "changeme", "postgres", "password", "secret"})
"""Database passwords refused for a database on another machine: empty, or ones an example or an image
uses by default (anyone who reads the example knows them)."""


def checked_log_level(name: str) -> int:
    """The :mod:`logging` level called ``name``; raises ``ValueError`` in one line for any other name.

    >>> checked_log_level("INFO") == logging.INFO
    True
    """
    if name.lower() not in LOG_LEVELS:
        raise ValueError(f"unknown log level {name!r}: use {', '.join(LOG_LEVELS)}")
    return int(getattr(logging, name.upper()))


def check_writable(url: str) -> None:
    """Raises ``ValueError`` in one line when ``url`` is an SQLite file this process cannot create or write
    (a container's data directory mounted read-only or owned by another user), before anything starts."""
    database = make_url(url)
    if database.get_backend_name() != "sqlite" or database.database in (None, "", ":memory:"):
        return
    path = Path(database.database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a"):
            pass
        if not os.access(path.parent, os.W_OK):  # SQLite writes its journal next to the file
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    except OSError as exc:
        raise ValueError(f"cannot write the games file {path}: {exc.strerror or exc}") from None


def check_database_password(url: str) -> None:
    """Raises ``ValueError`` in one line when ``url`` reaches a database on another machine with an empty
    password or a well-known one (:data:`WEAK_PASSWORDS`). A URL with no password at all (peer or
    certificate authentication, a ``.pgpass`` file) and a database on this machine are left alone.

    >>> check_database_password("postgresql+asyncpg://chickenfoot:chickenfoot@127.0.0.1/chickenfoot")
    >>> check_database_password("postgresql+asyncpg://chickenfoot@db/chickenfoot")
    >>> check_database_password("postgresql+asyncpg://chickenfoot:change-me@db/chickenfoot")
    Traceback (most recent call last):
    ValueError: the database password for db is a well-known default: set a password of your own
    """
    database = make_url(url)
    if database.password is None or database.host in (None, "", "localhost") or database.host.startswith("/"):
        return
    try:
        if ipaddress.ip_address(database.host).is_loopback:
            return
    except ValueError:
        pass  # a name, not an address: another machine
    if str(database.password).lower() in WEAK_PASSWORDS:
        said = "is empty" if database.password == "" else "is a well-known default"
        raise ValueError(f"the database password for {database.host} {said}: set a password of your own")


def bound(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for uvicorn to listen on; raises ``ValueError`` in one line when it
    cannot be had."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen()  # now: a second socket on the same address fails here, not later
    except OSError as exc:
        sock.close()
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def run(
    host: str,
    port: int,
    database_url: str | None,
    pace: float = 1.0,
    *,
    redis_url: str | None = None,
    allowed_origins: Sequence[str] = (),
    allowed_hosts: Sequence[str] = (),
    forwarded_allow_ips: Sequence[str] = (),
    debug: bool = False,
    access_log: bool = False,
    log_level: str = "warning",
    log_format: str = "text",
    metrics_port: int | None = None,
    metrics_host: str = "127.0.0.1",
    review_budget: int = DEFAULT_BUDGET,
    addresses: AddressLimits | None = None,
    connections: ConnectionCaps | None = None,
    open_caps: OpenCaps | None = None,
    expiry: Expiry | None = None,
    gc_log: Path | None = None,
    accounts: AccountSettings | None = None,
    quick_play: QuickPlaySettings | None = None,
    notifications: NotificationSettings | None = None,
    chat_words: Sequence[str] = (),
) -> None:
    """Serve until interrupted; ``pace`` scales the automatic pauses (0: bots and forced moves at once).

    ``redis_url``: the Redis shared with the other processes serving the same database (none: this process is alone);
    ``allowed_origins``: pages of these origins may open tables besides the server's own;
    ``allowed_hosts``: the names (``Host``) the server answers for, others get 400 (none given: ``host``
    and ``localhost``);
    ``forwarded_allow_ips``: the proxies (addresses or networks) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed, the client being the right-most address none of them is (none: no proxy);
    ``debug``: the API documentation at ``/docs``; ``access_log``: a line per request (secrets redacted);
    ``log_level``: the least severe lines logged (``debug``, ``info``, ``warning``, ``error``);
    ``log_format``: ``text``, or ``json`` (a JSON object a line, server/ops/logs.py);
    ``metrics_port``: also listen on ``metrics_host:metrics_port``, answering ``GET /metrics`` alone there;
    ``review_budget``: sampled deals per move of the reviews of finished matches;
    ``connections``: the time a request's head may take, the connections one address may hold open;
    ``open_caps``: the table WebSockets and Bot API streams that may be open at once (server/http/caps.py);
    ``gc_log``: a file to which each garbage collection's pause is appended (:mod:`.collector`);
    ``accounts``: session cookies and the passkeys' relying party;
    ``quick_play``: quick play's queue (its bounds);
    ``notifications``: the mail server, the push services, the digests' wait and the outbox's lease;
    ``chat_words``: the operator's own words for the chat filter (server/moderation/words.py).

    Raises ``ValueError`` in one line for a limit of ``addresses`` that is not in the ``limits``
    notation (``60/minute``), an unknown log level, an origin that is not ``scheme://host[:port]``, a
    proxy that is not an address or network, or e-mail without the public origin its links need.
    """
    level = checked_log_level(log_level)
    log_style = logs.checked_log_format(log_format)
    origins = tuple(checked_origin(origin) for origin in allowed_origins)
    proxies = [checked_proxy(proxy) for proxy in forwarded_allow_ips]
    hosts = tuple(allowed_hosts) or (host, "localhost")
    base = Timing()
    timing = dataclasses.replace(
        base,
        bot_delay=base.bot_delay * pace,
        forced_delay=base.forced_delay * pace,
        next_round_delay=base.next_round_delay * pace,
    )
    url = database_url or default_database_url()
    check_writable(url)
    check_database_password(url)
    # The metrics port is a second socket of the same server: its scrapes read the tables on their own loop.
    sockets = [] if metrics_port is None else [bound(host, port), bound(metrics_host, metrics_port)]
    settings = Settings(
        database_url=url,
        redis_url=redis_url,
        timing=timing,
        allowed_origins=origins,
        allowed_hosts=hosts,
        debug=debug,
        review_budget=review_budget,
        addresses=addresses or AddressLimits(),
        open_caps=open_caps or OpenCaps(),
        expiry=expiry or Expiry(),
        accounts=accounts or AccountSettings(),
        quick_play=quick_play or QuickPlaySettings(),
        metrics_port=metrics_port,
        notifications=notifications or NotificationSettings(),
        chat_words=tuple(chat_words),
    )
    app = create_app(settings)
    collector.tune()
    if gc_log is not None:
        collector.log_pauses(gc_log.open("a", buffering=1))
    logs.configure(level, log_style)  # the server's own lines at ``level``; libraries stay at warnings
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    stored = make_url(url).render_as_string(hide_password=True)
    print(f"Chicken Foot is served at http://{shown}:{port}/ (games stored in {stored})", flush=True)
    print(f"It answers for the host names {', '.join(hosts)} (--allowed-host)", flush=True)
    if metrics_port is not None:
        print(f"Metrics are served at http://{metrics_host}:{metrics_port}/metrics", flush=True)
    # Messages are small and the CPU is better spent on play than on per-message compression.
    # The transport takes frames up to 1 MiB so the application can answer an oversized one
    # (over MAX_FRAME_BYTES) with an error before closing.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        # JSON lines: uvicorn's own lines go through the server's handler too, not uvicorn's.
        log_config=None if log_style == "json" else uvicorn.config.LOGGING_CONFIG,
        log_level="info" if access_log else "warning",
        # h11, not httptools: httptools buffers a request's head without limit (200 MiB of headers
        # sent slowly cost the server 200 MiB); h11 answers 400 past HEAD_BYTES. Its head's time and
        # the connections of one address are capped by the protocol itself (server/http/connections.py).
        http=guarded_h11(connections or ConnectionCaps(), settings.clock, proxies, app.state.upgrades),
        h11_max_incomplete_event_size=HEAD_BYTES,
        access_log=access_log,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        # Forwarded headers only from the proxies named: without any, uvicorn would believe loopback's
        # (or FORWARDED_ALLOW_IPS'), and X-Forwarded-For from 127.0.0.1 would escape every per-address limit.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        # On SIGTERM, connections still open after this are cut, so a stuck client never holds up the exit.
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    redact_logs()  # after the Config: it sets up uvicorn's loggers
    limit_client_caused(settings.clock)
    uvicorn.Server(config).run(sockets=sockets or None)

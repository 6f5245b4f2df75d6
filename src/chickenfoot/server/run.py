"""Start the server process (``chickenfoot serve``)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from pathlib import Path

import uvicorn

from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.server import collector
from chickenfoot.server.accounts.service import AccountSettings
from chickenfoot.server.app import Settings, create_app
from chickenfoot.server.hub import Expiry
from chickenfoot.server.limiter import AddressLimits
from chickenfoot.server.security import redact_logs
from chickenfoot.server.storage import default_database_url
from chickenfoot.server.table_config import Timing

SHUTDOWN_SECONDS = 10
"""How long a stopping server waits for its open connections to finish before it cuts them."""


def run(
    host: str,
    port: int,
    database_url: str | None,
    pace: float = 1.0,
    *,
    redis_url: str | None = None,
    allowed_origins: Sequence[str] = (),
    debug: bool = False,
    access_log: bool = False,
    review_budget: int = DEFAULT_BUDGET,
    addresses: AddressLimits | None = None,
    expiry: Expiry | None = None,
    gc_log: Path | None = None,
    accounts: AccountSettings | None = None,
) -> None:
    """Serve until interrupted; ``pace`` scales the automatic pauses (0: bots and forced moves at once).

    ``redis_url``: the Redis shared with the other processes serving the same database (none: this process is alone);
    ``allowed_origins``: pages of these origins may open tables besides the server's own;
    ``debug``: the API documentation at ``/docs``; ``access_log``: a line per request (secrets redacted);
    ``review_budget``: sampled deals per move of the reviews of finished matches;
    ``gc_log``: a file to which each garbage collection's pause is appended (:mod:`.collector`);
    ``accounts``: session cookies and the passkeys' relying party.

    Raises ``ValueError`` for a limit of ``addresses`` that is not in the ``limits`` notation (``60/minute``).
    """
    base = Timing()
    timing = dataclasses.replace(
        base,
        bot_delay=base.bot_delay * pace,
        forced_delay=base.forced_delay * pace,
        next_round_delay=base.next_round_delay * pace,
    )
    url = database_url or default_database_url()
    settings = Settings(
        database_url=url,
        redis_url=redis_url,
        timing=timing,
        allowed_origins=tuple(allowed_origins),
        debug=debug,
        review_budget=review_budget,
        addresses=addresses or AddressLimits(),
        expiry=expiry or Expiry(),
        accounts=accounts or AccountSettings(),
    )
    app = create_app(settings)
    collector.tune()
    if gc_log is not None:
        collector.log_pauses(gc_log.open("a", buffering=1))
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"Chicken Foot is served at http://{shown}:{port}/ (games stored in {url})", flush=True)
    # Messages are small and the CPU is better spent on play than on per-message compression.
    # The transport takes frames up to 1 MiB so the application can answer an oversized one
    # (over MAX_FRAME_BYTES) with an error before closing.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info" if access_log else "warning",
        access_log=access_log,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        # On SIGTERM, connections still open after this are cut, so a stuck client never holds up the exit.
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    redact_logs()  # after the Config: it sets up uvicorn's loggers
    uvicorn.Server(config).run()

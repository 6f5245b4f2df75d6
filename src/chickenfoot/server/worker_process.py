"""The start of a server's worker process (reviews, replays): low priority, and gone with its server."""

from __future__ import annotations

import os
import threading
import time

NICENESS = 10
PARENT_CHECK_SECONDS = 1.0


def start_worker(server: int) -> None:
    """In the worker process: yield the CPU to live tables, and end when the server (process id
    ``server``, passed in: it may be gone before this runs) has gone (killed servers cannot tell it to)."""
    os.nice(NICENESS)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()

"""The start of a server's worker process (reviews, replays): low priority, and gone with its server."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

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


def worker_pool() -> ProcessPoolExecutor:
    """One low-priority worker process, started now: call it off the event loop (``asyncio.to_thread``),
    since starting a process takes tens of milliseconds of the caller's time."""
    # Spawned, not forked: the server has threads (bots think in them), which a fork would copy mid-work.
    pool = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(),),
    )
    pool.submit(int)  # the process starts in this thread
    return pool

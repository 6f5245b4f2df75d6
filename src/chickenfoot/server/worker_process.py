"""A server's worker process (hints, replays, reviews): low priority, started when first needed, and
gone with its server."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

NICENESS = 10
PARENT_CHECK_SECONDS = 1.0

T = TypeVar("T")


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


class Worker:
    """One low-priority worker process, started at the first job (off the event loop) and again at the
    job after it died. Jobs run one at a time, in the order given."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()

    async def run(self, job: Callable[..., T], *args: object) -> T:
        """``job(*args)`` in the worker process (both picklable); raises :class:`BrokenProcessPool` if the
        process died meanwhile (the next job starts a new one)."""
        async with self._starting:  # two first jobs start one process
            if self._pool is None:
                self._pool = await asyncio.to_thread(worker_pool)
            pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, job, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise

    def close(self) -> None:
        """Stop the process (a job running is abandoned, queued ones cancelled); a later job starts a new one."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

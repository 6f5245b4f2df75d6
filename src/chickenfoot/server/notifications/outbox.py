"""The outbox's worker, one in every process: it claims the rows that are due, has each one sent, and
finishes it, or frees it to be tried again later.

The outbox in the database is the truth. A row is claimed for a lease: while it is held no other
process touches it; a process killed while sending leaves its rows to be claimed again once their
lease has run out, so nothing is lost. A row is sent by one process at a time and finished once, so
nothing is sent twice by two processes; the one window left, a process killed after the mail server
or push service took a message but before the row was finished, sends it again under the same
``Message-ID`` (or push ``Topic`` and tag), by which the receiver knows it for the same one.

The worker wakes when this process puts a row in, and every ``poll_seconds`` for rows that came due
meanwhile (quiet hours ended, a digest's wait, a retry) or that another process put in.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.notifications.store import NotificationStore, Outgoing
from chickenfoot.server.storage import StorageUnavailable

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class OutboxSettings:
    lease_seconds: float = 120.0
    """How long a claimed row is its process's: longer than any one send may take (SMTP's 30 s)."""
    poll_seconds: float = 15.0
    batch: int = 20
    """Rows claimed at once."""
    sending: int = 8
    """Rows sent at once."""
    retry_seconds: float = 30.0
    """The wait after a first failure; it doubles with each failure, to :attr:`retry_most_seconds`."""
    retry_most_seconds: float = 3600.0
    attempts: int = 40
    """Failures after which a row is given up (with the defaults: about a day and a half of tries)."""
    keep_days: float = 7.0
    """Finished rows, and notices read, are forgotten after this many days."""
    background: bool = True
    """The worker runs by itself (``False``: only when :meth:`Outbox.run_once` is called, as a test does
    to send what is due at a moment of its choosing)."""


@dataclass(frozen=True, slots=True)
class Done:
    """What became of a row: ``sent``, ``skipped``, ``dropped`` or ``failed`` (finished), or ``retry``
    (after ``retry_after`` seconds, or the backoff's wait)."""

    outcome: str
    retry_after: float | None = None


Deliver = Callable[[Outgoing], Awaitable[Done]]


class Outbox:
    def __init__(self, store: NotificationStore, clock: Clock, settings: OutboxSettings, deliver: Deliver) -> None:
        self.store, self.clock, self.settings, self.deliver = store, clock, settings, deliver
        self.worker = secrets.token_hex(8)
        """This process among those that claim rows."""
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pruned_at: float | None = None

    def start(self) -> None:
        if self.settings.background:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def wake(self) -> None:
        """A row was put in: look now rather than at the next poll."""
        self._woken.set()

    async def _run(self) -> None:
        while True:
            self._woken.clear()
            try:
                if await self.run_once():
                    continue  # more may be due
                await self._prune()
            except StorageUnavailable:
                pass  # the outage is reported already; the rows wait in the database
            except Exception:
                log.exception("the notifications' outbox failed")
            await self._wait()

    async def _wait(self) -> None:
        sleeping = asyncio.ensure_future(self.clock.sleep(self.settings.poll_seconds))
        woken = asyncio.ensure_future(self._woken.wait())
        try:
            await asyncio.wait({sleeping, woken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            woken.cancel()

    async def run_once(self) -> int:
        """Claim the rows due now and send them; how many were claimed."""
        now = utc(self.clock)
        lease = now + timedelta(seconds=self.settings.lease_seconds)
        rows = await self.store.claim(self.worker, now, lease, self.settings.batch)
        if rows:
            sending = asyncio.Semaphore(self.settings.sending)

            async def one(row: Outgoing) -> None:
                async with sending:
                    await self._send(row)

            await asyncio.gather(*(one(row) for row in rows))
        return len(rows)

    async def _send(self, row: Outgoing) -> None:
        try:
            done = await self.deliver(row)
        except StorageUnavailable:
            return  # the lease runs out and the row is claimed again
        except Exception:
            log.exception("sending row %d of the outbox failed", row.id)
            done = Done("retry")
        at = utc(self.clock)
        if done.outcome != "retry":
            await self.store.finish(row.id, self.worker, done.outcome, at)
        elif row.attempts >= self.settings.attempts:
            log.warning("row %d of the outbox (%s) given up after %d tries", row.id, row.purpose, row.attempts)
            await self.store.finish(row.id, self.worker, "failed", at)
        else:
            backoff = self.settings.retry_seconds * 2 ** (row.attempts - 1)
            wait = max(done.retry_after or 0.0, min(backoff, self.settings.retry_most_seconds))
            await self.store.retry(row.id, self.worker, at + timedelta(seconds=wait))

    async def _prune(self) -> None:
        """Once an hour: forget what was finished (and read) long ago."""
        if self._pruned_at is not None and self.clock.monotonic() - self._pruned_at < 3600:
            return
        self._pruned_at = self.clock.monotonic()
        before = utc(self.clock) - timedelta(days=self.settings.keep_days)
        await self.store.prune(before, before)

"""A server whose players' reports desk holds one open report, for the browser tests of the moderation
page while no feature of the server keeps players' reports (the port: server/moderation/reports.py).

    python tests/e2e/report_desk_server.py PORT DATABASE_URL REPORTED

serves on ``127.0.0.1:PORT`` with a desk holding report 1: the account named ``REPORTED`` (looked up
when the page lists it, so it may sign up after the server starts), with its evidence.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from datetime import datetime

import uvicorn

from chickenfoot.server import Settings, create_app
from chickenfoot.server.accounts import names
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.moderation.reports import Evidence, Outcome, Report
from chickenfoot.server.storage import Storage


class OneReport:
    """A :class:`~chickenfoot.server.moderation.reports.ReportDesk` holding one report of ``reported``."""

    def __init__(self, storage: Storage, clock: Clock, reported: str) -> None:
        self.accounts, self.clock = AccountStore(storage), clock
        at = utc(clock)
        evidence = (
            Evidence(11, 0, "good luck all", None, at.isoformat(timespec="seconds"), "ann"),
            Evidence(12, 1, "you play like an idiot", None, at.isoformat(timespec="seconds"), reported),
        )
        self.report = Report(1, "ann", None, reported, "abuse", "insults all match", "ABCDEF", 12, evidence, at, "open")

    async def listed(self, handled: bool, before: int | None, limit: int) -> Sequence[Report]:
        if (self.report.status != "open") != handled or (before is not None and before <= self.report.id):
            return ()
        if self.report.reported_id is None and self.report.reported is not None:
            account = await self.accounts.by_skeleton(names.skeleton(self.report.reported))
            if account is not None:
                self.report = dataclasses.replace(self.report, reported_id=account.id)
        return (self.report,)

    async def count_open(self) -> int:
        return int(self.report.status == "open")

    async def handle(self, report_id: int, operator_id: int, outcome: Outcome, resolution: str) -> Report | None:
        if report_id != self.report.id or self.report.status != "open":
            return None
        handled_at: datetime = utc(self.clock)
        self.report = dataclasses.replace(
            self.report, status=outcome.value, resolution=resolution, handled_at=handled_at
        )
        return self.report


def main(argv: Sequence[str]) -> None:
    port, database_url, reported = argv
    settings = Settings(
        database_url=database_url,
        report_desk=lambda storage, clock: OneReport(storage, clock, reported),
    )
    uvicorn.run(create_app(settings), host="127.0.0.1", port=int(port), log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])

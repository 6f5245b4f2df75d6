"""Where the players' reports land for the operators: the :class:`ReportDesk` port the moderation page
lists and handles them through, and the :class:`Report` it reads.

The players file reports elsewhere (a player or a chat line, with the chat lines around it copied as
evidence when the report is made: the table's lines move on and the table may be swept, the evidence
stays); whichever feature keeps them implements this port, and the composition root hands it to the
moderation service. A server without that feature has :class:`NoReports`: an empty desk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

PAGE = 50
"""Reports the moderation page reads at once."""


class Outcome(StrEnum):
    """How an operator handled a report."""

    ACTIONED = "actioned"
    """Something was done (a mute, a suspension…: each its own line of the audit log)."""
    DISMISSED = "dismissed"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One chat line kept with a report, as it was when the report was made."""

    n: int
    """The line's number at its table."""
    seat: int | None
    """``None``: a spectator's line."""
    text: str | None
    code: str | None
    """A quick reaction's message code (``chat.reaction.…``), for a line without text."""
    at: str
    """When it was said (ISO 8601)."""
    by: str | None
    """The name of the account that said it (``None``: a guest, or deleted since)."""


@dataclass(frozen=True, slots=True)
class Report:
    """A report as the moderation page reads it."""

    id: int
    reporter: str | None
    """The reporter's name (``None``: deleted since)."""
    reported_id: int | None
    """The account reported (``None``: a guest's chat line; the evidence is all there is)."""
    reported: str | None
    """Its name (``None``: a guest, or closed since)."""
    reason: str
    """``abuse``, ``cheating``, ``spam``, ``name`` or ``other``."""
    note: str
    """The reporter's own words."""
    table_code: str | None
    line: int | None
    """The chat line reported (its number at the table), if a line was."""
    evidence: tuple[Evidence, ...]
    created_at: datetime
    status: str
    """``open``, or the :class:`Outcome`."""
    handled_at: datetime | None = None
    resolution: str | None = None
    """The operator's note on how it was handled."""

    def wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reporter": self.reporter,
            "reported_id": self.reported_id,
            "reported": self.reported,
            "reason": self.reason,
            "note": self.note,
            "table": self.table_code,
            "line": self.line,
            "evidence": [
                {"n": e.n, "seat": e.seat, "text": e.text, "code": e.code, "at": e.at, "by": e.by}
                for e in self.evidence
            ],
            "at": self.created_at.isoformat(timespec="seconds"),
            "status": self.status,
            "handled_at": None if self.handled_at is None else self.handled_at.isoformat(timespec="seconds"),
            "resolution": self.resolution,
        }


class ReportDesk(Protocol):
    """The reports, as the moderation page needs them: listed (open or handled, the newest first),
    counted, and handled once. Three methods; the feature that keeps the reports implements them (an
    adapter at the composition root, as features import none of each other)."""

    async def listed(self, handled: bool, before: int | None, limit: int) -> Sequence[Report]:
        """Open reports (``handled``: those handled), with ids below ``before`` (``None``: the newest), at
        most ``limit``, the newest first."""
        ...

    async def count_open(self) -> int: ...

    async def handle(self, report_id: int, operator_id: int, outcome: Outcome, resolution: str) -> Report | None:
        """Mark an open report handled by the operator ``operator_id``; the report as it is now, or
        ``None`` when there is no open report ``report_id``."""
        ...


class NoReports:
    """The desk of a server whose players file no reports: always empty."""

    async def listed(self, handled: bool, before: int | None, limit: int) -> Sequence[Report]:
        return ()

    async def count_open(self) -> int:
        return 0

    async def handle(self, report_id: int, operator_id: int, outcome: Outcome, resolution: str) -> Report | None:
        return None


def no_reports(_storage: object, _clock: object) -> ReportDesk:
    """The composition root's default desk (``Settings.report_desk``): :class:`NoReports`."""
    return NoReports()

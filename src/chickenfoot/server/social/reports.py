"""Players and chat lines reported to the operators, with the evidence kept when the report was made.

A report names who reported (an account), who is reported (an account, or nobody for a guest's line),
a reason, the player's own words, the table and the chat line if any, and the time. For a chat line
the evidence is the table's kept lines around it (:data:`BEFORE` before, :data:`AFTER` after), each
with its seat, its words, its time and the account that said it (by name), copied into the report:
the table's lines move on and the table itself may be swept, the evidence stays.

:class:`Reports` files a player's report, and is the operators' report desk: it has the shape of the
moderation page's ``ReportDesk`` port (``listed(handled, before, limit)``, ``count_open()``,
``handle(report_id, operator_id, outcome, resolution)``), its :class:`Report` and :class:`Evidence`
those the page reads, field for field, and :func:`report_desk` the factory the composition root hands
over. The page authorises its operators; this module does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.social.schema import reports
from chickenfoot.server.social.store import Capped
from chickenfoot.server.storage import Storage, aware, chat_lines

BEFORE, AFTER = 10, 5
"""Chat lines kept as evidence around a reported line."""
MAX_NOTE = 500
OPEN_PER_REPORTER = 20
"""Reports one player may have waiting for the operators at once."""
PAGE = 50
"""Reports the moderation page reads at once, at most."""


class Reason(StrEnum):
    ABUSE = "abuse"
    """Insults, harassment, hate."""
    CHEATING = "cheating"
    SPAM = "spam"
    NAME = "name"
    """An offensive name."""
    OTHER = "other"


class Outcome(StrEnum):
    """How an operator handled a report."""

    ACTIONED = "actioned"
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
    """Its name (``None``: a guest, or deleted since)."""
    reason: str
    """A :class:`Reason`."""
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
        """The report as the moderation page's API answers it."""
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


class AlreadyReported(LookupError):
    """The reporter has an open report of the same thing already."""


reporter_names = accounts.alias("reporter_names")
reported_names = accounts.alias("reported_names")


def _name(row: Any, key: str) -> str | None:
    value = getattr(row, key)
    return None if value is None else str(value)


def _report(row: Any) -> Report:
    return Report(
        int(row.id),
        _name(row, "reporter_name"),
        row.reported_id,
        _name(row, "reported_name"),
        row.reason,
        row.note,
        row.table_code,
        row.line,
        tuple(Evidence(**kept) for kept in json.loads(row.evidence)),
        aware(row.created_at),
        row.status,
        None if row.handled_at is None else aware(row.handled_at),
        row.resolution,
    )


class ReportStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def file(self, row: dict[str, Any]) -> int:
        """Keep a new open report (the columns of ``social_reports``); its id. Raises :class:`Capped` past
        :data:`OPEN_PER_REPORTER` open reports, :class:`AlreadyReported` for the same thing reported again."""
        opened = (reports.c.reporter_id == row["reporter_id"]) & (reports.c.status == "open")
        same = (
            opened
            & _same(reports.c.reported_id, row["reported_id"])
            & _same(reports.c.table_code, row["table_code"])
            & _same(reports.c.line, row["line"])
        )
        count = sa.select(sa.func.count()).select_from(reports)
        async with self.storage.transaction() as conn:
            if (await conn.execute(count.where(same))).scalar_one():
                raise AlreadyReported
            if (await conn.execute(count.where(opened))).scalar_one() >= OPEN_PER_REPORTER:
                raise Capped(OPEN_PER_REPORTER)
            inserted = await conn.execute(reports.insert().values(**row, status="open").returning(reports.c.id))
            return int(inserted.scalar_one())

    def _query(self) -> sa.Select[Any]:
        joined = reports.join(reporter_names, reporter_names.c.id == reports.c.reporter_id).outerjoin(
            reported_names, reported_names.c.id == reports.c.reported_id
        )
        return (
            sa.select(reports)
            .add_columns(
                reporter_names.c.username.label("reporter_name"), reported_names.c.username.label("reported_name")
            )
            .select_from(joined)
        )

    async def listed(self, handled: bool, before: int | None, limit: int) -> list[Report]:
        query = self._query().where((reports.c.status != "open") if handled else (reports.c.status == "open"))
        if before is not None:
            query = query.where(reports.c.id < before)
        async with self.storage.reading() as conn:
            return [_report(row) for row in await conn.execute(query.order_by(reports.c.id.desc()).limit(limit))]

    async def get(self, report_id: int) -> Report | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(self._query().where(reports.c.id == report_id))).first()
        return None if row is None else _report(row)

    async def handle(self, report_id: int, operator: int, outcome: Outcome, resolution: str, at: datetime) -> bool:
        """Mark an open report handled; ``False`` when there is no open report ``report_id``."""
        which = (reports.c.id == report_id) & (reports.c.status == "open")
        values = {"status": outcome.value, "handled_by": operator, "handled_at": at, "resolution": resolution}
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(reports.update().where(which).values(**values))).rowcount)

    async def count_open(self) -> int:
        query = sa.select(sa.func.count()).select_from(reports).where(reports.c.status == "open")
        async with self.storage.reading() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def lines_around(self, code: str, line: int | None) -> list[dict[str, Any]]:
        """The table's kept chat lines from :data:`BEFORE` before ``line`` to :data:`AFTER` after it (``None``:
        its last ones), each with the name of the account that said it (the seat's, for a line kept before
        speakers were)."""
        joined = chat_lines.outerjoin(
            account_seats,
            (account_seats.c.table_code == chat_lines.c.table_code) & (account_seats.c.seat == chat_lines.c.seat),
        ).outerjoin(accounts, accounts.c.id == sa.func.coalesce(chat_lines.c.speaker, account_seats.c.account_id))
        query = (
            sa.select(chat_lines.c.number, chat_lines.c.seat, chat_lines.c.text, chat_lines.c.reaction, chat_lines.c.at)
            .add_columns(accounts.c.id.label("account_id"), accounts.c.username)
            .select_from(joined)
            .where(chat_lines.c.table_code == code)
        )
        if line is not None:
            query = query.where(chat_lines.c.number.between(line - BEFORE, line + AFTER))
        query = query.order_by(chat_lines.c.number.desc()).limit(BEFORE + AFTER + 1)
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "n": row.number,
                "seat": row.seat,
                "text": row.text,
                "code": None if row.reaction is None else f"chat.reaction.{row.reaction}",
                "at": aware(row.at).isoformat(timespec="seconds"),
                "by": row.username,
                "account": row.account_id,
            }
            for row in reversed(rows)
        ]


def _same(column: sa.Column[Any], value: object) -> sa.ColumnElement[bool]:
    return column.is_(None) if value is None else column == value


class Reports:
    """Filing reports (a player's), and the moderation page's API (an operator's)."""

    def __init__(self, store: ReportStore, clock: Clock) -> None:
        self.store, self.clock = store, clock

    async def file(
        self, reporter: int, reported: int | None, reason: Reason, note: str, code: str | None, line: int | None
    ) -> int:
        """Keep a report of ``reported`` (or of the chat line ``line`` of table ``code``, whose speaker is
        then the one reported), with its evidence: the table's kept lines around the line (or its last
        ones, for a player reported at a table). Refuses reporting oneself, a line not kept, the same
        thing twice while it is open, and more than :data:`OPEN_PER_REPORTER` open reports. Its number."""
        evidence = [] if code is None else await self.store.lines_around(code, line)
        if line is not None:
            said = next((kept for kept in evidence if kept["n"] == line), None)
            if said is None:
                raise Refusal(Why.NOT_FOUND, Said.of(Code.SOCIAL_NO_LINE))
            reported = said["account"]
        if reported is not None and reported == reporter:
            raise Refusal.invalid(Said.of(Code.SOCIAL_NOT_YOURSELF))
        row = {
            "reporter_id": reporter,
            "reported_id": reported,
            "reason": reason.value,
            "note": " ".join(note.split())[:MAX_NOTE],
            "table_code": code,
            "line": line,
            "evidence": json.dumps([{k: v for k, v in kept.items() if k != "account"} for kept in evidence]),
            "created_at": utc(self.clock),
        }
        try:
            report_id = await self.store.file(row)
        except AlreadyReported:
            raise Refusal.conflict(Said.of(Code.SOCIAL_ALREADY_REPORTED)) from None
        except Capped as capped:
            raise Refusal(Why.TOO_MANY, Said.of(Code.SOCIAL_TOO_MANY_REPORTS, limit=capped.limit)) from None
        return report_id

    # --- the report desk: the moderation page's port -----------------------------------------------

    async def listed(self, handled: bool, before: int | None, limit: int) -> list[Report]:
        """Open reports (``handled``: those handled), with ids below ``before`` (``None``: the newest), at
        most ``limit`` (and :data:`PAGE`), the newest first."""
        return await self.store.listed(handled, before, max(0, min(limit, PAGE)))

    async def get(self, report_id: int) -> Report | None:
        return await self.store.get(report_id)

    async def count_open(self) -> int:
        return await self.store.count_open()

    async def handle(self, report_id: int, operator_id: int, outcome: Outcome, resolution: str) -> Report | None:
        """Mark an open report handled by the operator ``operator_id`` (their account), with their note;
        the report as it is now, or ``None`` when there is no open report ``report_id``."""
        note = " ".join(resolution.split())[:MAX_NOTE]
        if not await self.store.handle(report_id, operator_id, Outcome(outcome), note, utc(self.clock)):
            return None
        return await self.store.get(report_id)


def report_desk(storage: Storage, clock: Clock) -> Reports:
    """The report desk the composition root hands the moderation page (``Settings.report_desk``)."""
    return Reports(ReportStore(storage), clock)

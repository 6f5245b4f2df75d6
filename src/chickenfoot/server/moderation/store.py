"""The moderation's queries: restrictions, the audit log (appended, read, never changed), the operators'
chat words, and what the moderation page shows of a player (their recent chat lines and tables)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.moderation.schema import audit, restrictions, words
from chickenfoot.server.storage import Storage, aware, chat_lines, game_tables


class Restricted(StrEnum):
    """What a restriction takes from a player for its time."""

    MUTE = "mute"
    """Their chat lines (and quick reactions) are refused."""
    SUSPEND = "suspend"
    """They cannot sign in; their sessions were ended."""


@dataclass(frozen=True, slots=True)
class Restriction:
    kind: Restricted
    until: datetime
    reason: str
    set_at: datetime


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One line of the audit log: who did what to whom (or to which table), when and why."""

    id: int
    at: datetime
    operator_id: int | None
    operator: str | None
    """The operator's name when they did it; ``None`` with no ``operator_id``: the command line."""
    action: str
    subject_id: int | None
    subject: str | None
    """The player's name when it was done (a renamed player's old name, a closed account's last one)."""
    table_code: str | None
    reason: str
    details: dict[str, Any]

    def wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(timespec="seconds"),
            "operator": self.operator,
            "by_command_line": self.operator_id is None and self.operator is None,
            "action": self.action,
            "subject_id": self.subject_id,
            "subject": self.subject,
            "table": self.table_code,
            "reason": self.reason,
            "details": self.details,
        }


@dataclass(frozen=True, slots=True)
class SaidLine:
    """A chat line a player's seat said, still kept at its table."""

    table_code: str
    n: int
    seat: int
    text: str | None
    reaction: str | None
    at: datetime

    def wire(self) -> dict[str, Any]:
        code = None if self.reaction is None else f"chat.reaction.{self.reaction}"
        at = self.at.isoformat(timespec="seconds")
        return {"table": self.table_code, "n": self.n, "seat": self.seat, "text": self.text, "code": code, "at": at}


@dataclass(frozen=True, slots=True)
class TableSat:
    """A table a player sat at."""

    code: str
    seat: int
    created_at: datetime
    over: bool

    def wire(self) -> dict[str, Any]:
        return {"code": self.code, "seat": self.seat, "created": self.created_at.isoformat(), "over": self.over}


@dataclass(frozen=True, slots=True)
class Player:
    """An account as the moderation page shows it."""

    id: int
    username: str | None
    """``None``: closed (deleted by its player or an operator)."""
    created_at: datetime
    closed: bool
    bot: bool
    operator: bool


@dataclass(frozen=True, slots=True)
class AddedWord:
    word: str
    added_by: str | None
    added_at: datetime


def _audit_line(row: Any) -> AuditLine:
    return AuditLine(
        row.id,
        aware(row.at),
        row.operator_id,
        row.operator_name,
        row.action,
        row.subject_id,
        row.subject_name,
        row.table_code,
        row.reason,
        json.loads(row.details),
    )


class ModerationStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # --- restrictions -----------------------------------------------------------------------------

    async def restrict(
        self, account_id: int, kind: Restricted, until: datetime, reason: str, by: int | None, at: datetime
    ) -> None:
        """Restrict the account until ``until`` (replacing a restriction of the same kind)."""
        mine = (restrictions.c.account_id == account_id) & (restrictions.c.kind == kind.value)
        row = {"account_id": account_id, "kind": kind.value, "until": until, "reason": reason, "set_by": by}
        async with self.storage.transaction() as conn:
            await conn.execute(restrictions.delete().where(mine))
            await conn.execute(restrictions.insert().values(**row, set_at=at))

    async def lift(self, account_id: int, kind: Restricted, now: datetime) -> bool:
        """End the account's restriction of ``kind`` now; ``False`` when none was in force."""
        mine = (restrictions.c.account_id == account_id) & (restrictions.c.kind == kind.value)
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(restrictions.delete().where(mine, restrictions.c.until > now))).rowcount)

    async def restrictions_of(self, account_id: int, now: datetime) -> dict[Restricted, Restriction]:
        """The account's restrictions in force at ``now``."""
        query = sa.select(restrictions).where(restrictions.c.account_id == account_id, restrictions.c.until > now)
        async with self.storage.reading() as conn:
            rows = (await conn.execute(query)).all()
        return {
            Restricted(row.kind): Restriction(Restricted(row.kind), aware(row.until), row.reason, aware(row.set_at))
            for row in rows
        }

    async def restricted_until(self, account_id: int, kind: Restricted, now: datetime) -> datetime | None:
        """Until when the account is restricted so (``None``: it is not, at ``now``): one indexed row."""
        query = sa.select(restrictions.c.until).where(
            restrictions.c.account_id == account_id, restrictions.c.kind == kind.value, restrictions.c.until > now
        )
        async with self.storage.reading() as conn:
            until = (await conn.execute(query)).scalar()
        return None if until is None else aware(until)

    async def forget(self, conn: AsyncConnection, account_id: int) -> None:
        """A deleted account's restrictions go with its ways in (the audit log keeps what was done)."""
        await conn.execute(restrictions.delete().where(restrictions.c.account_id == account_id))

    # --- the audit log: appended, read, never changed --------------------------------------------

    async def append(
        self,
        at: datetime,
        operator: tuple[int, str] | None,
        action: str,
        subject: tuple[int, str | None] | None,
        reason: str,
        details: dict[str, Any],
        table_code: str | None = None,
    ) -> AuditLine:
        """Write one line of the audit log: ``operator`` and ``subject`` are an account's id and name
        (``operator`` ``None``: the command line)."""
        row = {
            "at": at,
            "operator_id": None if operator is None else operator[0],
            "operator_name": None if operator is None else operator[1],
            "action": action,
            "subject_id": None if subject is None else subject[0],
            "subject_name": None if subject is None else subject[1],
            "table_code": table_code,
            "reason": reason,
            "details": json.dumps(details, sort_keys=True),
        }
        async with self.storage.transaction() as conn:
            written = await conn.execute(audit.insert().values(**row).returning(audit.c.id))
            line_id = int(written.scalar_one())
        operator_id, operator_name = operator or (None, None)
        subject_id, subject_name = subject or (None, None)
        return AuditLine(
            line_id, at, operator_id, operator_name, action, subject_id, subject_name, table_code, reason, details
        )

    async def audit(self, before: int | None, limit: int, subject_id: int | None = None) -> list[AuditLine]:
        """Lines of the audit log, the newest first: with ids below ``before``, about one account."""
        query = sa.select(audit)
        if before is not None:
            query = query.where(audit.c.id < before)
        if subject_id is not None:
            query = query.where(audit.c.subject_id == subject_id)
        async with self.storage.reading() as conn:
            return [_audit_line(row) for row in await conn.execute(query.order_by(audit.c.id.desc()).limit(limit))]

    # --- the operators' chat words ------------------------------------------------------------------

    async def words(self) -> list[AddedWord]:
        adder = accounts.alias("adder")
        query = (
            sa.select(words.c.word, words.c.added_at, adder.c.username)
            .select_from(words.outerjoin(adder, adder.c.id == words.c.added_by))
            .order_by(words.c.word)
        )
        async with self.storage.reading() as conn:
            return [AddedWord(row.word, row.username, aware(row.added_at)) for row in await conn.execute(query)]

    async def add_word(self, word: str, by: int, at: datetime) -> bool:
        """``False`` when the word is there already."""
        try:
            async with self.storage.transaction() as conn:
                await conn.execute(words.insert().values(word=word, added_by=by, added_at=at))
        except sa.exc.IntegrityError:
            return False
        return True

    async def remove_word(self, word: str) -> bool:
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(words.delete().where(words.c.word == word))).rowcount)

    # --- a player, as the moderation page shows them -------------------------------------------

    async def chat_of(self, account_id: int, limit: int) -> list[SaidLine]:
        """The chat lines the account's seats said that their tables still keep, the newest first."""
        said = (chat_lines.c.table_code == account_seats.c.table_code) & (chat_lines.c.seat == account_seats.c.seat)
        query = (
            sa.select(chat_lines)
            .select_from(chat_lines.join(account_seats, said))
            .where(account_seats.c.account_id == account_id)
            .order_by(chat_lines.c.at.desc(), chat_lines.c.number.desc())
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            return [
                SaidLine(row.table_code, row.number, row.seat, row.text, row.reaction, aware(row.at))
                for row in await conn.execute(query)
            ]

    async def tables_of(self, account_id: int, limit: int) -> list[TableSat]:
        """The tables the account sat at, the newest first."""
        query = (
            sa.select(game_tables.c.code, game_tables.c.created_at, game_tables.c.over, account_seats.c.seat)
            .select_from(game_tables.join(account_seats, account_seats.c.table_code == game_tables.c.code))
            .where(account_seats.c.account_id == account_id)
            .order_by(game_tables.c.created_at.desc(), game_tables.c.code)
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            return [
                TableSat(row.code, row.seat, aware(row.created_at), bool(row.over)) for row in await conn.execute(query)
            ]

    async def account(self, account_id: int) -> Player | None:
        """An account as the moderation page shows it, closed or not (``None``: no such id)."""
        query = sa.select(accounts).where(accounts.c.id == account_id)
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        return Player(row.id, row.username, aware(row.created_at), bool(row.deleted), bool(row.bot), bool(row.operator))

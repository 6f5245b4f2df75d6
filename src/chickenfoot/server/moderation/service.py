"""What an operator does on the moderation page: look a player up, act on them or on a table with a
reason, handle the players' reports, extend the chat filter. Every action writes one line of the audit
log, which nothing changes afterwards. Every refusal is a :class:`~chickenfoot.server.refusals.Refusal`.

The actions:

- **mute** a player in chat for a time: their lines are refused, saying until when (:mod:`.gate`), and
  their open table pages say so at once, in every process (:mod:`.mutes`);
- **suspend** their sign-in for a time: their sessions end at once, live in every process (their
  table connections come back watching), and signing in is refused until then, saying until when;
- **close** their account, as its player deletes it (every way in and session gone, its name erased
  from its tables and held from others for a while);
- **rename** an abusive username to a neutral one made up here (``player`` and six digits); the old
  name stays held by the account, so nobody takes it or a look-alike;
- **end a table**: its match stops where it is and the table is deleted, its players and watchers told
  in every process; a finished match is history and is not ended;
- lift a mute or a suspension before its time;
- handle a report (action taken, or dismissed, with a note), and add or remove a word of the filter.

An operator's account is acted on by no operator (the role is revoked on the command line first).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts import names
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.moderation.gate import ChatWords, moment
from chickenfoot.server.moderation.mutes import LiveMutes
from chickenfoot.server.moderation.reports import PAGE, Outcome, Report, ReportDesk
from chickenfoot.server.moderation.store import (
    AddedWord,
    AuditLine,
    ModerationStore,
    Player,
    Restricted,
    Restriction,
    SaidLine,
    TableSat,
)
from chickenfoot.server.moderation.words import entry_problem
from chickenfoot.server.refusals import Refusal, Why

MAX_MINUTES = 366 * 24 * 60
"""The longest mute or suspension: a year (a player who must go for good is closed)."""
SHOWN = 30
"""Chat lines, tables and audit lines shown of one player."""
NEUTRAL_PREFIX = "player"
NEUTRAL_DIGITS = 6
NAME_ATTEMPTS = 20


class Action(StrEnum):
    """What a line of the audit log records."""

    MUTE = "mute"
    UNMUTE = "unmute"
    SUSPEND = "suspend"
    UNSUSPEND = "unsuspend"
    CLOSE = "close"
    RENAME = "rename"
    END_TABLE = "end_table"
    REPORT = "report"
    WORD_ADD = "word_add"
    WORD_REMOVE = "word_remove"
    GRANT = "grant"
    """The operator's role granted (the command line)."""
    REVOKE = "revoke"


class TableEnd(StrEnum):
    """What ending a table came to."""

    ENDED = "ended"
    MISSING = "missing"
    FINISHED = "finished"
    """Its match is over: a finished match is history, not ended."""


EndTable = Callable[[str], Awaitable[TableEnd]]
"""Ends table ``code`` through the table registry (the composition root hands it ``Hub.end``)."""


@dataclass(frozen=True, slots=True)
class Operator:
    """The operator acting: their account's id and name (written into the audit log as they are now)."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What the moderation page shows of a player."""

    player: Player
    restrictions: dict[Restricted, Restriction]
    chat: list[SaidLine]
    tables: list[TableSat]
    history: list[AuditLine]

    def wire(self) -> dict[str, Any]:
        player = self.player
        return {
            "id": player.id,
            "username": player.username,
            "created": player.created_at.isoformat(),
            "closed": player.closed,
            "bot": player.bot,
            "operator": player.operator,
            "muted_until": _until(self.restrictions.get(Restricted.MUTE)),
            "suspended_until": _until(self.restrictions.get(Restricted.SUSPEND)),
            "chat": [line.wire() for line in self.chat],
            "tables": [table.wire() for table in self.tables],
            "history": [line.wire() for line in self.history],
        }


def _until(restriction: Restriction | None) -> str | None:
    return None if restriction is None else moment(restriction.until)


def neutral_name() -> str:
    """A name that says nothing of its player: ``player`` and six random digits.

    >>> name = neutral_name(); name.startswith("player") and len(name) == 12 and names.problem(name) is None
    True
    """
    return f"{NEUTRAL_PREFIX}{secrets.randbelow(10**NEUTRAL_DIGITS):0{NEUTRAL_DIGITS}d}"


class Moderation:
    def __init__(
        self,
        store: ModerationStore,
        accounts: Accounts,
        words: ChatWords,
        mutes: LiveMutes,
        reports: ReportDesk,
        end_table: EndTable,
        clock: Clock,
    ) -> None:
        self.store, self.accounts, self.words, self.mutes, self.reports = store, accounts, words, mutes, reports
        self.end_table_of, self.clock = end_table, clock

    # --- looking --------------------------------------------------------------------------------

    async def player(self, name: str) -> PlayerFacts:
        """The player whose name is ``name`` (or looks like it); refuses (404) when there is none."""
        account = await self.accounts.store.by_skeleton(names.skeleton(names.normalised(name)))
        if account is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_PLAYER, name=name[: names.MAX_LENGTH]))
        return await self.player_by_id(account.id)

    async def player_by_id(self, account_id: int) -> PlayerFacts:
        """The player of account ``account_id``, closed or not; refuses (404) when there is none."""
        player = await self.store.account(account_id)
        if player is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_ACCOUNT))
        now = utc(self.clock)
        return PlayerFacts(
            player,
            await self.store.restrictions_of(account_id, now),
            await self.store.chat_of(account_id, SHOWN),
            await self.store.tables_of(account_id, SHOWN),
            await self.store.audit(None, SHOWN, account_id),
        )

    async def audit(self, before: int | None) -> list[AuditLine]:
        return await self.store.audit(before, PAGE)

    async def listed_reports(self, handled: bool, before: int | None) -> Sequence[Report]:
        return await self.reports.listed(handled, before, PAGE)

    async def words_added(self) -> list[AddedWord]:
        return await self.store.words()

    # --- acting on a player -----------------------------------------------------------------------

    async def mute(self, operator: Operator, account_id: int, minutes: int, reason: str) -> AuditLine:
        """No chat line of the player's is taken for ``minutes``, in any process, from the next line on; their
        open table pages say so at once."""
        line = await self._restrict(operator, account_id, Restricted.MUTE, Action.MUTE, minutes, reason)
        await self.mutes.changed(account_id, line.details["until"])
        return line

    async def suspend(self, operator: Operator, account_id: int, minutes: int, reason: str) -> AuditLine:
        """The player cannot sign in for ``minutes``; every session of theirs ends now, in every process."""
        line = await self._restrict(operator, account_id, Restricted.SUSPEND, Action.SUSPEND, minutes, reason)
        await self.accounts.end_sessions_of(account_id)
        return line

    async def _restrict(
        self, operator: Operator, account_id: int, kind: Restricted, action: Action, minutes: int, reason: str
    ) -> AuditLine:
        player = await self._actionable(account_id)
        now = utc(self.clock)
        ends = now + timedelta(minutes=max(1, min(minutes, MAX_MINUTES)))
        await self.store.restrict(player.id, kind, ends, reason, operator.id, now)
        details = {"until": moment(ends), "minutes": math.ceil((ends - now).total_seconds() / 60)}
        return await self._write(operator, action, player, reason, details)

    async def unmute(self, operator: Operator, account_id: int, reason: str) -> AuditLine:
        line = await self._lift(operator, account_id, Restricted.MUTE, Action.UNMUTE, reason)
        await self.mutes.changed(account_id, None)
        return line

    async def unsuspend(self, operator: Operator, account_id: int, reason: str) -> AuditLine:
        return await self._lift(operator, account_id, Restricted.SUSPEND, Action.UNSUSPEND, reason)

    async def _lift(
        self, operator: Operator, account_id: int, kind: Restricted, action: Action, reason: str
    ) -> AuditLine:
        player = await self._actionable(account_id)
        if not await self.store.lift(player.id, kind, utc(self.clock)):
            code = Code.MODERATION_NOT_MUTED if kind is Restricted.MUTE else Code.MODERATION_NOT_SUSPENDED
            raise Refusal.conflict(Said.of(code, name=player.username or ""))
        return await self._write(operator, action, player, reason, {})

    async def close(self, operator: Operator, account_id: int, reason: str) -> AuditLine:
        """The account goes as its player's deletion takes it (the audit log keeps its last name)."""
        player = await self._actionable(account_id)
        await self.accounts.close(player.id)
        return await self._write(operator, Action.CLOSE, player, reason, {})

    async def rename(self, operator: Operator, account_id: int, reason: str) -> AuditLine:
        """The account's name becomes a neutral one; the old one stays held by the account."""
        player = await self._actionable(account_id)
        for _ in range(NAME_ATTEMPTS):
            new = neutral_name()
            if await self.accounts.rename(player.id, new):
                return await self._write(operator, Action.RENAME, player, reason, {"from": player.username, "to": new})
        raise Refusal.busy(Said.of(Code.MODERATION_NO_NAME))

    async def _actionable(self, account_id: int) -> Player:
        """The player of ``account_id``, if an operator may act on them: it exists, is not closed and is no
        operator's (refused otherwise)."""
        player = await self.store.account(account_id)
        if player is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_ACCOUNT))
        if player.closed or player.username is None:
            raise Refusal.conflict(Said.of(Code.MODERATION_CLOSED))
        if player.operator:
            raise Refusal.conflict(Said.of(Code.MODERATION_OPERATOR, name=player.username))
        return player

    # --- tables, reports, words ------------------------------------------------------------------

    async def end_table(self, operator: Operator, code: str, reason: str) -> AuditLine:
        code = code.strip().upper()
        match await self.end_table_of(code):
            case TableEnd.MISSING:
                raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_NO_TABLE, table=code[:16]))
            case TableEnd.FINISHED:
                raise Refusal.conflict(Said.of(Code.MODERATION_TABLE_FINISHED, table=code))
        return await self.store.append(
            utc(self.clock), (operator.id, operator.name), Action.END_TABLE, None, reason, {}, code
        )

    async def handle_report(self, operator: Operator, report_id: int, outcome: Outcome, resolution: str) -> Report:
        """An open report handled: action taken (each action its own line), or dismissed."""
        report = await self.reports.handle(report_id, operator.id, outcome, resolution)
        if report is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_REPORT))
        subject = None if report.reported_id is None else (report.reported_id, report.reported)
        details = {"report": report.id, "outcome": outcome.value}
        at = utc(self.clock)
        await self.store.append(at, (operator.id, operator.name), Action.REPORT, subject, resolution, details)
        return report

    async def add_word(self, operator: Operator, word: str) -> AuditLine:
        """A word of the filter's notation (:mod:`.words`), in force in every process from now on."""
        word = " ".join(word.split())
        if entry_problem(word) is not None:
            raise Refusal.invalid(Said.of(Code.MODERATION_BAD_WORD))
        if not await self.store.add_word(word, operator.id, utc(self.clock)):
            raise Refusal.conflict(Said.of(Code.MODERATION_WORD_THERE, word=word))
        await self.words.changed()
        return await self._write_word(operator, Action.WORD_ADD, word)

    async def remove_word(self, operator: Operator, word: str) -> AuditLine:
        """A word added on the page goes (the lists shipped and the operator's file stay as they are)."""
        if not await self.store.remove_word(word):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_WORD, word=word[:64]))
        await self.words.changed()
        return await self._write_word(operator, Action.WORD_REMOVE, word)

    async def _write_word(self, operator: Operator, action: Action, word: str) -> AuditLine:
        return await self.store.append(utc(self.clock), (operator.id, operator.name), action, None, "", {"word": word})

    async def _write(
        self, operator: Operator, action: Action, player: Player, reason: str, details: dict[str, Any]
    ) -> AuditLine:
        subject = (player.id, player.username)
        return await self.store.append(utc(self.clock), (operator.id, operator.name), action, subject, reason, details)

"""A table's chat: lines of plain text and quick reactions, kept with the table in storage.

Who said a line is the connection's business, never the message's: a player's line carries their
seat, a spectator's none (``spectator``). The account behind the connection, if any, is kept with the
line on the server (``by``) and never sent: a :class:`Listener` who blocks that account is not sent
the line, live or kept (:func:`heard`). A line is stored (numbered per table, the last
:data:`KEPT` kept) before it is published on the table's channel, so every process's clients get it
and a client connecting later reads it back. Text is stored and sent as it was typed: the page
shows it as text, never as markup.

A connecting client is subscribed first, then sent the kept lines, read after: a line said in between is
heard live and may be stored before the read too. Each connection's :class:`SentLines` sends every line
once: the kept lines only those not heard live already, and live only those not among the kept ones (a
line read back before another process's news of it arrives). Live lines are never held back: a client
that speaks at once hears its own line at once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import utc
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.storage import Storage, StorageUnavailable, aware, chat_lines
from chickenfoot.server.table.ports import ConfigPort
from chickenfoot.server.table.protocol import ChatMessage, ReactMessage

MAX_CHARS = 200
"""Characters in one chat line."""
KEPT = 50
"""Lines kept per table, all sent to a client when it connects."""
NUMBER_RETRIES = 5
"""Attempts to number a line when other processes number lines of the same table at the same moment."""

Line = dict[str, Any]
SPEAKER = "by"
"""A line's key for the account that said it: kept on the server, removed from every line sent."""


@dataclass(slots=True, weakref_slot=True, eq=False)
class Listener:
    """The account behind one table connection (``None``: a guest), and the accounts it blocks."""

    account: int | None = None
    """Kept with each line this connection says."""
    muted: frozenset[int] = field(default_factory=frozenset)
    """Their lines are not sent to this connection (server/social keeps it up to date)."""


def heard(message: dict[str, Any], listener: Listener) -> dict[str, Any] | None:
    """A ``chat`` message as ``listener`` hears it: no line of a muted account, no line's speaker
    (``None``: nothing left of a single new line). Any other message passes as it is.

    >>> said = {"type": "chat", "line": {"n": 3, "seat": 1, "text": "hi", "by": 42}}
    >>> heard(said, Listener(7)), heard(said, Listener(7, frozenset({42})))
    ({'type': 'chat', 'line': {'n': 3, 'seat': 1, 'text': 'hi'}}, None)
    """
    if message.get("type") != "chat":
        return message

    def unsaid(line: Line) -> Line:
        return {key: value for key, value in line.items() if key != SPEAKER}

    if "line" in message:
        line = message["line"]
        return None if line.get(SPEAKER) in listener.muted else message | {"line": unsaid(line)}
    kept = [unsaid(line) for line in message.get("lines", ()) if line.get(SPEAKER) not in listener.muted]
    return message | {"lines": kept}


@dataclass(slots=True)
class SentLines:
    """The chat lines one connection was sent, so that it is sent none twice and misses none.

    >>> sent = SentLines()
    >>> sent.live({"n": 7}), sent.kept({"type": "chat", "lines": [{"n": 6}, {"n": 7}]})
    (True, {'type': 'chat', 'lines': [{'n': 6}]})
    >>> sent.live({"n": 6}), sent.live({"n": 8})  # line 6 was among the kept ones; line 8 is new
    (False, True)
    """

    heard_live: set[int] | None = field(default_factory=set)
    """The lines heard live before the kept ones were sent (``None``: they were)."""
    sent_kept: frozenset[int] = frozenset()
    """The kept lines sent (at most :data:`KEPT`)."""

    def live(self, line: Line) -> bool:
        """Whether a line heard live is to be sent: not when it was sent among the kept lines."""
        if self.heard_live is not None:
            self.heard_live.add(line["n"])
            return True
        return line["n"] not in self.sent_kept

    def kept(self, message: dict[str, Any]) -> dict[str, Any]:
        """The kept lines (a ``chat`` message of ``lines``) less those heard live already; from now on a line
        heard live is sent unless it is among them."""
        already, self.heard_live = self.heard_live or set(), None
        lines = [line for line in message["lines"] if line["n"] not in already]
        self.sent_kept = frozenset(line["n"] for line in lines)
        return message | {"lines": lines}

    def greeted(self) -> None:
        """The greeting is over (with kept lines or without: none were kept, or they could not be read)."""
        self.heard_live = None


@dataclass(slots=True)
class KeptLines:
    """A table's kept lines as last read from storage, for the clients connecting next."""

    lines: list[Line] | None = None
    """``None``: read them again."""
    changes: int = 0
    """Lines said since the table was loaded (a read begun before one is not kept)."""

    def heard(self, notice: dict[str, Any]) -> None:
        """A notice went to the table's clients: a chat line makes the kept lines stale."""
        if notice.get("type") == "chat":
            self.lines = None
            self.changes += 1


def checked_text(text: str) -> str:
    """The line as it will be shown (outer spaces trimmed); raises :class:`~.refusals.Refusal` unless it is
    one line of 1 to :data:`MAX_CHARS` printable characters."""
    text = text.strip()
    if not text or len(text) > MAX_CHARS or not text.isprintable():
        said = Said.of(Code.ERROR_CHAT_LINE, limit=MAX_CHARS)
        raise Refusal.invalid(said, text=f"a chat line is one line of 1 to {MAX_CHARS} printable characters")
    return text


def line_of(
    number: int, seat: int | None, text: str | None, reaction: str | None, at: datetime, speaker: int | None = None
) -> Line:
    """A line as the protocol sends it: ``text``, or a reaction's message ``code``, when it was said (``at``,
    seconds since the epoch: the page shows the time of each line), and, until it is sent, its ``speaker``."""
    line: Line = {"n": number, "seat": seat, "spectator": seat is None, "at": round(aware(at).timestamp())}
    if speaker is not None:
        line[SPEAKER] = speaker
    if reaction is not None:
        return line | {"code": f"chat.reaction.{reaction}"}
    return line | {"text": text}


async def store(
    storage: Storage,
    code: str,
    seat: int | None,
    text: str | None,
    reaction: str | None,
    at: datetime,
    speaker: int | None = None,
) -> Line:
    """Number and store one line said at ``at``, dropping the table's lines older than the last :data:`KEPT`."""
    newest = sa.select(sa.func.coalesce(sa.func.max(chat_lines.c.number), 0)).where(chat_lines.c.table_code == code)
    for attempt in range(NUMBER_RETRIES):
        try:
            async with storage.transaction() as conn:
                number = int((await conn.execute(newest)).scalar_one()) + 1
                row = {"table_code": code, "number": number, "seat": seat, "text": text, "reaction": reaction}
                row["speaker"] = speaker
                await conn.execute(chat_lines.insert().values(**row, at=at))
                old = (chat_lines.c.table_code == code) & (chat_lines.c.number <= number - KEPT)
                await conn.execute(chat_lines.delete().where(old))
            return line_of(number, seat, text, reaction, at, speaker)
        except sa.exc.IntegrityError:
            if attempt == NUMBER_RETRIES - 1:
                raise Refusal.busy(Said.of(Code.ERROR_CHAT_NOT_STORED)) from None
    raise AssertionError("unreachable")


async def recent(storage: Storage, code: str) -> list[Line]:
    """The table's kept lines, oldest first."""
    query = (
        sa.select(chat_lines.c.number, chat_lines.c.seat, chat_lines.c.text, chat_lines.c.reaction, chat_lines.c.at)
        .add_columns(chat_lines.c.speaker)
        .where(chat_lines.c.table_code == code)
        .order_by(chat_lines.c.number)
    )
    async with storage.reading() as conn:
        return [line_of(*row) for row in await conn.execute(query)]


async def carry(storage: Storage, old: str, new: str) -> None:
    """Copy table ``old``'s kept lines to table ``new`` (its rematch), numbers and all: the talk goes on there."""
    columns = ["table_code", "number", "seat", "text", "reaction", "at", "speaker"]
    kept = sa.select(
        sa.literal(new, sa.String(16)),
        chat_lines.c.number,
        chat_lines.c.seat,
        chat_lines.c.text,
        chat_lines.c.reaction,
        chat_lines.c.at,
        chat_lines.c.speaker,
    ).where(chat_lines.c.table_code == old)
    async with storage.transaction() as conn:
        await conn.execute(chat_lines.insert().from_select(columns, kept))


async def say(
    table: ConfigPort, seat: int | None, request: ChatMessage | ReactMessage, speaker: int | None = None
) -> int:
    """Store one line from ``seat`` (``None``: a spectator), said by the account ``speaker`` (``None``: a
    guest), and publish it to the table; returns its number."""
    if not table.storage.available:
        raise Refusal.busy(Said.of(Code.ERROR_CHAT_UNAVAILABLE))
    text = None if isinstance(request, ReactMessage) else checked_text(request.text)
    reaction = request.reaction if isinstance(request, ReactMessage) else None
    try:
        line = await store(table.storage, table.code, seat, text, reaction, utc(table.clock), speaker)
    except StorageUnavailable:
        raise Refusal.busy(Said.of(Code.ERROR_CHAT_UNAVAILABLE)) from None
    await table.notify({"type": "chat", "line": line})
    return int(line["n"])


async def history(kept: KeptLines, storage: Storage, code: str) -> dict[str, Any]:
    """The ``chat`` message a client gets on connecting: the ``kept`` lines of table ``code`` (read
    once, until a line is said)."""
    if kept.lines is None:
        changes = kept.changes
        # Shielded: a client leaving mid-read must not cut the read off and lose its database connection.
        lines = await asyncio.shield(recent(storage, code))
        if kept.changes == changes:
            kept.lines = lines
        return {"type": "chat", "lines": lines}
    return {"type": "chat", "lines": kept.lines}

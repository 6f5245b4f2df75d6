"""What a client's message asks of its table: the command it becomes, or its direct answer.

The page's WebSocket and the Bot API send the same messages (:mod:`.protocol`); both are handled
here, the same way, so a bot plays through the page's own path. A refusal is raised
(:class:`~chickenfoot.server.refusals.Refusal`); each transport answers it in its own form.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.commands import NextRound, Play, Rename, Say, TableHandle
from chickenfoot.server.table.hints import HintSource
from chickenfoot.server.table.protocol import (
    AnyClientMessage,
    ChatMessage,
    MoveMessage,
    NameMessage,
    NextRoundMessage,
    PingMessage,
    ReactMessage,
    hint_message,
)
from chickenfoot.view import SeatView

ChatGate = Callable[[str | None], Awaitable[Refusal | None]]
"""Judges one chat line before the table takes it: its text (``None``: a quick reaction); returns what
refuses it (a budget spent, a mute, a word of the chat filter), or ``None``."""
SeatChatGate = Callable[[int | None, str | None], Awaitable[Refusal | None]]
"""A :data:`ChatGate` told the seat the line is said from too (``None``: watching): a connection's, whose
composition root finds the account behind the seat (server/moderation)."""


class Asked(TableHandle, Protocol):
    """The table as a client's message reaches it: its commands, and what a hint is searched from."""

    def hint_view(self, seat: int | None) -> SeatView: ...


async def handle(
    table: Asked,
    seat: int | None,
    request: AnyClientMessage,
    chat_refusal: ChatGate,
    hint: HintSource,
    speaker: int | None = None,
) -> dict[str, Any] | None:
    """The reply to one client message of ``seat`` (``None`` when the reply is the broadcast state);
    ``speaker``: the account behind the client, kept with its chat lines."""
    if isinstance(request, PingMessage):
        return {"type": "pong"}
    if isinstance(request, ChatMessage | ReactMessage):
        if (refusal := await chat_refusal(request.text if isinstance(request, ChatMessage) else None)) is not None:
            raise refusal
        await table.submit(Say(seat, request, speaker))
        return None
    if isinstance(request, NextRoundMessage):
        await table.submit(NextRound(seat))
        return None
    if isinstance(request, MoveMessage):
        await table.submit(Play(seat, request.move, request.version))
        return None
    if isinstance(request, NameMessage):
        await table.submit(Rename(seat, request.name))
        return None
    move, why = await hint(table.hint_view(seat))
    return hint_message(move, why)

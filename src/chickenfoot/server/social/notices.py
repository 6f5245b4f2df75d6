"""What a player is told about challenges, and the in-app list that keeps it.

The challenges tell through a :class:`Tell` port, built at the composition root: a challenge received
(:class:`ChallengeReceived`), one's own challenge answered (:class:`ChallengeAnswered`: accepted,
declined or expired). :class:`Inbox` is the in-app list: each notice is a row of the player's own,
read by their lobby and friends page (``GET /api/social/news``) until they dismiss it or act on it; a
challenge received leaves the list by itself once it is no longer open.

A notice carries names chosen by players, a player count, whether the table is rated, an answer
and a table's code: nothing anyone may not see.

>>> ChallengeReceived(7, by="Ann", players=2, rated=True).params()
{'name': 'Ann', 'players': 2, 'rated': True}
>>> ChallengeAnswered(7, by="Bo", answer="declined").params()
{'name': 'Bo', 'answer': 'declined'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Literal, Protocol

import sqlalchemy as sa

from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.social.schema import challenges, notices
from chickenfoot.server.storage import Storage, aware

Answer = Literal["accepted", "declined", "expired"]
MAX_LISTED = 50
"""Notices one answer lists at most, the newest first."""


@dataclass(frozen=True, slots=True)
class ChallengeReceived:
    """Someone (``by``) challenges the player to a table of ``players``."""

    challenge: int
    by: str
    players: int
    rated: bool
    kind: ClassVar[str] = "challenge"

    def params(self) -> dict[str, Any]:
        return {"name": self.by, "players": self.players, "rated": self.rated}


@dataclass(frozen=True, slots=True)
class ChallengeAnswered:
    """The player's challenge of ``by`` was accepted (``table``: where), declined, or expired unanswered."""

    challenge: int
    by: str
    answer: Answer
    table: str | None = None
    kind: ClassVar[str] = "answer"

    def params(self) -> dict[str, Any]:
        return {"name": self.by, "answer": self.answer} | ({} if self.table is None else {"table": self.table})


Notice = ChallengeReceived | ChallengeAnswered


class Tell(Protocol):
    """The port: tell an account something."""

    async def tell(self, account_id: int, notice: Notice) -> None: ...


class Inbox:
    """The in-app list: every notice kept for its account until seen."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage, self.clock = storage, clock

    async def tell(self, account_id: int, notice: Notice) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(
                notices.insert().values(
                    account_id=account_id,
                    kind=notice.kind,
                    challenge_id=notice.challenge,
                    params=json.dumps(notice.params()),
                    created_at=utc(self.clock),
                )
            )

    async def unseen(self, account_id: int, now: datetime) -> list[dict[str, Any]]:
        """The account's notices not seen yet, the newest first; a challenge received is listed while it
        is open (pending, not expired)."""
        open_challenge = (challenges.c.status == "pending") & (challenges.c.expires_at > now)
        query = (
            sa.select(notices.c.id, notices.c.kind, notices.c.challenge_id, notices.c.params, notices.c.created_at)
            .select_from(notices.join(challenges, challenges.c.id == notices.c.challenge_id))
            .where(
                notices.c.account_id == account_id,
                ~notices.c.seen,
                (notices.c.kind != ChallengeReceived.kind) | open_challenge,
            )
            .order_by(notices.c.id.desc())
            .limit(MAX_LISTED)
        )
        async with self.storage.reading() as conn:
            return [
                {
                    "id": row.id,
                    "kind": row.kind,
                    "challenge": row.challenge_id,
                    "at": aware(row.created_at).isoformat(timespec="seconds"),
                }
                | json.loads(row.params)
                for row in await conn.execute(query)
            ]

    async def dismiss(self, account_id: int, notice_id: int) -> bool:
        """The player saw the notice: it leaves their list (``False``: no such notice of theirs)."""
        mine = (notices.c.id == notice_id) & (notices.c.account_id == account_id)
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(notices.update().where(mine).values(seen=True))).rowcount)

    async def seen_about(self, account_id: int, challenge_id: int) -> None:
        """Every notice of the account about the challenge is seen (it acted on it)."""
        mine = (notices.c.account_id == account_id) & (notices.c.challenge_id == challenge_id)
        async with self.storage.transaction() as conn:
            await conn.execute(notices.update().where(mine).values(seen=True))

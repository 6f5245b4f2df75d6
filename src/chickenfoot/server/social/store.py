"""The queries of follows, blocks, privacy choices and presence: one method per question or change,
each its own transaction. Accounts deleted since are never listed."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.social.schema import blocks, challenges, follows, presence, privacy
from chickenfoot.server.storage import Storage, aware, chat_lines, game_tables


class Audience(StrEnum):
    """Who may do something to an account (challenge it, see whether it is online)."""

    EVERYONE = "everyone"
    FRIENDS = "friends"
    """The players the account follows."""
    NOBODY = "nobody"


@dataclass(frozen=True, slots=True)
class Choices:
    """An account's privacy: who may challenge it, who may see whether it is online and where it plays."""

    challenges: Audience = Audience.EVERYONE
    status: Audience = Audience.EVERYONE

    def allows(self, what: str, follows_them: bool) -> bool:
        """Whether someone the account follows (``follows_them``) or not may do ``what`` (a field's name)."""
        audience: Audience = getattr(self, what)
        return audience is Audience.EVERYONE or (audience is Audience.FRIENDS and follows_them)


@dataclass(frozen=True, slots=True)
class Listed:
    """An account in one of a player's lists (followed, blocked) and since when."""

    account_id: int
    username: str
    since: datetime
    bot: bool = False


class Capped(LookupError):
    """A list is full (a ``LookupError``, so the storage rolls back as a refusal, not as an outage)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit}")
        self.limit = limit


def _pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


LIVE = ~accounts.c.deleted & accounts.c.username.is_not(None)


class SocialStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # --- accounts by name -----------------------------------------------------------------------

    async def usernames(self, account_ids: Iterable[int]) -> dict[int, str]:
        """The names of those of ``account_ids`` not deleted."""
        wanted = list(set(account_ids))
        if not wanted:
            return {}
        query = sa.select(accounts.c.id, accounts.c.username).where(accounts.c.id.in_(wanted), LIVE)
        async with self.storage.reading() as conn:
            return {int(row.id): str(row.username) for row in await conn.execute(query)}

    async def is_bot(self, account_id: int) -> bool:
        query = sa.select(accounts.c.bot).where(accounts.c.id == account_id)
        async with self.storage.reading() as conn:
            return bool((await conn.execute(query)).scalar())

    async def seated_accounts(self, code: str) -> dict[int, int]:
        """Seat → account of every seat of table ``code`` that follows an account not deleted."""
        query = (
            sa.select(account_seats.c.seat, account_seats.c.account_id)
            .select_from(account_seats.join(accounts, accounts.c.id == account_seats.c.account_id))
            .where(account_seats.c.table_code == code, LIVE)
        )
        async with self.storage.reading() as conn:
            return {int(seat): int(account) for seat, account in await conn.execute(query)}

    async def may_name_at(self, code: str, account_id: int) -> bool:
        """Whether the account holds a seat at table ``code``, or the table's match is over."""
        seated = sa.exists().where(account_seats.c.table_code == code, account_seats.c.account_id == account_id)
        over = sa.exists().where(game_tables.c.code == code, game_tables.c.over.is_(True))
        async with self.storage.reading() as conn:
            return bool((await conn.execute(sa.select(seated | over))).scalar())

    async def speaker_of(self, code: str, line: int) -> int | None:
        """The account that said chat line ``line`` of table ``code`` (a line kept from before speakers
        were: its seat's account), or ``None``."""
        seated = sa.select(account_seats.c.account_id).where(
            account_seats.c.table_code == code, account_seats.c.seat == chat_lines.c.seat
        )
        query = sa.select(sa.func.coalesce(chat_lines.c.speaker, seated.scalar_subquery())).where(
            chat_lines.c.table_code == code, chat_lines.c.number == line
        )
        async with self.storage.reading() as conn:
            found = (await conn.execute(query)).scalar()
        return None if found is None else int(found)

    # --- follows ----------------------------------------------------------------------------------

    async def follow(self, follower: int, followed: int, at: datetime, cap: int) -> bool:
        """``follower`` follows ``followed`` (``False``: already did); raises :class:`Capped` past ``cap``."""
        async with self.storage.transaction() as conn:
            mine = follows.c.follower_id == follower
            if await self._exists(conn, mine & (follows.c.followed_id == followed)):
                return False
            if await self._count(conn, follows, mine) >= cap:
                raise Capped(cap)
            await conn.execute(follows.insert().values(follower_id=follower, followed_id=followed, created_at=at))
        return True

    async def unfollow(self, follower: int, followed: int) -> bool:
        key = (follows.c.follower_id == follower) & (follows.c.followed_id == followed)
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(follows.delete().where(key))).rowcount)

    async def following(self, follower: int) -> list[Listed]:
        """The players ``follower`` follows, by name."""
        return await self._listed(follows, follows.c.follower_id, follows.c.followed_id, follower)

    async def follows(self, follower: int, followed: int) -> bool:
        key = (follows.c.follower_id == follower) & (follows.c.followed_id == followed)
        async with self.storage.reading() as conn:
            return await self._exists(conn, key)

    async def followers_among(self, followed: int, candidates: Collection[int]) -> set[int]:
        """Those of ``candidates`` who follow ``followed``."""
        if not candidates:
            return set()
        query = sa.select(follows.c.follower_id).where(
            follows.c.followed_id == followed, follows.c.follower_id.in_(list(candidates))
        )
        async with self.storage.reading() as conn:
            return {int(row[0]) for row in await conn.execute(query)}

    # --- blocks -----------------------------------------------------------------------------------

    async def block(self, blocker: int, blocked: int, at: datetime, cap: int) -> bool:
        """``blocker`` blocks ``blocked`` and stops following them (``False``: blocked already); raises
        :class:`Capped` past ``cap``."""
        async with self.storage.transaction() as conn:
            mine = blocks.c.blocker_id == blocker
            if await self._exists(conn, mine & (blocks.c.blocked_id == blocked)):
                return False
            if await self._count(conn, blocks, mine) >= cap:
                raise Capped(cap)
            await conn.execute(blocks.insert().values(blocker_id=blocker, blocked_id=blocked, created_at=at))
            unfollowed = (follows.c.follower_id == blocker) & (follows.c.followed_id == blocked)
            await conn.execute(follows.delete().where(unfollowed))
        return True

    async def unblock(self, blocker: int, blocked: int) -> bool:
        key = (blocks.c.blocker_id == blocker) & (blocks.c.blocked_id == blocked)
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(blocks.delete().where(key))).rowcount)

    async def blocked_by(self, blocker: int) -> list[Listed]:
        """The players ``blocker`` blocks, by name."""
        return await self._listed(blocks, blocks.c.blocker_id, blocks.c.blocked_id, blocker)

    async def blocks(self, blocker: int, blocked: int) -> bool:
        key = (blocks.c.blocker_id == blocker) & (blocks.c.blocked_id == blocked)
        async with self.storage.reading() as conn:
            return await self._exists(conn, key)

    async def blockers_among(self, blocked: int, candidates: Collection[int]) -> set[int]:
        """Those of ``candidates`` who block ``blocked``."""
        if not candidates:
            return set()
        query = sa.select(blocks.c.blocker_id).where(
            blocks.c.blocked_id == blocked, blocks.c.blocker_id.in_(list(candidates))
        )
        async with self.storage.reading() as conn:
            return {int(row[0]) for row in await conn.execute(query)}

    async def muted_by(self, blocker: int) -> frozenset[int]:
        """Every account ``blocker`` blocks (deleted ones too: their lines stay unheard)."""
        query = sa.select(blocks.c.blocked_id).where(blocks.c.blocker_id == blocker)
        async with self.storage.reading() as conn:
            return frozenset(int(row[0]) for row in await conn.execute(query))

    async def blocked_at(self, code: str, blocked: int) -> bool:
        """Whether an account seated at table ``code`` blocks ``blocked``."""
        seated_blocker = (account_seats.c.account_id == blocks.c.blocker_id) & (account_seats.c.table_code == code)
        async with self.storage.reading() as conn:
            return await self._exists(conn, seated_blocker & (blocks.c.blocked_id == blocked))

    @staticmethod
    async def blocked_pairs(conn: AsyncConnection, among: Collection[int]) -> set[frozenset[int]]:
        """The pairs of ``among`` with a block between them, either way (quick play keeps them apart), read
        in the caller's transaction ``conn``."""
        if len(among) < 2:
            return set()
        wanted = list(among)
        query = sa.select(blocks.c.blocker_id, blocks.c.blocked_id).where(
            blocks.c.blocker_id.in_(wanted), blocks.c.blocked_id.in_(wanted)
        )
        return {_pair(int(a), int(b)) for a, b in await conn.execute(query)}

    # --- privacy ----------------------------------------------------------------------------------

    async def choices(self, account_id: int) -> Choices:
        return (await self.choices_of([account_id])).get(account_id, Choices())

    async def choices_of(self, account_ids: Collection[int]) -> dict[int, Choices]:
        """The choices of those of ``account_ids`` who changed the defaults."""
        if not account_ids:
            return {}
        query = sa.select(privacy).where(privacy.c.account_id.in_(list(account_ids)))
        async with self.storage.reading() as conn:
            return {
                int(row.account_id): Choices(Audience(row.challenges), Audience(row.status))
                for row in await conn.execute(query)
            }

    async def choose(self, account_id: int, choices: Choices) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(privacy.delete().where(privacy.c.account_id == account_id))
            await conn.execute(
                privacy.insert().values(
                    account_id=account_id, challenges=choices.challenges.value, status=choices.status.value
                )
            )

    # --- presence ---------------------------------------------------------------------------------

    async def seen(self, account_id: int, at: datetime) -> None:
        """The account's lobby or friends page asked for its news at ``at``."""
        insert = (sqlite.insert if self.storage.is_sqlite else postgresql.insert)(presence)
        upsert = insert.values(account_id=account_id, seen_at=at).on_conflict_do_update(
            index_elements=[presence.c.account_id], set_={"seen_at": at}
        )
        async with self.storage.transaction() as conn:
            await conn.execute(upsert)

    async def seen_since(self, account_ids: Collection[int], since: datetime) -> set[int]:
        """Those of ``account_ids`` whose pages asked for news since ``since``."""
        if not account_ids:
            return set()
        query = sa.select(presence.c.account_id).where(
            presence.c.account_id.in_(list(account_ids)), presence.c.seen_at >= since
        )
        async with self.storage.reading() as conn:
            return {int(row[0]) for row in await conn.execute(query)}

    async def unfinished_seats(self, account_ids: Collection[int], since: datetime) -> list[tuple[int, str, int]]:
        """(account, table, seat) of each seat the accounts hold at tables made since ``since`` whose match
        is not over, the newest table first."""
        if not account_ids:
            return []
        joined = account_seats.join(game_tables, game_tables.c.code == account_seats.c.table_code)
        query = (
            sa.select(account_seats.c.account_id, account_seats.c.table_code, account_seats.c.seat)
            .select_from(joined)
            .where(
                account_seats.c.account_id.in_(list(account_ids)),
                game_tables.c.over.is_(False),
                game_tables.c.created_at >= since,
            )
            .order_by(game_tables.c.created_at.desc())
        )
        async with self.storage.reading() as conn:
            return [(int(account), str(code), int(seat)) for account, code, seat in await conn.execute(query)]

    # --- an account deleted -----------------------------------------------------------------------

    async def forget(self, conn: AsyncConnection, account_id: int) -> None:
        """Everything of a deleted account but the reports, in the transaction that deletes it (``conn``):
        its follows and blocks either way, its choices, presence and challenges."""
        for table, columns in (
            (challenges, (challenges.c.challenger_id, challenges.c.challenged_id)),
            (follows, (follows.c.follower_id, follows.c.followed_id)),
            (blocks, (blocks.c.blocker_id, blocks.c.blocked_id)),
            (privacy, (privacy.c.account_id,)),
            (presence, (presence.c.account_id,)),
        ):
            await conn.execute(table.delete().where(sa.or_(*(column == account_id for column in columns))))

    # --- helpers ----------------------------------------------------------------------------------

    async def _listed(self, table: sa.Table, mine: sa.Column[Any], theirs: sa.Column[Any], me: int) -> list[Listed]:
        query = (
            sa.select(theirs, accounts.c.username, accounts.c.bot, table.c.created_at)
            .select_from(table.join(accounts, accounts.c.id == theirs))
            .where(mine == me, LIVE)
            .order_by(sa.func.lower(accounts.c.username))
        )
        async with self.storage.reading() as conn:
            return [
                Listed(int(row[0]), str(row.username), aware(row.created_at), bool(row.bot))
                for row in await conn.execute(query)
            ]

    @staticmethod
    async def _exists(conn: Any, condition: sa.ColumnElement[bool]) -> bool:
        return bool((await conn.execute(sa.select(sa.exists().where(condition)))).scalar())

    @staticmethod
    async def _count(conn: Any, table: sa.Table, condition: sa.ColumnElement[bool]) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(table).where(condition))).scalar_one())

"""The Bot API's queries: personal API tokens of bot accounts, bot accounts (marking one, listing them)
and invitations of bot accounts to seats.

A token is ``cfb_`` and a 32-byte random secret (base64url); storage keeps its SHA-256 digest only, so a
token is found by the digest of what a program presents (``Authorization: Bearer ...``), and nobody,
the server included, can show it again. Each token carries scopes: what the Bot API lets it do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.botapi.schema import api_tokens, bot_invitations
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest, new_secret
from chickenfoot.server.ratings.model import FAMILIES, Family, Rating
from chickenfoot.server.ratings.schema import ratings
from chickenfoot.server.storage import Storage, aware

PREFIX = "cfb_"
SCOPES = ("bot:play", "table:create", "chat")
"""``bot:play``: the event streams, seat views, moves, accepting and declining invitations;
``table:create``: new tables; ``chat``: chat lines at its tables."""
MAX_TOKENS = 20
"""Live tokens per account."""


@dataclass(frozen=True, slots=True)
class Token:
    id: int
    account_id: int
    label: str
    scopes: frozenset[str]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Bearer:
    """Who presented a token: its account (a bot account, by name) and the token's own facts."""

    account_id: int
    username: str
    token: Token
    digest: str
    """The token's digest: what its revocation is announced by (its streams end)."""


def new_token() -> str:
    """A fresh token: the prefix (so scanners and people recognise it) and a 256-bit secret."""
    return PREFIX + new_secret()


def _token(row: Any) -> Token:
    return Token(row.id, row.account_id, row.label, frozenset(row.scopes.split()), aware(row.created_at))


class TokenStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def mint(self, account_id: int, label: str, scopes: frozenset[str], at: datetime) -> tuple[Token, str] | None:
        """A new token and its secret (only its digest is stored), or ``None`` when the account has
        :data:`MAX_TOKENS` already."""
        secret = new_token()
        async with self.storage.transaction() as conn:
            count = await conn.execute(
                sa.select(sa.func.count()).select_from(api_tokens).where(api_tokens.c.account_id == account_id)
            )
            if int(count.scalar_one()) >= MAX_TOKENS:
                return None
            row = {"digest": digest(secret), "account_id": account_id, "label": label, "created_at": at}
            inserted = await conn.execute(
                api_tokens.insert().values(scopes=" ".join(sorted(scopes)), **row).returning(api_tokens.c.id)
            )
        return Token(int(inserted.scalar_one()), account_id, label, scopes, at), secret

    async def of(self, account_id: int) -> list[Token]:
        query = sa.select(api_tokens).where(api_tokens.c.account_id == account_id).order_by(api_tokens.c.id)
        async with self.storage.reading() as conn:
            return [_token(row) for row in await conn.execute(query)]

    async def revoke(self, account_id: int, token_id: int) -> str | None:
        """Delete the account's token ``token_id``; its digest (``None``: no such token)."""
        query = api_tokens.delete().where(api_tokens.c.account_id == account_id, api_tokens.c.id == token_id)
        async with self.storage.transaction() as conn:
            return (await conn.execute(query.returning(api_tokens.c.digest))).scalar()

    async def bearer(self, secret: str) -> Bearer | None:
        """The live bot account and token a presented secret names, or ``None``."""
        if not secret.startswith(PREFIX) or len(secret) > MAX_SECRET_LENGTH:
            return None
        query = (
            sa.select(api_tokens, accounts.c.username)
            .select_from(api_tokens.join(accounts, accounts.c.id == api_tokens.c.account_id))
            .where(api_tokens.c.digest == digest(secret), accounts.c.bot, ~accounts.c.deleted)
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else Bearer(row.account_id, row.username, _token(row), row.digest)


@dataclass(frozen=True, slots=True)
class Invitation:
    code: str
    seat: int
    account_id: int
    inviter: str | None
    """The inviting account's name (``None``: a guest invited): never a name typed at the table, which
    anyone could choose."""


class BotStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def make_bot(self, username: str) -> bool | None:
        """Mark an account as a bot account: ``True`` done (or it was one), ``False`` refused (it has
        sat at a table as a person), ``None`` no such account."""
        async with self.storage.transaction() as conn:
            named = accounts.c.skeleton == skeleton(normalised(username))
            row = (await conn.execute(sa.select(accounts.c.id).where(named, ~accounts.c.deleted))).first()
            return None if row is None else await self._made_bot(conn, int(row.id))

    async def make_bot_of(self, account_id: int) -> bool:
        """:meth:`make_bot` for the account ``account_id``: ``False`` when it has sat at a table as a person."""
        async with self.storage.transaction() as conn:
            return await self._made_bot(conn, account_id)

    async def has_sat(self, account_id: int) -> bool:
        """Whether the account has ever sat at a table (as a person: a bot account never sits by a page)."""
        async with self.storage.reading() as conn:
            return await self._has_sat(conn, account_id)

    @staticmethod
    async def _has_sat(conn: AsyncConnection, account_id: int) -> bool:
        seats = sa.select(account_seats.c.seat).where(account_seats.c.account_id == account_id).limit(1)
        return (await conn.execute(seats)).first() is not None

    async def _made_bot(self, conn: AsyncConnection, account_id: int) -> bool:
        if await self._has_sat(conn, account_id):
            return bool((await conn.execute(sa.select(accounts.c.bot).where(accounts.c.id == account_id))).scalar())
        await conn.execute(accounts.update().where(accounts.c.id == account_id).values(bot=True))
        return True

    async def bot_named(self, username: str) -> tuple[int, str] | None:
        """The id and name of the bot account called ``username`` (or a look-alike of it)."""
        query = sa.select(accounts.c.id, accounts.c.username).where(
            accounts.c.skeleton == skeleton(normalised(username)), accounts.c.bot, ~accounts.c.deleted
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row.id), str(row.username))

    async def bots(self, limit: int = 200) -> list[tuple[int, str, dict[Family, Rating]]]:
        """The bot accounts' ids and names, alphabetically, each with its ratings (in the families it has one)."""
        names = sa.select(accounts.c.id, accounts.c.username).where(accounts.c.bot, ~accounts.c.deleted)
        listed = names.order_by(accounts.c.username).limit(limit).subquery()
        query = (
            sa.select(
                listed.c.id, listed.c.username, ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.matches
            )
            .select_from(listed.outerjoin(ratings, ratings.c.account_id == listed.c.id))
            .order_by(listed.c.username)
        )
        found: dict[tuple[int, str], dict[Family, Rating]] = {}
        async with self.storage.reading() as conn:
            for row in await conn.execute(query):
                rated = found.setdefault((int(row.id), str(row.username)), {})
                for family in FAMILIES:
                    if row.family == family:
                        rated[family] = Rating(float(row.mu), float(row.sigma), int(row.matches))
        return [(account_id, name, rated) for (account_id, name), rated in found.items()]

    async def bot_seats(self, code: str) -> list[tuple[int, int]]:
        """The (seat, account id) of every bot account seated at table ``code``."""
        query = (
            sa.select(account_seats.c.seat, account_seats.c.account_id)
            .select_from(account_seats.join(accounts, accounts.c.id == account_seats.c.account_id))
            .where(account_seats.c.table_code == code, accounts.c.bot)
        )
        async with self.storage.reading() as conn:
            return [(int(seat), int(account)) for seat, account in await conn.execute(query)]

    # --- invitations ------------------------------------------------------------------------------

    async def invite(self, invitation: Invitation, at: datetime) -> None:
        """Invite a bot account to a seat (replacing an earlier invitation to that seat)."""
        key = (bot_invitations.c.table_code == invitation.code) & (bot_invitations.c.seat == invitation.seat)
        async with self.storage.transaction() as conn:
            await conn.execute(bot_invitations.delete().where(key))
            await conn.execute(
                bot_invitations.insert().values(
                    table_code=invitation.code,
                    seat=invitation.seat,
                    account_id=invitation.account_id,
                    inviter=invitation.inviter,
                    created_at=at,
                )
            )

    async def take_invitation(self, code: str, account_id: int) -> Invitation | None:
        """Remove and return the account's invitation to table ``code`` (``None``: none, or another
        process took it)."""
        key = (bot_invitations.c.table_code == code) & (bot_invitations.c.account_id == account_id)
        async with self.storage.transaction() as conn:
            row = (await conn.execute(sa.select(bot_invitations).where(key).limit(1))).first()
            if row is None:
                return None
            taken = await conn.execute(bot_invitations.delete().where(key, bot_invitations.c.seat == row.seat))
            if taken.rowcount != 1:
                return None
        return Invitation(row.table_code, int(row.seat), int(row.account_id), row.inviter)

    async def withdraw_invitations(self, code: str) -> list[Invitation]:
        """Remove and return every invitation to table ``code`` (its creator called it off)."""
        key = bot_invitations.c.table_code == code
        async with self.storage.transaction() as conn:
            rows = (await conn.execute(bot_invitations.delete().where(key).returning(*bot_invitations.c))).all()
        return [Invitation(row.table_code, int(row.seat), int(row.account_id), row.inviter) for row in rows]

    async def account_at(self, code: str, seat: int) -> tuple[int, str] | None:
        """The id and name of the account holding ``seat`` of table ``code`` (a bot's or a person's), if any."""
        query = (
            sa.select(accounts.c.id, accounts.c.username)
            .select_from(account_seats.join(accounts, accounts.c.id == account_seats.c.account_id))
            .where(account_seats.c.table_code == code, account_seats.c.seat == seat, ~accounts.c.deleted)
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row.id), str(row.username))

    async def invitations_of(self, account_id: int, limit: int = 50) -> list[Invitation]:
        query = (
            sa.select(bot_invitations)
            .where(bot_invitations.c.account_id == account_id)
            .order_by(bot_invitations.c.created_at)
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            return [
                Invitation(row.table_code, int(row.seat), int(row.account_id), row.inviter)
                for row in await conn.execute(query)
            ]

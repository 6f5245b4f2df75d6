"""The Bot API's queries: bot accounts (marking one, listing them) and invitations of bot accounts to seats."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.schema import account_seats, accounts, bot_invitations
from chickenfoot.server.ratings.model import FAMILIES, Family, Rating
from chickenfoot.server.ratings.schema import ratings
from chickenfoot.server.storage import Storage


@dataclass(frozen=True, slots=True)
class Invitation:
    code: str
    seat: int
    account_id: int
    inviter: str | None


class BotStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def make_bot(self, username: str) -> bool | None:
        """Mark an account as a bot account: ``True`` done (or it was one), ``False`` refused (it has
        sat at a table as a person), ``None`` no such account."""
        async with self.storage.transaction() as conn:
            query = sa.select(accounts.c.id, accounts.c.bot).where(
                accounts.c.skeleton == skeleton(normalised(username)), ~accounts.c.deleted
            )
            row = (await conn.execute(query)).first()
            if row is None:
                return None
            if row.bot:
                return True
            seats = sa.select(account_seats.c.seat).where(account_seats.c.account_id == row.id).limit(1)
            if (await conn.execute(seats)).first() is not None:
                return False
            await conn.execute(accounts.update().where(accounts.c.id == row.id).values(bot=True))
            return True

    async def bot_named(self, username: str) -> tuple[int, str] | None:
        """The id and name of the bot account called ``username`` (or a look-alike of it)."""
        query = sa.select(accounts.c.id, accounts.c.username).where(
            accounts.c.skeleton == skeleton(normalised(username)), accounts.c.bot, ~accounts.c.deleted
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row.id), str(row.username))

    async def bots(self, limit: int = 200) -> list[tuple[str, dict[Family, Rating]]]:
        """The bot accounts' names, alphabetically, each with its ratings (in the families it has one)."""
        names = sa.select(accounts.c.id, accounts.c.username).where(accounts.c.bot, ~accounts.c.deleted)
        listed = names.order_by(accounts.c.username).limit(limit).subquery()
        query = (
            sa.select(listed.c.username, ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
            .select_from(listed.outerjoin(ratings, ratings.c.account_id == listed.c.id))
            .order_by(listed.c.username)
        )
        found: dict[str, dict[Family, Rating]] = {}
        async with self.storage.reading() as conn:
            for row in await conn.execute(query):
                rated = found.setdefault(str(row.username), {})
                for family in FAMILIES:
                    if row.family == family:
                        rated[family] = Rating(float(row.mu), float(row.sigma), int(row.matches))
        return list(found.items())

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

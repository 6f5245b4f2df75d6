"""The accounts' queries: one method per question or change, each its own transaction."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.names import NAME_HELD, keys, skeleton
from chickenfoot.server.accounts.schema import (
    DEVICE_PURPOSE,
    account_seats,
    accounts,
    challenges,
    name_keys,
    passkeys,
    passwords,
    sessions,
)
from chickenfoot.server.storage import Storage, aware
from chickenfoot.server.table.config import TableConfig


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    username: str
    user_handle: str
    created_at: datetime
    bot: bool = False
    """A bot account: it plays through the Bot API only."""
    operator: bool = False
    """An operator: reaches the moderation pages (server/moderation)."""


@dataclass(frozen=True, slots=True)
class Passkey:
    credential_id: str
    account_id: int
    public_key: bytes
    sign_count: int
    transports: list[str]
    label: str
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True, slots=True)
class Session:
    digest: str
    account_id: int
    created_at: datetime
    last_seen: datetime
    idle_expires_at: datetime
    expires_at: datetime
    user_agent: str


Forgetter = Callable[[AsyncConnection, int], Awaitable[None]]
"""Deletes a feature's rows of an account, in the transaction that deletes the account (``conn, account_id``)."""


class LastWayIn(Exception):
    """Removing this would leave the account without a way to sign in."""


def _account(row: Any) -> Account:
    return Account(row.id, row.username, row.user_handle, aware(row.created_at), bool(row.bot), bool(row.operator))


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.credential_id,
        row.account_id,
        bytes(row.public_key),
        row.sign_count,
        json.loads(row.transports),
        row.label,
        aware(row.created_at),
        None if row.last_used_at is None else aware(row.last_used_at),
    )


def _session(row: Any) -> Session:
    return Session(
        row.digest,
        row.account_id,
        aware(row.created_at),
        aware(row.last_seen),
        aware(row.idle_expires_at),
        aware(row.expires_at),
        row.user_agent,
    )


class AccountStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._forgetters: list[Forgetter] = []

    def forget_with(self, forgetter: Forgetter) -> None:
        """``forgetter`` keeps rows of accounts (the notifications' address, devices, notices): they go in
        the transaction that deletes an account."""
        self._forgetters.append(forgetter)

    # --- accounts ---------------------------------------------------------------------------------

    async def create(
        self, username: str, user_handle: str, at: datetime, password_hash: str | None = None
    ) -> Account | None:
        """A new account (with its password, if any); ``None`` when a look-alike name exists.

        The name's look-alike keys are rows with a unique key: of two processes creating look-alikes
        at once, one fails. A deleted account's keys are held until their time is up (``held_until``),
        then forgotten at the next sign-up.
        """
        try:
            async with self.storage.transaction() as conn:
                inserted = await conn.execute(
                    accounts.insert()
                    .values(username=username, skeleton=skeleton(username), user_handle=user_handle, created_at=at)
                    .returning(accounts.c.id)
                )
                account_id = int(inserted.scalar_one())
                await conn.execute(name_keys.delete().where(name_keys.c.held_until <= at))  # released names
                await conn.execute(name_keys.insert(), [{"key": k, "account_id": account_id} for k in keys(username)])
                if password_hash is not None:
                    await conn.execute(
                        passwords.insert().values(account_id=account_id, hash=password_hash, updated_at=at)
                    )
        except sa.exc.IntegrityError:
            return None
        return Account(account_id, username, user_handle, at)

    async def _one(self, condition: Any) -> Account | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(accounts).where(condition, ~accounts.c.deleted))).first()
        return None if row is None else _account(row)

    async def by_skeleton(self, skeleton: str) -> Account | None:
        return await self._one(accounts.c.skeleton == skeleton)

    async def look_alike_exists(self, username: str, at: datetime) -> bool:
        """Whether an account has a name like ``username``, or had one until lately (deleted less than
        :data:`~chickenfoot.server.accounts.names.NAME_HELD` before ``at``)."""
        held = name_keys.c.held_until.is_(None) | (name_keys.c.held_until > at)
        async with self.storage.reading() as conn:
            query = sa.select(name_keys.c.key).where(name_keys.c.key.in_(keys(username)), held).limit(1)
            return (await conn.execute(query)).first() is not None

    async def by_id(self, account_id: int) -> Account | None:
        return await self._one(accounts.c.id == account_id)

    async def by_handle(self, user_handle: str) -> Account | None:
        return await self._one(accounts.c.user_handle == user_handle)

    async def sign_in_facts(self, skeleton: str) -> tuple[Account | None, str | None]:
        """The account of a name and its password hash, in one query whether the name exists or not."""
        query = (
            sa.select(accounts, passwords.c.hash)
            .select_from(accounts.outerjoin(passwords, passwords.c.account_id == accounts.c.id))
            .where(accounts.c.skeleton == skeleton, ~accounts.c.deleted)
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return (None, None) if row is None else (_account(row), row.hash)

    async def delete(self, account_id: int, at: datetime) -> None:
        """Every way in and every session go at once; the row stays, nameless, for the seats it sat in;
        the name's keys stay held for :data:`~chickenfoot.server.accounts.names.NAME_HELD` after ``at``."""
        async with self.storage.transaction() as conn:
            for table in (passwords, passkeys, sessions, challenges):
                await conn.execute(table.delete().where(table.c.account_id == account_id))
            mine = name_keys.c.account_id == account_id
            await conn.execute(name_keys.update().where(mine).values(held_until=at + NAME_HELD))
            for forget in self._forgetters:
                await forget(conn, account_id)
            nameless = {"deleted": True, "username": None, "skeleton": None}
            await conn.execute(accounts.update().where(accounts.c.id == account_id).values(**nameless))

    async def rename(self, account_id: int, username: str) -> bool:
        """An operator's rename of an account (server/moderation): ``username`` (normalised and allowed) is
        its name from now on. The old name's keys stay the account's, held as long as its own name's are
        (released :data:`~chickenfoot.server.accounts.names.NAME_HELD` after the account is deleted), so
        nobody takes the old name or a look-alike meanwhile. ``False``: a look-alike of ``username`` exists,
        or the account is deleted."""
        try:
            async with self.storage.transaction() as conn:
                live = (accounts.c.id == account_id) & ~accounts.c.deleted
                renamed = await conn.execute(
                    accounts.update().where(live).values(username=username, skeleton=skeleton(username))
                )
                if renamed.rowcount != 1:
                    return False
                mine = sa.select(name_keys.c.key).where(name_keys.c.account_id == account_id)
                held = {row.key for row in await conn.execute(mine)}
                new = [{"key": key, "account_id": account_id} for key in keys(username) - held]
                if new:
                    await conn.execute(name_keys.insert(), new)
        except sa.exc.IntegrityError:
            return False
        return True

    async def set_operator(self, skeleton: str, operator: bool) -> Account | None:
        """Grant (or revoke) the operator's role of the account whose name has ``skeleton``; the account as it
        is now, or ``None`` (no such account)."""
        async with self.storage.transaction() as conn:
            named = (accounts.c.skeleton == skeleton) & ~accounts.c.deleted
            await conn.execute(accounts.update().where(named).values(operator=operator))
            row = (await conn.execute(sa.select(accounts).where(named))).first()
        return None if row is None else _account(row)

    async def remove_ways_in(self, account_id: int) -> None:
        """An operator's reset: the password, the passkeys and the sessions go (the account stays)."""
        async with self.storage.transaction() as conn:
            for table in (passwords, passkeys, sessions):
                await conn.execute(table.delete().where(table.c.account_id == account_id))

    # --- passwords --------------------------------------------------------------------------------

    async def password_hash(self, account_id: int) -> str | None:
        async with self.storage.reading() as conn:
            query = sa.select(passwords.c.hash).where(passwords.c.account_id == account_id)
            return (await conn.execute(query)).scalar()

    async def set_password(self, account_id: int, password_hash: str, at: datetime) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(passwords.delete().where(passwords.c.account_id == account_id))
            await conn.execute(passwords.insert().values(account_id=account_id, hash=password_hash, updated_at=at))

    async def drop_password(self, account_id: int) -> None:
        """Raises :class:`LastWayIn` when the account has no passkey."""
        async with self.storage.transaction() as conn:
            last = not await self._passkey_count(conn, account_id)
            if not last:
                await conn.execute(passwords.delete().where(passwords.c.account_id == account_id))
        if last:  # raised outside: inside, storage would take any exception for an outage
            raise LastWayIn

    # --- passkeys ---------------------------------------------------------------------------------

    async def _passkey_count(self, conn: Any, account_id: int) -> int:
        query = sa.select(sa.func.count()).select_from(passkeys).where(passkeys.c.account_id == account_id)
        return int((await conn.execute(query)).scalar_one())

    async def add_passkey(self, key: Passkey) -> bool:
        """``False`` when this credential is registered already."""
        try:
            async with self.storage.transaction() as conn:
                await conn.execute(
                    passkeys.insert().values(
                        credential_id=key.credential_id,
                        account_id=key.account_id,
                        public_key=key.public_key,
                        sign_count=key.sign_count,
                        transports=json.dumps(key.transports),
                        label=key.label,
                        created_at=key.created_at,
                        last_used_at=key.last_used_at,
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    async def passkey(self, credential_id: str) -> Passkey | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(passkeys).where(passkeys.c.credential_id == credential_id))).first()
        return None if row is None else _passkey(row)

    async def passkeys_of(self, account_id: int) -> list[Passkey]:
        async with self.storage.reading() as conn:
            query = sa.select(passkeys).where(passkeys.c.account_id == account_id).order_by(passkeys.c.created_at)
            return [_passkey(row) for row in await conn.execute(query)]

    async def passkey_used(self, credential_id: str, sign_count: int, at: datetime) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(
                passkeys.update()
                .where(passkeys.c.credential_id == credential_id)
                .values(sign_count=sign_count, last_used_at=at)
            )

    async def drop_passkey(self, account_id: int, credential_id: str) -> bool:
        """``False`` when the account has no such passkey; raises :class:`LastWayIn` for its last way in."""
        mine = (passkeys.c.account_id == account_id) & (passkeys.c.credential_id == credential_id)
        async with self.storage.transaction() as conn:
            if (await conn.execute(sa.select(passkeys.c.credential_id).where(mine))).first() is None:
                return False
            has_password = (
                await conn.execute(sa.select(passwords.c.account_id).where(passwords.c.account_id == account_id))
            ).first() is not None
            last = not has_password and await self._passkey_count(conn, account_id) <= 1
            if not last:
                await conn.execute(passkeys.delete().where(mine))
        if last:
            raise LastWayIn
        return True

    # --- sessions ---------------------------------------------------------------------------------

    async def add_session(self, session: Session, replacing: str | None) -> None:
        """Store a new session, deleting the one it replaces (the browser's earlier id: rotation)."""
        async with self.storage.transaction() as conn:
            if replacing is not None:
                await conn.execute(sessions.delete().where(sessions.c.digest == replacing))
            await conn.execute(
                sessions.insert().values(
                    digest=session.digest,
                    account_id=session.account_id,
                    created_at=session.created_at,
                    last_seen=session.last_seen,
                    idle_expires_at=session.idle_expires_at,
                    expires_at=session.expires_at,
                    user_agent=session.user_agent,
                )
            )

    async def session(self, digest: str) -> Session | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(sa.select(sessions).where(sessions.c.digest == digest))).first()
        return None if row is None else _session(row)

    async def touch_session(self, digest: str, last_seen: datetime, idle_expires_at: datetime) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(
                sessions.update()
                .where(sessions.c.digest == digest)
                .values(last_seen=last_seen, idle_expires_at=idle_expires_at)
            )

    async def sessions_of(self, account_id: int, now: datetime) -> list[Session]:
        """The account's live sessions, the most recently seen first."""
        query = (
            sa.select(sessions)
            .where(sessions.c.account_id == account_id, sessions.c.expires_at > now, sessions.c.idle_expires_at > now)
            .order_by(sessions.c.last_seen.desc())
        )
        async with self.storage.reading() as conn:
            return [_session(row) for row in await conn.execute(query)]

    async def end_sessions(self, account_id: int, digests: list[str] | None = None) -> int:
        """End the account's sessions among ``digests`` (``None``: all of them); how many ended."""
        condition = sessions.c.account_id == account_id
        if digests is not None:
            condition = condition & sessions.c.digest.in_(digests)
        async with self.storage.transaction() as conn:
            return int((await conn.execute(sessions.delete().where(condition))).rowcount)

    # --- ceremonies and one-time links ------------------------------------------------------------

    async def put_challenge(
        self, digest: str, purpose: str, payload: dict[str, Any], expires_at: datetime, account_id: int | None = None
    ) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(
                challenges.insert().values(
                    digest=digest,
                    purpose=purpose,
                    account_id=account_id,
                    payload=json.dumps(payload),
                    expires_at=expires_at,
                )
            )

    async def take_challenge(
        self, digest: str, purpose: str, now: datetime
    ) -> tuple[int | None, dict[str, Any]] | None:
        """Consume a pending ceremony or link: its account and payload, or ``None`` (unknown, used or expired)."""
        async with self.storage.transaction() as conn:
            await conn.execute(challenges.delete().where(challenges.c.expires_at <= now))
            row = (
                await conn.execute(
                    sa.select(challenges.c.account_id, challenges.c.payload).where(
                        challenges.c.digest == digest, challenges.c.purpose == purpose
                    )
                )
            ).first()
            if row is None:
                return None
            deleted = await conn.execute(challenges.delete().where(challenges.c.digest == digest))
            if deleted.rowcount != 1:  # another process took it meanwhile
                return None
        return row.account_id, dict(json.loads(row.payload))

    async def known_device(self, digest: str, name_skeleton: str, now: datetime) -> bool:
        """Whether the device whose cookie has ``digest`` has signed in to the account named ``name_skeleton``
        (a ``device`` challenge of that account, not expired)."""
        query = (
            sa.select(challenges.c.digest)
            .join(accounts, accounts.c.id == challenges.c.account_id)
            .where(
                challenges.c.digest == digest,
                challenges.c.purpose == DEVICE_PURPOSE,
                challenges.c.expires_at > now,
                accounts.c.skeleton == name_skeleton,
            )
        )
        async with self.storage.reading() as conn:
            return (await conn.execute(query)).first() is not None

    # --- seats ------------------------------------------------------------------------------------

    async def sit(self, code: str, seat: int, account_id: int) -> None:
        """Record that ``account_id`` holds ``seat`` of table ``code`` (replacing whoever did), opened by
        its sessions."""
        key = (account_seats.c.table_code == code) & (account_seats.c.seat == seat)
        async with self.storage.transaction() as conn:
            await conn.execute(account_seats.delete().where(key))
            await conn.execute(account_seats.insert().values(table_code=code, seat=seat, account_id=account_id))

    @staticmethod
    async def sit_in(conn: AsyncConnection, code: str, seats: Mapping[int, int]) -> None:
        """In the transaction ``conn`` storing table ``code``: each seat of ``seats`` follows its account."""
        if seats:
            rows = [{"table_code": code, "seat": seat, "account_id": account} for seat, account in seats.items()]
            await conn.execute(account_seats.insert(), rows)

    async def seat_at(self, code: str, account_id: int) -> int | None:
        """The seat at table ``code`` that the account's sessions open (the lowest, should it hold
        several), or ``None``: none followed, or handed to another device since."""
        query = sa.select(sa.func.min(account_seats.c.seat)).where(
            account_seats.c.table_code == code,
            account_seats.c.account_id == account_id,
            account_seats.c.by_session.is_(True),
        )
        async with self.storage.reading() as conn:
            seat = (await conn.execute(query)).scalar()
        return None if seat is None else int(seat)

    async def account_at(self, code: str, seat: int) -> int | None:
        """The account ``seat`` of table ``code`` follows (``None``: a guest's seat, or a bot's)."""
        query = sa.select(account_seats.c.account_id).where(
            account_seats.c.table_code == code, account_seats.c.seat == seat
        )
        async with self.storage.reading() as conn:
            found = (await conn.execute(query)).scalar()
        return None if found is None else int(found)

    async def holds_seat(self, code: str, account_id: int) -> bool:
        """Whether the account holds a seat at table ``code``, whichever device opens it."""
        query = sa.select(account_seats.c.seat).where(
            account_seats.c.table_code == code, account_seats.c.account_id == account_id
        )
        async with self.storage.reading() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

    async def handed_over(self, code: str, seat: int, taker: int | None) -> None:
        """``seat`` of table ``code`` went to another device by its link: the account it follows keeps
        it (its history, its rating) but its sessions open it no more; a seat that followed nobody
        follows ``taker``, the account the taking device is signed in to (if any), as a claimed seat does."""
        key = (account_seats.c.table_code == code) & (account_seats.c.seat == seat)
        async with self.storage.transaction() as conn:
            moved = await conn.execute(account_seats.update().where(key).values(by_session=False))
            if moved.rowcount == 0 and taker is not None:
                await conn.execute(account_seats.insert().values(table_code=code, seat=seat, account_id=taker))

    async def handed_away(self, code: str, account_id: int) -> bool:
        """Whether a seat of the account at table ``code`` was handed to another device (its sessions watch)."""
        query = sa.select(account_seats.c.seat).where(
            account_seats.c.table_code == code,
            account_seats.c.account_id == account_id,
            account_seats.c.by_session.is_(False),
        )
        async with self.storage.reading() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

    async def any_seat_at(self, code: str) -> bool:
        """Some seat of table ``code`` follows an account."""
        query = sa.select(account_seats.c.seat).where(account_seats.c.table_code == code).limit(1)
        async with self.storage.reading() as conn:
            return (await conn.execute(query)).first() is not None

    # What the game store asks of a seat keeper (Storage.keep_seats_with): its transaction, its table's seats.

    async def seat_dropped(self, conn: AsyncConnection, code: str, seat: int) -> None:
        """The seat went to a bot or was reopened: it follows nobody any more."""
        await conn.execute(
            account_seats.delete().where((account_seats.c.table_code == code) & (account_seats.c.seat == seat))
        )

    async def seats_carried(self, conn: AsyncConnection, code: str, rematch: str, seats: Sequence[int]) -> None:
        """The accounts that sat in ``seats`` of table ``code`` sit in the same seats of its rematch."""
        followed = sa.select(account_seats.c.seat, account_seats.c.account_id).where(
            account_seats.c.table_code == code, account_seats.c.seat.in_(seats)
        )
        rows = [
            {"table_code": rematch, "seat": seat, "account_id": account}
            for seat, account in await conn.execute(followed)
        ]
        if rows:
            await conn.execute(account_seats.insert(), rows)

    async def forget_names(self, account_id: int) -> list[str]:
        """Erase the name the account's player typed at each of its tables (a deleted account's: it is
        served nowhere after); the codes of the tables changed."""
        changed = []
        for code, seat in await self.seats_of(account_id):

            def nameless(data: dict[str, Any], seat: int = seat) -> dict[str, Any]:
                config = TableConfig.from_json(data)
                config.seats[seat].name = None
                return config.to_json()

            try:
                await self.storage.edit_config(code, nameless)
            except LookupError:  # the table is gone meanwhile
                continue
            changed.append(code)
        return changed

    async def seats_of(self, account_id: int) -> list[tuple[str, int]]:
        query = (
            sa.select(account_seats.c.table_code, account_seats.c.seat)
            .where(account_seats.c.account_id == account_id)
            .order_by(account_seats.c.table_code)
        )
        async with self.storage.reading() as conn:
            return [(str(code), int(seat)) for code, seat in await conn.execute(query)]

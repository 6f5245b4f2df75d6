"""The notifications' queries: one method per question or change, each its own transaction.

The outbox is claimed row by row for a lease (``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite
has a single writer, so its one ``UPDATE … WHERE`` is the claim): two processes never hold one row at
once, and a row whose process died is claimed again once its lease has run out.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.server.accounts.schema import account_seats, accounts
from chickenfoot.server.notices import Kind, Notice
from chickenfoot.server.notifications.preferences import Preferences
from chickenfoot.server.notifications.render import Item
from chickenfoot.server.notifications.schema import (
    notification_keys,
    notification_outbox,
    notification_settings,
    notifications,
    push_subscriptions,
)
from chickenfoot.server.storage import Storage, aware

MAX_SUBSCRIPTIONS = 10
"""Devices per account that get push; a new one past them replaces the oldest."""
LIST_LENGTH = 50
"""Notices the bell lists (the newest)."""


Enqueue = Callable[[AsyncConnection, "Stored", Preferences, str | None], Awaitable[None]]
"""Puts what a notice kept is to send in the outbox (``conn, stored, preferences, confirmed address``)."""


@dataclass(frozen=True, slots=True)
class Stored:
    """A notice as the account's list keeps it."""

    id: int
    kind: Kind
    table: str | None
    params: dict[str, Any]
    count: int
    at: datetime
    read: bool

    @property
    def item(self) -> Item:
        return Item(self.kind, self.table, self.params, self.count)


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it (what ``pywebpush`` takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True, slots=True)
class Address:
    """An account's e-mail address: the confirmed one, and one waiting for its confirmation link."""

    email: str | None = None
    pending: str | None = None


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A claimed row of the outbox."""

    id: int
    account_id: int
    purpose: str
    payload: dict[str, Any] | None
    subscription: Subscription | None
    attempts: int
    unread: bool
    """Its notice is still unread (a push whose notice was read meanwhile need not go)."""


def _stored(row: Any) -> Stored:
    return Stored(
        int(row.id),
        Kind(row.kind),
        row.table_code,
        json.loads(row.params),
        int(row._mapping["count"]),
        aware(row.at),
        row.read_at is not None,
    )


class NotificationStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._insert = sqlite.insert if storage.is_sqlite else postgresql.insert

    # --- preferences and the e-mail address -------------------------------------------------------

    async def preferences(self, account_id: int) -> Preferences:
        query = sa.select(notification_settings).where(notification_settings.c.account_id == account_id)
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return Preferences() if row is None else Preferences.from_row(row)

    async def _preferences(self, conn: AsyncConnection, account_id: int) -> tuple[Preferences, str | None]:
        """The account's preferences and confirmed address, in a transaction."""
        query = sa.select(notification_settings).where(notification_settings.c.account_id == account_id)
        row = (await conn.execute(query)).first()
        return (Preferences(), None) if row is None else (Preferences.from_row(row), row.email)

    def _settings_row(self, account_id: int, preferences: Preferences) -> dict[str, Any]:
        return {
            "account_id": account_id,
            "choices": preferences.to_json(),
            "language": preferences.language,
            "time_zone": preferences.time_zone,
            "quiet_from": preferences.quiet_from,
            "quiet_until": preferences.quiet_until,
        }

    async def save_preferences(self, account_id: int, preferences: Preferences) -> None:
        row = self._settings_row(account_id, preferences)
        statement = self._insert(notification_settings).values(row)
        statement = statement.on_conflict_do_update(
            index_elements=[notification_settings.c.account_id],
            set_={key: value for key, value in row.items() if key != "account_id"},
        )
        async with self.storage.transaction() as conn:
            await conn.execute(statement)

    async def _ensure_settings(self, conn: AsyncConnection, account_id: int) -> None:
        row = self._settings_row(account_id, Preferences())
        await conn.execute(self._insert(notification_settings).values(row).on_conflict_do_nothing())

    async def address(self, account_id: int) -> Address:
        query = sa.select(notification_settings.c.email, notification_settings.c.pending_email).where(
            notification_settings.c.account_id == account_id
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return Address() if row is None else Address(row.email, row.pending_email)

    async def ask_confirmation(self, account_id: int, address: str, at: datetime) -> None:
        """``address`` waits for its confirmation link (an earlier one's link opens nothing now), which the
        outbox sends."""
        mine = notification_settings.c.account_id == account_id
        async with self.storage.transaction() as conn:
            await self._ensure_settings(conn, account_id)
            await conn.execute(
                notification_settings.update()
                .where(mine)
                .values(pending_email=address, pending_digest=None, pending_expires_at=None)
            )
            await conn.execute(
                notification_outbox.insert().values(
                    account_id=account_id,
                    purpose="verify",
                    payload=json.dumps({"to": address}),
                    due_at=at,
                    attempts=0,
                    created_at=at,
                )
            )

    async def link_made(self, account_id: int, address: str, link_digest: str, expires_at: datetime) -> bool:
        """The confirmation link for ``address`` was made (when its e-mail is sent); ``False`` when the
        account waits for another address now (or none)."""
        waiting = (notification_settings.c.account_id == account_id) & (
            notification_settings.c.pending_email == address
        )
        async with self.storage.transaction() as conn:
            done = await conn.execute(
                notification_settings.update()
                .where(waiting)
                .values(pending_digest=link_digest, pending_expires_at=expires_at)
            )
            return bool(done.rowcount)

    async def confirm(self, link_digest: str, now: datetime) -> int | None:
        """Spend a confirmation link: the address it was for is the account's; ``None`` (unknown, expired, spent)."""
        waiting = (notification_settings.c.pending_digest == link_digest) & (
            notification_settings.c.pending_expires_at > now
        )
        async with self.storage.transaction() as conn:
            row = (await conn.execute(sa.select(notification_settings.c.account_id).where(waiting))).first()
            if row is None:
                return None
            done = await conn.execute(
                notification_settings.update()
                .where(waiting, notification_settings.c.account_id == row.account_id)
                .values(
                    email=notification_settings.c.pending_email,
                    pending_email=None,
                    pending_digest=None,
                    pending_expires_at=None,
                )
            )
            return int(row.account_id) if done.rowcount == 1 else None

    async def remove_address(self, account_id: int) -> None:
        async with self.storage.transaction() as conn:
            await conn.execute(
                notification_settings.update()
                .where(notification_settings.c.account_id == account_id)
                .values(email=None, pending_email=None, pending_digest=None, pending_expires_at=None)
            )

    async def account_named(self, skeleton: str) -> tuple[int, str, str | None] | None:
        """The account with the name's skeleton: its id, name and confirmed address (``None`` without one)."""
        query = (
            sa.select(accounts.c.id, accounts.c.username, notification_settings.c.email)
            .select_from(accounts.outerjoin(notification_settings, notification_settings.c.account_id == accounts.c.id))
            .where(accounts.c.skeleton == skeleton, ~accounts.c.deleted)
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (int(row.id), str(row.username), row.email)

    async def seat_accounts(self, code: str) -> list[tuple[int, int]]:
        """The seats of table ``code`` that follow an account, and the account (deleted ones left out)."""
        query = (
            sa.select(account_seats.c.seat, account_seats.c.account_id)
            .join(accounts, accounts.c.id == account_seats.c.account_id)
            .where(account_seats.c.table_code == code, ~accounts.c.deleted)
            .order_by(account_seats.c.seat)
        )
        async with self.storage.reading() as conn:
            return [(int(seat), int(account)) for seat, account in await conn.execute(query)]

    async def username(self, account_id: int) -> str | None:
        query = sa.select(accounts.c.username).where(accounts.c.id == account_id, ~accounts.c.deleted)
        async with self.storage.reading() as conn:
            return (await conn.execute(query)).scalar()

    # --- the list ---------------------------------------------------------------------------------

    async def tell(self, account_id: int, notice: Notice, at: datetime, enqueue: Enqueue) -> Stored | None:
        """Keep ``notice`` in the account's list: new, or news about one kept (a higher ``seq``: unread
        again, told once more); ``None`` when it is known already (told by another process too) or the
        account is deleted. ``enqueue`` puts what is to be sent in the outbox, in the same transaction."""
        mine = (notifications.c.account_id == account_id) & (notifications.c.key == notice.key)
        params = json.dumps(notice.params(), ensure_ascii=False)
        alive = sa.select(accounts.c.id).where(accounts.c.id == account_id, ~accounts.c.deleted)
        async with self.storage.transaction() as conn:
            if (await conn.execute(alive)).first() is None:
                return None
            row = (await conn.execute(sa.select(notifications).where(mine))).first()
            if row is None:
                inserted = await conn.execute(
                    self._insert(notifications)
                    .values(
                        account_id=account_id,
                        key=notice.key,
                        kind=notice.kind.value,
                        table_code=notice.table,
                        seq=notice.seq,
                        count=1,
                        params=params,
                        at=at,
                    )
                    .on_conflict_do_nothing()
                    .returning(*notifications.c)
                )
                row = inserted.first()
                if row is None:  # another process kept it a moment ago
                    return None
            elif notice.seq > row.seq:
                count = row._mapping["count"] + 1 if row.read_at is None else 1
                changed = await conn.execute(
                    notifications.update()
                    .where(mine, notifications.c.seq < notice.seq)
                    .values(seq=notice.seq, count=count, params=params, at=at, read_at=None, mailed_at=None)
                    .returning(*notifications.c)
                )
                row = changed.first()
                if row is None:
                    return None
            else:
                return None
            stored = _stored(row)
            await enqueue(conn, stored, *await self._preferences(conn, account_id))
        return stored

    async def listed(self, account_id: int, kinds: Iterable[Kind], limit: int = LIST_LENGTH) -> list[Stored]:
        query = (
            sa.select(notifications)
            .where(notifications.c.account_id == account_id, notifications.c.kind.in_([k.value for k in kinds]))
            .order_by(notifications.c.at.desc(), notifications.c.id.desc())
            .limit(limit)
        )
        async with self.storage.reading() as conn:
            return [_stored(row) for row in await conn.execute(query)]

    async def unread(self, account_id: int, kinds: Iterable[Kind]) -> int:
        query = (
            sa.select(sa.func.count())
            .select_from(notifications)
            .where(
                notifications.c.account_id == account_id,
                notifications.c.read_at.is_(None),
                notifications.c.kind.in_([k.value for k in kinds]),
            )
        )
        async with self.storage.reading() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def mark_read(
        self, account_id: int, at: datetime, *, ids: Sequence[int] | None = None, table: str | None = None
    ) -> int:
        """Mark the account's notices read (those of ``ids``, or of ``table``, or all); how many were unread."""
        condition = (notifications.c.account_id == account_id) & notifications.c.read_at.is_(None)
        if ids is not None:
            condition &= notifications.c.id.in_(ids)
        if table is not None:
            condition &= notifications.c.table_code == table
        async with self.storage.transaction() as conn:
            return int((await conn.execute(notifications.update().where(condition).values(read_at=at))).rowcount)

    # --- devices ----------------------------------------------------------------------------------

    async def subscribe(self, account_id: int, endpoint: str, p256dh: str, auth: str, at: datetime) -> None:
        """The device of ``endpoint`` gets the account's push (it was another account's: no more); past
        :data:`MAX_SUBSCRIPTIONS`, the account's oldest device gets none."""
        async with self.storage.transaction() as conn:
            await conn.execute(push_subscriptions.delete().where(push_subscriptions.c.endpoint == endpoint))
            await conn.execute(
                push_subscriptions.insert().values(
                    account_id=account_id, endpoint=endpoint, p256dh=p256dh, auth=auth, created_at=at
                )
            )
            kept = (
                sa.select(push_subscriptions.c.id)
                .where(push_subscriptions.c.account_id == account_id)
                .order_by(push_subscriptions.c.id.desc())
                .limit(MAX_SUBSCRIPTIONS)
            )
            await conn.execute(
                push_subscriptions.delete().where(
                    push_subscriptions.c.account_id == account_id,
                    push_subscriptions.c.id.not_in(kept.scalar_subquery()),
                )
            )

    async def unsubscribe(self, account_id: int, endpoint: str) -> None:
        mine = (push_subscriptions.c.account_id == account_id) & (push_subscriptions.c.endpoint == endpoint)
        async with self.storage.transaction() as conn:
            await conn.execute(push_subscriptions.delete().where(mine))

    async def drop_subscription(self, subscription_id: int) -> None:
        """The push service says the device is gone (404, 410): it gets nothing more."""
        async with self.storage.transaction() as conn:
            await conn.execute(push_subscriptions.delete().where(push_subscriptions.c.id == subscription_id))

    async def devices(self, account_id: int) -> int:
        query = (
            sa.select(sa.func.count())
            .select_from(push_subscriptions)
            .where(push_subscriptions.c.account_id == account_id)
        )
        async with self.storage.reading() as conn:
            return int((await conn.execute(query)).scalar_one())

    # --- the outbox -------------------------------------------------------------------------------

    async def push_rows(
        self, conn: AsyncConnection, stored: Stored, account_id: int, payload: str, due: datetime, at: datetime
    ) -> None:
        """A push of ``stored`` to each of the account's devices; one still waiting for it is replaced."""
        waiting = (
            (notification_outbox.c.notification_id == stored.id)
            & notification_outbox.c.finished_at.is_(None)
            & notification_outbox.c.claimed_by.is_(None)
        )
        await conn.execute(notification_outbox.delete().where(waiting))
        devices = sa.select(push_subscriptions.c.id).where(push_subscriptions.c.account_id == account_id)
        rows = [
            {
                "account_id": account_id,
                "purpose": "push",
                "notification_id": stored.id,
                "subscription_id": device,
                "payload": payload,
                "due_at": due,
                "attempts": 0,
                "created_at": at,
            }
            for device in (await conn.execute(devices)).scalars()
        ]
        if rows:
            await conn.execute(notification_outbox.insert(), rows)

    async def digest_row(self, conn: AsyncConnection, account_id: int, due: datetime, at: datetime) -> None:
        """A digest for the account, unless one is waiting already (it will say this too)."""
        row = {"account_id": account_id, "purpose": "digest", "due_at": due, "attempts": 0, "created_at": at}
        await conn.execute(self._insert(notification_outbox).values(row).on_conflict_do_nothing())

    async def mail_row(self, account_id: int, purpose: str, payload: dict[str, Any], at: datetime) -> None:
        row = {
            "account_id": account_id,
            "purpose": purpose,
            "payload": json.dumps(payload),
            "due_at": at,
            "attempts": 0,
            "created_at": at,
        }
        async with self.storage.transaction() as conn:
            await conn.execute(notification_outbox.insert().values(row))

    async def claim(self, worker: str, now: datetime, lease_until: datetime, limit: int) -> list[Outgoing]:
        """Up to ``limit`` rows due now that nobody holds, held by ``worker`` until ``lease_until``."""
        box = notification_outbox
        free = (
            box.c.finished_at.is_(None)
            & (box.c.due_at <= now)
            & (box.c.lease_until.is_(None) | (box.c.lease_until <= now))
        )
        due = (
            sa.select(box.c.id)
            .where(free)
            .order_by(box.c.due_at, box.c.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        claimed = (
            box.update()
            .where(box.c.id.in_(due.scalar_subquery()), free)
            .values(claimed_by=worker, lease_until=lease_until, attempts=box.c.attempts + 1)
            .returning(box.c.id)
        )
        async with self.storage.transaction() as conn:
            ids = list((await conn.execute(claimed)).scalars())
            if not ids:
                return []
            query = (
                sa.select(
                    box,
                    push_subscriptions.c.endpoint,
                    push_subscriptions.c.p256dh,
                    push_subscriptions.c.auth,
                    notifications.c.read_at,
                )
                .select_from(
                    box.outerjoin(push_subscriptions, push_subscriptions.c.id == box.c.subscription_id).outerjoin(
                        notifications, notifications.c.id == box.c.notification_id
                    )
                )
                .where(box.c.id.in_(ids))
                .order_by(box.c.due_at, box.c.id)
            )
            rows = (await conn.execute(query)).all()
        return [
            Outgoing(
                int(row.id),
                int(row.account_id),
                row.purpose,
                None if row.payload is None else json.loads(row.payload),
                None
                if row.endpoint is None
                else Subscription(int(row.subscription_id), row.endpoint, row.p256dh, row.auth),
                int(row.attempts),
                row.read_at is None,
            )
            for row in rows
        ]

    async def compose_digest(
        self, row: Outgoing, worker: str, kinds: Iterable[Kind], at: datetime
    ) -> dict[str, Any] | None:
        """What the digest ``row`` says, decided once: the unread notices of ``kinds`` no digest said yet,
        marked said, and the confirmed address; ``None`` when there is nothing to say or nowhere to say it."""
        mine = notifications.c.account_id == row.account_id
        unsaid = mine & notifications.c.mailed_at.is_(None) & notifications.c.read_at.is_(None)
        async with self.storage.transaction() as conn:
            settings = (
                await conn.execute(
                    sa.select(notification_settings.c.email, notification_settings.c.language).where(
                        notification_settings.c.account_id == row.account_id
                    )
                )
            ).first()
            if settings is None or settings.email is None:
                return None
            said = await conn.execute(
                notifications.update()
                .where(unsaid, notifications.c.kind.in_([k.value for k in kinds]))
                .values(mailed_at=at)
                .returning(*notifications.c)
            )
            items = sorted((_stored(found) for found in said), key=lambda stored: (stored.at, stored.id))
            if not items:
                return None
            payload = {"to": settings.email, "lang": settings.language, "items": [s.item.wire() for s in items]}
            mine_now = (notification_outbox.c.id == row.id) & (notification_outbox.c.claimed_by == worker)
            await conn.execute(
                notification_outbox.update().where(mine_now).values(payload=json.dumps(payload, ensure_ascii=False))
            )
        return payload

    async def finish(self, row_id: int, worker: str, outcome: str, at: datetime) -> None:
        mine = (notification_outbox.c.id == row_id) & (notification_outbox.c.claimed_by == worker)
        async with self.storage.transaction() as conn:
            await conn.execute(
                notification_outbox.update().where(mine).values(finished_at=at, outcome=outcome, lease_until=None)
            )

    async def retry(self, row_id: int, worker: str, due: datetime) -> None:
        """Sending failed for now: the row is free again from ``due``."""
        mine = (notification_outbox.c.id == row_id) & (notification_outbox.c.claimed_by == worker)
        async with self.storage.transaction() as conn:
            await conn.execute(
                notification_outbox.update().where(mine).values(due_at=due, claimed_by=None, lease_until=None)
            )

    async def prune(self, finished_before: datetime, read_before: datetime) -> None:
        """Forget rows of the outbox finished long ago, and notices read long ago."""
        async with self.storage.transaction() as conn:
            await conn.execute(notification_outbox.delete().where(notification_outbox.c.finished_at < finished_before))
            await conn.execute(notifications.delete().where(notifications.c.read_at < read_before))

    # --- the server's keys ------------------------------------------------------------------------

    async def key(self, name: str, make: Callable[[], str], at: datetime) -> str:
        """The server's key ``name``: made (by ``make``) by the first process that asks, kept for all."""
        async with self.storage.transaction() as conn:
            await conn.execute(
                self._insert(notification_keys).values(name=name, value=make(), created_at=at).on_conflict_do_nothing()
            )
            return str(
                (
                    await conn.execute(sa.select(notification_keys.c.value).where(notification_keys.c.name == name))
                ).scalar_one()
            )

    # --- an account's data, and its deletion ---------------------------------------------------------

    async def describe(self, account_id: int) -> dict[str, Any]:
        """What is kept of the account, for its data download: its choices and address, its devices (by
        their push service and when they were added, not the secret endpoint) and its notices."""
        preferences, address = await self.preferences(account_id), await self.address(account_id)
        query = sa.select(push_subscriptions.c.endpoint, push_subscriptions.c.created_at).where(
            push_subscriptions.c.account_id == account_id
        )
        async with self.storage.reading() as conn:
            devices = [
                {"push_service": urlsplit(row.endpoint).netloc, "added": aware(row.created_at).isoformat()}
                for row in await conn.execute(query)
            ]
        return {
            "choices": {kind.value: sorted(channels) for kind, channels in preferences.choices.items()},
            "language": preferences.language,
            "time_zone": preferences.time_zone,
            "quiet_from": preferences.quiet_from,
            "quiet_until": preferences.quiet_until,
            "email": address.email,
            "email_waiting_for_confirmation": address.pending,
            "devices": devices,
            "notices": [
                {"kind": n.kind.value, "table": n.table, "params": n.params, "at": n.at.isoformat(), "read": n.read}
                for n in await self.listed(account_id, list(Kind), limit=1000)
            ],
        }

    async def forget(self, conn: AsyncConnection, account_id: int) -> None:
        """Everything of the account goes, in the transaction that deletes it (its address first of all)."""
        for table in (notification_outbox, push_subscriptions, notifications, notification_settings):
            await conn.execute(table.delete().where(table.c.account_id == account_id))

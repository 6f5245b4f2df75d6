"""Notifications: the notify port's implementation (:class:`Notifications` is a
:class:`~chickenfoot.server.notices.Notifier`), the account's list, its choices, its devices and its
e-mail address, and what the outbox sends. Every refusal is a :class:`~chickenfoot.server.refusals.Refusal`.

A notice is kept in the account's list, then put in the outbox in the same transaction: a push to
each device of the account that allowed them (if it chose push for that kind), deferred to the end of
its quiet hours; and for e-mail one digest, sent a while later (``digest_seconds``) with everything
unread by then. Invitations and challenges are capped per sender and per receiver.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.i18n import LANGUAGES
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus
from chickenfoot.server.credentials import digest, new_secret
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.notices import ChatLine, Kind, MatchOver, Notice, RematchOffered, YourTurn
from chickenfoot.server.notifications.mail import Mailer, SmtpServer
from chickenfoot.server.notifications.outbox import Done, Outbox, OutboxSettings
from chickenfoot.server.notifications.preferences import Channel, Preferences, known_zone
from chickenfoot.server.notifications.push import PUSH_SERVICES, PushSender, new_key
from chickenfoot.server.notifications.render import (
    Item,
    Site,
    confirmation_mail,
    digest_mail,
    push_payload,
    recovery_mail,
)
from chickenfoot.server.notifications.store import NotificationStore, Outgoing, Stored
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage

log = logging.getLogger(__name__)

CAPPED = frozenset({Kind.INVITED, Kind.CHALLENGE})
"""Kinds one person causes on another's phone: counted per sender and per receiver."""
URGENT = frozenset({Kind.YOUR_TURN, Kind.INVITED, Kind.CHALLENGE})
"""Kinds a push service should deliver at once even to a phone saving its battery."""
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+")
"""An e-mail address as people type one (no display name, no quoting, no comment: nothing that could
turn into another header)."""


VAPID_SUBJECT = re.compile(r"mailto:[^@\s]+@[\w-]+(?:\.[\w-]+)+|https://[\w-]+(?:\.[\w-]+)+(?::\d+)?(?:/\S*)?")
"""What the push services take as a subject: an address with a domain, or an https URL."""


Blocks = Callable[[int, int], Awaitable[bool]]
"""Whether the account (first) blocks the account (second)."""


async def blocks_nobody(_account_id: int, _other: int) -> bool:
    return False


def channel(account_id: int) -> str:
    """The bus channel on which an account's pages hear that its list changed, in every process."""
    return f"notices:{account_id}"


@dataclass(frozen=True, slots=True)
class NotificationSettings:
    smtp: SmtpServer | None = None
    """The mail server (``None``: no e-mail is sent; addresses cannot be added)."""
    sender: str | None = None
    """The ``From`` of the e-mails (``None``: ``Chicken Foot <noreply@`` the site's host ``>``)."""
    push_services: tuple[str, ...] = PUSH_SERVICES
    """The push services a device's endpoint may be at (origins; ``https://*.domain`` for a domain's)."""
    vapid_subject: str | None = None
    """Who the push services may contact about this server (``mailto:`` or ``https:``; ``None``: the
    e-mails' sender)."""
    digest_seconds: float = 1800.0
    """How long a digest gathers notices after the first before it is sent."""
    confirm_seconds: float = 24 * 3600.0
    """How long an address's confirmation link works."""
    recover_seconds: float = 1800.0
    """How long a sign-in link sent to a confirmed address works."""
    outbox: OutboxSettings = field(default_factory=OutboxSettings)


def site_of(origin: str, sender: str | None) -> Site:
    host = urlsplit(origin).hostname or "localhost"
    return Site(origin, sender or f"Chicken Foot <noreply@{host}>", host)


def vapid_subject(subject: str | None, site: Site | None) -> str:
    """Who the push services may contact: ``subject`` (``mailto:`` an address, or an ``https:`` URL), else
    the e-mails' sender; raises ``ValueError`` in one line for another.

    >>> vapid_subject(None, site_of("https://dominoes.example.org", None))
    'mailto:noreply@dominoes.example.org'
    >>> vapid_subject("operator@example.org", None)
    Traceback (most recent call last):
    ValueError: a VAPID subject is mailto:someone@example.org or https://…, not 'operator@example.org'
    """
    if subject is None:
        address = parseaddr(site.sender)[1] if site is not None else ""
        return f"mailto:{address}" if VAPID_SUBJECT.fullmatch(f"mailto:{address}") else "mailto:noreply@localhost"
    if not VAPID_SUBJECT.fullmatch(subject):
        raise ValueError(f"a VAPID subject is mailto:someone@example.org or https://…, not {subject[:80]!r}")
    return subject


def checked_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    """Raises :class:`Refusal` (invalid) unless the keys are a P-256 point and a 16-byte secret (base64url)."""
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except (binascii.Error, ValueError):
        point = secret = b""
    if len(point) != 65 or point[0] != 4 or len(secret) != 16 or not endpoint.startswith(("https://", "http://")):
        raise Refusal.invalid(Said.of(Code.NOTIFY_BAD_SUBSCRIPTION))


class Notifications:
    def __init__(
        self,
        storage: Storage,
        accounts: Accounts,
        limits: RateLimiter,
        bus: Bus,
        clock: Clock,
        settings: NotificationSettings,
        origin: str | None,
    ) -> None:
        """``origin``: the site's public origin, which e-mails link to (needed with an SMTP server)."""
        if settings.smtp is not None and origin is None:
            raise ValueError("e-mail needs the site's public origin for its links: give --public-origin too")
        self.store = NotificationStore(storage)
        accounts.store.forget_with(self.store.forget)
        self.accounts, self.limits, self.bus, self.clock, self.settings = accounts, limits, bus, clock, settings
        self.outbox = Outbox(self.store, clock, settings.outbox, self.deliver)
        self.mailer = None if settings.smtp is None else Mailer(settings.smtp)
        self.site = None if origin is None else site_of(origin, settings.sender)
        self.subject = vapid_subject(settings.vapid_subject, self.site)
        self.push: PushSender | None = None
        """Made at :meth:`start`, with the key every process shares."""
        self._unsubscribe_key = b""
        self._tasks: set[asyncio.Task[None]] = set()
        self._blocks: Blocks = blocks_nobody

    async def start(self) -> None:
        """Read (or make, the first time) the server's keys, and start the outbox."""
        at = utc(self.clock)
        pem = await self.store.key("vapid", new_key, at)
        self.push = PushSender(pem, self.subject, self.settings.push_services, self.clock)
        self._unsubscribe_key = bytes.fromhex(await self.store.key("unsubscribe", lambda: secrets.token_hex(32), at))
        self.outbox.start()

    async def stop(self) -> None:
        await self.outbox.stop()
        await self.settle()
        if self.push is not None:
            await self.push.close()

    # --- the port ---------------------------------------------------------------------------------

    def hear_blocks(self, blocks: Blocks) -> None:
        """``blocks(account, other)`` says whether ``account`` blocks ``other`` (server/social): a notice
        caused by a player the receiver blocks is not told."""
        self._blocks = blocks

    async def notify(self, account_id: int, notice: Notice, *, sender: int | None = None) -> None:
        if sender is not None and await self._blocks(account_id, sender):
            return  # not kept, not sent, not counted: the sender is answered as for any notice
        if notice.kind in CAPPED:  # the receiver's cap first: an invitation it refuses costs the sender nothing
            await self.limits.check("invitation_received", str(account_id))
            if sender is not None:
                await self.limits.check("invitation_sent", str(sender))
        at = utc(self.clock)

        async def enqueue(conn: AsyncConnection, stored: Stored, preferences: Preferences, email: str | None) -> None:
            if preferences.wants(stored.kind, Channel.PUSH) and self.push is not None:
                payload = push_payload(stored.item, notice.key, preferences.language, at)
                await self.store.push_rows(conn, stored, account_id, payload, preferences.after_quiet(at), at)
            if preferences.wants(stored.kind, Channel.EMAIL) and email is not None and self.mailer is not None:
                due = preferences.after_quiet(at + timedelta(seconds=self.settings.digest_seconds))
                await self.store.digest_row(conn, account_id, due, at)

        if await self.store.tell(account_id, notice, at, enqueue) is not None:
            self.outbox.wake()
            await self.bus.publish(channel(account_id), {"type": "notice"})

    async def seen(self, account_id: int, table: str) -> None:
        """The account has seen the table: its notices there are read (and what waits to be sent of them
        is not sent: a push of a notice read is skipped, a digest says only what is unread)."""
        if await self.store.mark_read(account_id, utc(self.clock), table=table):
            await self.bus.publish(channel(account_id), {"type": "read"})

    # --- hooks into the rest of the server (the composition root registers them) ------------------

    def spawn(self, work: Awaitable[None]) -> None:
        """Do ``work`` in the background (a hook called where nothing may wait), its failure logged."""

        async def logged() -> None:
            try:
                await work
            except Exception:
                log.exception("a notice was not kept")

        task = asyncio.get_running_loop().create_task(logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the notices being kept (a test's event, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def match_over(self, code: str, winners: Iterable[int], changes: dict[int, int] | None = None) -> None:
        """Tell each account seated at table ``code`` that its match is over (``changes``: each seat's
        rating change, when it was rated)."""
        won = set(winners)
        for seat, account_id in await self.store.seat_accounts(code):
            change = None if changes is None else changes.get(seat)
            await self.notify(account_id, MatchOver(code, won=seat in won, rating_change=change))

    async def rematch_offered(self, code: str, by: str, accepted: Iterable[int], sender: int | None = None) -> None:
        """Someone (``by``, the account ``sender`` if any) accepted a rematch at table ``code``: every account
        seated there that has not accepted yet hears so."""
        done = set(accepted)
        for seat, account_id in await self.store.seat_accounts(code):
            if seat not in done:
                await self.notify(account_id, RematchOffered(code, by=by), sender=sender)

    async def your_turn(self, code: str, seat: int, turn: int) -> None:
        """At turn-based table ``code`` it is ``seat``'s turn (the table's ``turn``-th action): the account
        seated there hears so (:class:`~chickenfoot.server.table.ports.TurnNews`)."""
        for seated, account_id in await self.store.seat_accounts(code):
            if seated == seat:
                await self.notify(account_id, YourTurn(code, turn=turn))

    async def chat_line(self, code: str, seat: int | None, name: str, number: int) -> None:
        """Line ``number`` was said at turn-based table ``code`` by ``seat`` (``name``): every other account
        seated there hears so (not the words: the table shows them to whoever opens it)."""
        for seated, account_id in await self.store.seat_accounts(code):
            if seated != seat:
                await self.notify(account_id, ChatLine(code, by=name, number=number))

    # --- the list ---------------------------------------------------------------------------------

    async def data_of(self, account_id: int) -> dict[str, Any]:
        """The account's part of its data download: its choices, address, devices and notices."""
        return {"notifications": await self.store.describe(account_id)}

    async def listing(self, account_id: int, lang: str) -> dict[str, Any]:
        """The bell: the unread count and the newest notices of the kinds the account wants listed,
        worded in ``lang`` (the page's)."""
        preferences = await self.store.preferences(account_id)
        kinds = [kind for kind in Kind if preferences.wants(kind, Channel.IN_APP)]
        stored = await self.store.listed(account_id, kinds)
        return {
            "unread": await self.store.unread(account_id, kinds),
            "language": preferences.language,
            "notices": [self._line(notice, lang) for notice in stored],
        }

    @staticmethod
    def _line(stored: Stored, lang: str) -> dict[str, Any]:
        text, detail = stored.item.text(lang)
        return {
            "id": stored.id,
            "kind": stored.kind.value,
            "table": stored.table,
            "url": stored.item.page,
            "text": text,
            "detail": detail,
            "at": stored.at.isoformat(),
            "read": stored.read,
        }

    async def mark_read(self, account_id: int, ids: list[int] | None) -> int:
        read = await self.store.mark_read(account_id, utc(self.clock), ids=ids)
        if read:
            await self.bus.publish(channel(account_id), {"type": "read"})
        return read

    # --- choices ----------------------------------------------------------------------------------

    async def settings_of(self, account_id: int) -> dict[str, Any]:
        preferences = await self.store.preferences(account_id)
        address = await self.store.address(account_id)
        return {
            "choices": {kind.value: sorted(preferences.choices.get(kind, ())) for kind in Kind},
            "quiet_from": preferences.quiet_from,
            "quiet_until": preferences.quiet_until,
            "time_zone": preferences.time_zone,
            "language": preferences.language,
            "email": {"address": address.email, "pending": address.pending, "available": self.mailer is not None},
            "push": {
                "key": None if self.push is None else self.push.public_key,
                "devices": await self.store.devices(account_id),
            },
        }

    async def choose(
        self,
        account_id: int,
        choices: dict[Kind, frozenset[Channel]],
        quiet: tuple[int, int] | None,
        time_zone: str,
    ) -> None:
        if not known_zone(time_zone):
            raise Refusal.invalid(Said.of(Code.NOTIFY_BAD_ZONE, zone=time_zone[:64]))
        preferences = await self.store.preferences(account_id)
        for kind, channels in choices.items():
            preferences = preferences.choosing(kind, channels)
        quiet_from, quiet_until = quiet if quiet is not None else (None, None)
        preferences = Preferences(preferences.choices, preferences.language, time_zone, quiet_from, quiet_until)
        await self.store.save_preferences(account_id, preferences)

    async def speak(self, account_id: int, lang: str) -> None:
        """Push and e-mail are written in ``lang`` from now on (the language the player's pages are in)."""
        if lang not in LANGUAGES:
            return
        preferences = await self.store.preferences(account_id)
        if preferences.language != lang:
            changed = Preferences(
                preferences.choices, lang, preferences.time_zone, preferences.quiet_from, preferences.quiet_until
            )
            await self.store.save_preferences(account_id, changed)

    # --- devices ----------------------------------------------------------------------------------

    async def subscribe(self, account_id: int, endpoint: str, p256dh: str, auth: str) -> None:
        checked_subscription(endpoint, p256dh, auth)
        if self.push is None or not self.push.allows(endpoint):
            raise Refusal.invalid(Said.of(Code.NOTIFY_BAD_SUBSCRIPTION))
        await self.store.subscribe(account_id, endpoint, p256dh, auth, utc(self.clock))

    async def unsubscribe_device(self, account_id: int, endpoint: str) -> None:
        await self.store.unsubscribe(account_id, endpoint)

    # --- the e-mail address, its links, unsubscribing ---------------------------------------------

    async def ask_confirmation(self, account_id: int, address: str, client: str) -> None:
        """Send a confirmation link to ``address``: e-mails go there once it is opened."""
        if self.mailer is None:
            raise Refusal.conflict(Said.of(Code.NOTIFY_EMAIL_OFF))
        address = address.strip()
        if len(address) > 254 or not ADDRESS.fullmatch(address):
            raise Refusal.invalid(Said.of(Code.NOTIFY_BAD_ADDRESS))
        await self.limits.check("mail", client)
        await self.store.ask_confirmation(account_id, address, utc(self.clock))
        self.outbox.wake()

    async def confirm(self, link: str) -> None:
        if await self.store.confirm(digest(link), utc(self.clock)) is None:
            raise Refusal.invalid(Said.of(Code.NOTIFY_LINK_USED))

    async def remove_address(self, account_id: int) -> None:
        await self.store.remove_address(account_id)

    def unsubscribe_token(self, account_id: int) -> str:
        """The token of an account's unsubscribe links: its id, signed by the server's key."""
        return f"{account_id}.{self._signature(account_id)}"

    def _signature(self, account_id: int) -> str:
        mac = hmac.new(self._unsubscribe_key, f"no-email:{account_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode()[:32]

    async def unsubscribe(self, token: str) -> None:
        """One click (RFC 8058): no more e-mail to the account the token names; push and the list stay."""
        number, _, signature = token.partition(".")
        account_id = int(number) if number.isdigit() and len(number) < 12 else -1
        if account_id < 0 or not hmac.compare_digest(signature.encode(), self._signature(account_id).encode()):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.NOTIFY_BAD_UNSUBSCRIBE))
        preferences = await self.store.preferences(account_id)
        await self.store.save_preferences(account_id, preferences.without(Channel.EMAIL))

    async def recover(self, username: str, client: str) -> None:
        """A sign-in link to the account's confirmed address, if it has one; the answer is the same either
        way (it tells nobody whether an account exists or has an address)."""
        await self.limits.check("mail", client)
        name = skeleton(normalised(username))
        if not name.isprintable():  # no account is named so, and PostgreSQL refuses a NUL byte in a query
            return
        await self.limits.check("sign_in_name", name)
        found = await self.store.account_named(name)
        if found is None or found[2] is None or self.mailer is None:
            return
        await self.store.mail_row(found[0], "recover", {"to": found[2]}, utc(self.clock))
        self.outbox.wake()

    # --- sending (the outbox's) -------------------------------------------------------------------

    def _message_id(self, row: Outgoing) -> str:
        """The row's ``Message-ID`` (before ``@``): the same at every try, unlike any other server's."""
        server = hashlib.sha256(self._unsubscribe_key).hexdigest()[:12]
        return f"{row.purpose}-{row.id}.{server}"

    async def deliver(self, row: Outgoing) -> Done:
        """Send one claimed row of the outbox; what became of it."""
        if row.purpose == "push":
            return await self._push(row)
        if self.mailer is None or self.site is None:
            return Done("skipped")
        at = utc(self.clock)
        mail = await self._mail(row, self.site, at)
        if mail is None:
            return Done("skipped")
        sent = await self.mailer.send(mail)
        return Done({"sent": "sent", "retry": "retry", "refused": "failed"}[sent])

    async def _push(self, row: Outgoing) -> Done:
        if self.push is None or row.subscription is None or row.payload is None or not row.unread:
            return Done("skipped")  # the device is gone, or its notice was read meanwhile
        payload = row.payload
        delivery = await self.push.send(
            row.subscription.info(),
            json.dumps(payload, ensure_ascii=False),
            str(payload["tag"]),
            Kind(payload["kind"]) in URGENT,
        )
        match delivery.outcome:
            case "sent":
                return Done("sent")
            case "gone":
                await self.store.drop_subscription(row.subscription.id)
                return Done("dropped")
            case "retry":
                return Done("retry", delivery.retry_after)
        return Done("failed")

    async def _mail(self, row: Outgoing, site: Site, at: datetime) -> EmailMessage | None:
        name = await self.store.username(row.account_id)
        if name is None:
            return None
        message_id = self._message_id(row)
        if row.purpose == "digest":
            preferences = await self.store.preferences(row.account_id)
            kinds = [kind for kind in Kind if preferences.wants(kind, Channel.EMAIL)]
            payload = row.payload or await self.store.compose_digest(row, self.outbox.worker, kinds, at)
            if payload is None:
                return None
            items = [Item.from_wire(item) for item in payload["items"]]
            token = self.unsubscribe_token(row.account_id)
            return digest_mail(site, payload["to"], payload["lang"], items, message_id, at, token)
        assert row.payload is not None
        to, lang = str(row.payload["to"]), (await self.store.preferences(row.account_id)).language
        # A link's secret is made now and kept only as its digest: it is in no row of the outbox.
        if row.purpose == "verify":
            secret = new_secret()
            expires = at + timedelta(seconds=self.settings.confirm_seconds)
            if not await self.store.link_made(row.account_id, to, digest(secret), expires):
                return None  # another address was asked for since
            return confirmation_mail(site, to, lang, name, f"/account#confirm={secret}", message_id, at)
        seconds = self.settings.recover_seconds
        secret = await self.accounts.sign_in_link(row.account_id, seconds)
        return recovery_mail(site, to, lang, name, f"/account#recover={secret}", round(seconds / 60), message_id, at)

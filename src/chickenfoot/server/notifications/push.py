"""Web Push (RFC 8030) with VAPID (RFC 8292), encrypted to each device (RFC 8291, ``aes128gcm``) by
``pywebpush``.

The server's VAPID key is made by the first process that starts and kept in the database
(``notification_keys``): every process signs with the same key, so a device subscribed through one
process gets its push from any other, and a restart changes nothing. A device's endpoint is a URL the
browser hands in: the server posts only to the push services it knows (:data:`PUSH_SERVICES`, more by
``chickenfoot serve --push-service``), never to an address a client chose.

>>> allowed("https://fcm.googleapis.com/fcm/send/abc", PUSH_SERVICES)
True
>>> allowed("https://wns2-par02p.notify.windows.com/w/?token=x", PUSH_SERVICES)
True
>>> allowed("http://fcm.googleapis.com/fcm/send/abc", PUSH_SERVICES), allowed("https://127.0.0.1:6379/", PUSH_SERVICES)
(False, False)
>>> topic("your_turn:ABC123")
'3W5gT3cIb3RCUZwSoC8vciiIJV7Iul-v'
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPusher

from chickenfoot.server.clock import Clock

log = logging.getLogger(__name__)

PUSH_SERVICES = (
    "https://fcm.googleapis.com",
    "https://android.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://*.push.services.mozilla.com",
    "https://*.notify.windows.com",
    "https://web.push.apple.com",
)
"""The push services of the browsers people use (Chrome, Firefox, Edge, Safari): a device's endpoint
must be at one of them (``*.`` is any name under the domain)."""
TTL_SECONDS = 24 * 3600
"""How long a push service keeps a push for a device that is offline."""
SEND_SECONDS = 15.0
TOPIC_LENGTH = 32
"""A push's ``Topic`` (RFC 8030 §5.4): at most 32 characters of the base64url alphabet."""

Outcome = Literal["sent", "gone", "retry", "refused"]


def new_key() -> str:
    """A new VAPID key: a P-256 private key, PEM."""
    vapid = Vapid02()
    vapid.generate_keys()
    return str(vapid.private_pem().decode())


def allowed(endpoint: str, services: Sequence[str]) -> bool:
    """The endpoint is at one of the push services ``services`` (origins, ``https://*.domain`` for any
    name under a domain)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    for service in services:
        known = urlsplit(service)
        if parts.scheme != known.scheme or port != known.port or not host:
            continue
        name = (known.hostname or "").lower()
        if host == name or (name.startswith("*.") and host.endswith(name[1:])):
            return True
    return False


def topic(key: str) -> str:
    """The ``Topic`` of a notice's pushes: a later push with the same topic replaces one the push service
    still holds (a device offline gets the latest turn at a table, not every one)."""
    return base64.urlsafe_b64encode(hashlib.sha256(key.encode()).digest()).decode()[:TOPIC_LENGTH]


@dataclass(frozen=True, slots=True)
class Delivery:
    outcome: Outcome
    retry_after: float | None = None
    status: int | None = None


class PushSender:
    """Encrypts and posts pushes, signed with the server's VAPID key."""

    def __init__(self, private_pem: str, subject: str, services: Sequence[str], clock: Clock) -> None:
        self.vapid = Vapid02.from_pem(private_pem.encode())
        self.subject, self.services, self.clock = subject, tuple(services), clock
        self._session: aiohttp.ClientSession | None = None

    @property
    def public_key(self) -> str:
        """The application server key a page subscribes with (base64url of the uncompressed P-256 point)."""
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def allows(self, endpoint: str) -> bool:
        return allowed(endpoint, self.services)

    async def send(self, info: dict[str, object], payload: str, key: str, urgent: bool) -> Delivery:
        """Post one push; ``gone`` when the push service says the device is (404, 410)."""
        endpoint = str(info["endpoint"])
        if not self.allows(endpoint):
            return Delivery("refused")
        parts = urlsplit(endpoint)
        claims = {
            "sub": self.subject,
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(self.clock.now()) + 12 * 3600,
        }
        headers = {**self.vapid.sign(claims), "Topic": topic(key), "Urgency": "high" if urgent else "normal"}
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=SEND_SECONDS))
        pusher = WebPusher(info, aiohttp_session=self._session)
        try:
            answer = await pusher.send_async(payload, headers=headers, ttl=TTL_SECONDS, content_encoding="aes128gcm")
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            log.info("push to %s failed for now: %s", parts.netloc, exc.__class__.__name__)
            return Delivery("retry")
        assert not isinstance(answer, str)
        status = answer.status
        answer.release()
        if status in (200, 201, 202):
            return Delivery("sent", status=status)
        if status in (404, 410):
            return Delivery("gone", status=status)
        if status == 429 or status >= 500:
            wait = answer.headers.get("retry-after", "")
            return Delivery("retry", float(wait) if wait.isdigit() else None, status)
        log.warning("push to %s refused: %d", parts.netloc, status)
        return Delivery("refused", status=status)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            # aiohttp's connections close on the next turn of the loop
            await asyncio.sleep(0)

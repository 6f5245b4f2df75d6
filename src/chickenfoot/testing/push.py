"""A push service on this machine, for tests: it takes Web Push messages as a browser's push service
would, checks their VAPID signature, and decrypts them (RFC 8291, ``aes128gcm``) with the keys of the
device each was sent to, so a test reads exactly what a phone would show. Nothing leaves the machine.

A :class:`Device` is what a browser makes when a page subscribes: a P-256 key pair and an auth secret;
its subscription names this service's endpoint for it. A device can be made to answer 404 or 410
(gone), or 503 (try later), as push services do.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from chickenfoot.testing.launch import free_port


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's side of one subscription: the keys a push is encrypted to."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it to the page."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


@dataclass(frozen=True)
class Received:
    """One push as the device got it: its decrypted payload (JSON) and the request's headers."""

    device: str
    payload: dict[str, Any]
    raw: bytes
    """The decrypted bytes, as the service worker's ``event.data`` holds them."""
    headers: dict[str, str]
    """Its headers, by lower-case name."""
    claims: dict[str, Any]
    """The VAPID token's claims (its signature checked against the key it names)."""


class PushService:
    """An HTTP push service on ``127.0.0.1`` in a thread of its own; ``origin`` is what servers allow.

    ``now``: the time a VAPID token's expiry is checked against (a server on a fake clock signs by it).
    """

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.devices: dict[str, Device] = {}
        self.answers: dict[str, int] = {}
        """A device's scripted answer (404, 410, 503…); 201 when none."""
        self.received: list[Received] = []
        self.refused: list[tuple[str, int]] = []
        self._changed = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    def device(self, name: str) -> Device:
        made = Device(name, f"{self.origin}/push/{name}")
        self.devices[name] = made
        return made

    def __enter__(self) -> PushService:
        started = threading.Event()

        def serve() -> None:
            self._loop = asyncio.new_event_loop()
            app = web.Application()
            app.router.add_post("/push/{device}", self._push)
            self._runner = web.AppRunner(app)
            self._loop.run_until_complete(self._runner.setup())
            self._loop.run_until_complete(web.TCPSite(self._runner, "127.0.0.1", self.port).start())
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the push service did not start")
        return self

    def __exit__(self, *_exc: object) -> None:
        loop, runner = self._loop, self._runner
        assert loop is not None and runner is not None and self._thread is not None
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Received]:
        """The pushes received once there are ``count`` (an event, bounded by ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.received)} pushes received, not {count}")
                self._changed.wait(left)
            return list(self.received)

    async def _push(self, request: web.Request) -> web.Response:
        name = request.match_info["device"]
        device = self.devices.get(name)
        if device is None:
            return web.Response(status=404)
        answer = self.answers.get(name, 201)
        if answer != 201:
            with self._changed:
                self.refused.append((name, answer))
                self._changed.notify_all()
            return web.Response(status=answer)
        claims = verified_claims(request.headers.get("authorization", ""), self.origin, self.now())
        if claims is None:
            return web.Response(status=401)
        if request.headers.get("content-encoding") != "aes128gcm":
            return web.Response(status=415)
        body = await request.read()
        raw = http_ece.decrypt(body, private_key=device.key, auth_secret=device.auth, version="aes128gcm")
        headers = {key.lower(): value for key, value in request.headers.items()}
        received = Received(name, json.loads(raw), raw, headers, claims)
        with self._changed:
            self.received.append(received)
            self._changed.notify_all()
        return web.Response(status=201)


def verified_claims(authorization: str, audience: str, now: float) -> dict[str, Any] | None:
    """The claims of a ``vapid t=…, k=…`` header (RFC 8292) if its ES256 signature is right for the key it
    names and it is for ``audience`` and not expired at ``now``; ``None`` otherwise."""
    if not authorization.startswith("vapid "):
        return None
    parts = dict(part.strip().split("=", 1) for part in authorization[len("vapid ") :].split(",") if "=" in part)
    token, key = parts.get("t", ""), parts.get("k", "")
    try:
        header, claims, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        read: dict[str, Any] = json.loads(unb64(claims))
    except (ValueError, InvalidSignature):
        return None
    if read.get("aud") != audience or int(read.get("exp", 0)) < now or "sub" not in read:
        return None
    return read

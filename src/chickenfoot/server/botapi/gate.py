"""The Bot API's cheapest refusals, so that a flood costs the event loop as little as it can.

In front of the per-token counters (:mod:`chickenfoot.server.http.limits`), :class:`PausedTokens`: a
token this process saw paused is refused by :class:`FloodGate`, an ASGI middleware, before routing: no
body read, no validation, no counter in Redis, and an answer whose bytes were written once
(:func:`paused_answer`). The pause itself stays in the shared counters; this is only what this process
already knows of it. (Tokens not known yet are looked up in storage at most ``lookups`` times a second
per address, counted in this process's memory: forged tokens past it cost no lookup.)
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from chickenfoot.messages import Code, Said
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest
from chickenfoot.server.http.answers import body

PREFIX = "/api/bot/"
MAX_PAUSED = 10_000
"""Paused tokens remembered; past them the oldest are forgotten (their requests reach the counters again)."""


def bearer_secret(authorization: str) -> str | None:
    """The secret of an ``Authorization: Bearer ...`` header (``None`` if it is not one)."""
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret or len(secret) > MAX_SECRET_LENGTH:
        return None
    return secret


@functools.lru_cache(maxsize=128)
def paused_answer(seconds: int) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The 429 of a paused token, as the API's error shape: its body and headers, written once per ``seconds``."""
    text = json.dumps(body(Said.of(Code.BOTAPI_PAUSED, seconds=seconds))).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(text)).encode()),
        (b"retry-after", str(seconds).encode()),
    ]
    return text, headers


class PausedTokens:
    """The tokens (digests) this process knows to be paused, and until when (monotonic seconds)."""

    def __init__(self, now: Callable[[], float]) -> None:
        """``now``: monotonic seconds (the server's clock)."""
        self.now = now
        self.until: dict[str, float] = {}

    def pause(self, key: str, seconds: int) -> None:
        if len(self.until) >= MAX_PAUSED:
            del self.until[next(iter(self.until))]
        self.until[key] = self.now() + seconds

    def remaining(self, key: str) -> int | None:
        """Whole seconds left of the token's pause, ``None`` if it is not known to be paused."""
        until = self.until.get(key)
        if until is None:
            return None
        left = until - self.now()
        if left <= 0:
            del self.until[key]
            return None
        return max(1, math.ceil(left))


class FloodGate:
    """Answers a Bot API request of a token known to be paused before anything else is done with it."""

    def __init__(self, app: ASGIApp, paused: PausedTokens) -> None:
        self.app = app
        self.paused = paused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.paused.until and scope["path"].startswith(PREFIX):
            for name, value in scope["headers"]:
                if name == b"authorization":
                    secret = bearer_secret(value.decode("latin-1"))
                    left = None if secret is None else self.paused.remaining(digest(secret))
                    if left is not None:
                        text, headers = paused_answer(left)
                        await send({"type": "http.response.start", "status": 429, "headers": headers})
                        await send({"type": "http.response.body", "body": text})
                        return
                    break
        await self.app(scope, receive, send)

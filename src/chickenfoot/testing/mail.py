"""A mail server on this machine, for tests (``aiosmtpd``): it keeps every message it accepts, can be
stopped and started again on the same port (a mail server down for a while), and can hold a session
after ``RCPT`` until released (a send in the middle, for a test that kills the sender then).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from chickenfoot.testing.launch import free_port

LINK = re.compile(r"https?://\S+")


class _Keeper:
    def __init__(self, catcher: MailCatcher) -> None:
        self.catcher = catcher

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        catcher = self.catcher
        if catcher.holding.is_set():
            catcher.held.set()  # a sender is in the middle of a send now
            while catcher.holding.is_set():
                await asyncio.sleep(0.02)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        data = envelope.content if isinstance(envelope.content, bytes) else str(envelope.content).encode()
        message = message_from_bytes(data, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self.catcher.changed:
            self.catcher.messages.append(message)
            self.catcher.changed.notify_all()
        return "250 Message accepted for delivery"


class MailCatcher:
    """An SMTP server on ``127.0.0.1:port`` (``url``: what ``--smtp-url`` names), keeping what it accepts."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"smtp://127.0.0.1:{self.port}"
        self.messages: list[EmailMessage] = []
        self.changed = threading.Condition()
        self.holding = threading.Event()
        """While set, every session waits after ``RCPT``."""
        self.held = threading.Event()
        """Set once a session waits so."""
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(_Keeper(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        """The mail server goes down: connections are refused until :meth:`start`."""
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> MailCatcher:
        self.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.holding.clear()
        self.stop()

    def wait_for(self, count: int, timeout: float = 30.0) -> list[EmailMessage]:
        """The messages accepted once there are ``count`` (an event, bounded by ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.messages)} messages received, not {count}")
                self.changed.wait(left)
            return list(self.messages)


def body(message: EmailMessage) -> str:
    """A message's plain text, its lines ended by \\n."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def links(message: EmailMessage) -> list[str]:
    """Every address the message's text links to, in order."""
    return LINK.findall(body(message))

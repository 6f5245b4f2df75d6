"""E-mail over SMTP (``aiosmtplib``), as ``chickenfoot serve --smtp-url`` names the mail server.

``smtp://user:password@host:587`` talks plain SMTP and switches to TLS when the server offers it
(STARTTLS); ``smtps://…:465`` is TLS from the start. A mail server that does not answer, or answers
"try later" (4xx), is tried again later by the outbox; one that refuses a message for good (5xx) is not.

>>> server = parse_smtp_url("smtps://mail%40example.org:s%3Acret@smtp.example.org")
>>> server, server.password  # the password stays out of its text (and so out of a log line)
(SmtpServer(host='smtp.example.org', port=465, username='mail@example.org', tls=True), 's:cret')
>>> parse_smtp_url("smtp://127.0.0.1:2525").port
2525
>>> parse_smtp_url("imap://example.org")
Traceback (most recent call last):
ValueError: an SMTP URL is smtp://[user:password@]host[:port] or smtps://…, not 'imap://example.org'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Literal
from urllib.parse import unquote, urlsplit

import aiosmtplib

log = logging.getLogger(__name__)

SEND_SECONDS = 30.0

Outcome = Literal["sent", "retry", "refused"]


@dataclass(frozen=True, slots=True)
class SmtpServer:
    host: str
    port: int
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    """TLS from the start (``smtps``); otherwise STARTTLS when the server offers it."""


def parse_smtp_url(url: str) -> SmtpServer:
    """The mail server an ``smtp://`` or ``smtps://`` URL names; raises ``ValueError`` in one line for another."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"an SMTP URL is smtp://[user:password@]host[:port] or smtps://…, not {url[:80]!r}")
    tls = parts.scheme == "smtps"
    try:
        port = parts.port or (465 if tls else 25)
    except ValueError:
        raise ValueError(f"bad port in the SMTP URL {url[:80]!r}") from None
    username = None if parts.username is None else unquote(parts.username)
    password = None if parts.password is None else unquote(parts.password)
    return SmtpServer(parts.hostname, port, username, password, tls)


class Mailer:
    """Sends one message at a time to the mail server, a connection each (a digest goes out every few
    minutes at most per player: nothing worth keeping a connection open for)."""

    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def send(self, message: EmailMessage) -> Outcome:
        server = self.server
        try:
            await aiosmtplib.send(
                message,
                hostname=server.host,
                port=server.port,
                username=server.username,
                password=server.password,
                use_tls=server.tls,
                start_tls=None if not server.tls else False,
                timeout=SEND_SECONDS,
            )
        except aiosmtplib.SMTPResponseException as exc:
            if 500 <= exc.code < 600:
                log.warning("the mail server refused a message for good: %d", exc.code)
                return "refused"
            log.info("the mail server said try later: %d", exc.code)
            return "retry"
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            log.info("the mail server cannot be reached for now: %s", exc.__class__.__name__)
            return "retry"
        return "sent"

"""Why the server refuses something, in the domain's own words: one type for every refusal.

Domain code (the table, its collaborators, each feature's service) raises :class:`Refusal` with a
:class:`Why` and the message saying what was refused (:class:`~chickenfoot.messages.Said`); nothing has
changed when it is raised. Only the edge turns it into an answer of its transport: an HTTP status
and the API's error body, a WebSocket ``error`` line, a Bot API stream's error. The domain never
names a status code.

>>> from chickenfoot.messages import Code, Said
>>> refusal = Refusal(Why.CONFLICT, Said.of(Code.ERROR_MATCH_OVER))
>>> refusal.why, str(refusal)
(<Why.CONFLICT: 'conflict'>, 'The match is over')
>>> Refusal.busy(Said.of(Code.ERROR_STORE_DOWN), retry_after=2.5).retry_after
2.5
>>> str(Refusal.conflict(Said.of(Code.ERROR_ROUND_NOT_OVER), text="the round is not over"))
'the round is not over'
"""

from __future__ import annotations

from enum import StrEnum

from chickenfoot.i18n import english
from chickenfoot.messages import Said


class Why(StrEnum):
    """What kind of refusal it is: what the edge needs to choose its answer."""

    INVALID = "invalid"
    """The request is malformed or names something that cannot be (HTTP 400)."""
    UNAUTHENTICATED = "unauthenticated"
    """Nobody is signed in, or the credential is unknown (HTTP 401)."""
    FORBIDDEN = "forbidden"
    """The one asking may not do this (HTTP 403)."""
    NOT_FOUND = "not_found"
    """What the request names does not exist, or is not shown to the one asking (HTTP 404)."""
    CONFLICT = "conflict"
    """The state does not allow it now: not your turn, a stale version, a seat taken (HTTP 409)."""
    TOO_MANY = "too_many"
    """A limit or a cap is reached: try again after :attr:`Refusal.retry_after` (HTTP 429)."""
    UNAVAILABLE = "unavailable"
    """Something the server needs is down or busy (the game store): try again shortly (HTTP 503)."""


class Refusal(Exception):
    """Something refused, and why; nothing changed. The edge answers it in its transport's form.

    Its text is the message's English, or ``text`` where a refusal has always been worded otherwise
    (the words of the WebSocket ``error`` lines that clients and scripts already read).
    """

    def __init__(self, why: Why, said: Said, *, retry_after: float | None = None, text: str | None = None) -> None:
        super().__init__(english(said) if text is None else text)
        self.why = why
        self.said = said
        self.retry_after = retry_after
        """Seconds after which trying again may succeed (for :attr:`Why.TOO_MANY` and :attr:`Why.UNAVAILABLE`)."""

    @classmethod
    def invalid(cls, said: Said, text: str | None = None) -> Refusal:
        return cls(Why.INVALID, said, text=text)

    @classmethod
    def forbidden(cls, said: Said, text: str | None = None) -> Refusal:
        return cls(Why.FORBIDDEN, said, text=text)

    @classmethod
    def not_found(cls, said: Said) -> Refusal:
        return cls(Why.NOT_FOUND, said)

    @classmethod
    def conflict(cls, said: Said, text: str | None = None) -> Refusal:
        return cls(Why.CONFLICT, said, text=text)

    @classmethod
    def too_many(cls, said: Said, retry_after: float | None = None, text: str | None = None) -> Refusal:
        """A limit is reached (:attr:`Why.TOO_MANY`): try again after ``retry_after`` seconds."""
        return cls(Why.TOO_MANY, said, retry_after=retry_after, text=text)

    @classmethod
    def busy(cls, said: Said, retry_after: float | None = None, text: str | None = None) -> Refusal:
        """A refusal because something needed is down or busy (:attr:`Why.UNAVAILABLE`)."""
        return cls(Why.UNAVAILABLE, said, retry_after=retry_after, text=text)

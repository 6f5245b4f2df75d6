"""Refusals of the HTTP API as messages: ``{"detail": English, "code": ..., **params}``.

The page renders the code in its reader's language, as it renders the WebSocket's errors; the English
``detail`` stays for older clients and scripts. Every error the API answers has this shape: the
server's own refusals (:class:`Refused`), the request validation's, and any other HTTP error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi.responses import JSONResponse

from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said


class Refused(Exception):
    """A request refused with HTTP ``status`` and a message saying why; nothing changed."""

    def __init__(self, status: int, said: Said, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(english(said))
        self.status = status
        self.said = said
        self.headers = dict(headers or {})


def body(said: Said) -> dict[str, Any]:
    """The JSON of an error answer: the message's English as ``detail``, then its code and parameters."""
    return {"detail": english(said), **said.wire()}


def answer(said: Said, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body(said), status_code=status, headers=dict(headers) if headers else None)


_LIMITS = {
    "string_too_long": (Code.INVALID_TOO_LONG, "max", "max_length"),
    "string_too_short": (Code.INVALID_TOO_SHORT, "min", "min_length"),
    "too_long": (Code.INVALID_TOO_MANY, "max", "max_length"),
    "too_short": (Code.INVALID_TOO_FEW, "min", "min_length"),
    "greater_than_equal": (Code.INVALID_AT_LEAST, "min", "ge"),
    "less_than_equal": (Code.INVALID_AT_MOST, "max", "le"),
}
"""Pydantic's error types that name a limit: the message, its parameter and the limit's key in ``ctx``."""
_PLAIN = {
    "missing": Code.INVALID_MISSING,
    "literal_error": Code.INVALID_CHOICE,
    "enum": Code.INVALID_CHOICE,
    "printable": Code.INVALID_NAME,
}


def invalid(errors: Sequence[Mapping[str, Any]]) -> Said:
    """The first of a request's validation errors (pydantic's ``errors()``) as a message naming its field."""
    if not errors:
        return Said.of(Code.INVALID_OTHER)
    first = errors[0]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return Said.of(Code.ERROR_BODY_JSON)
    limit = _LIMITS.get(kind)
    context = first.get("ctx") or {}
    if limit is not None and isinstance(context.get(limit[2]), int):
        reason = Said.of(limit[0], **{limit[1]: context[limit[2]]})
    elif kind in _PLAIN:
        reason = Said.of(_PLAIN[kind])
    elif kind.endswith(("_type", "_parsing")):
        reason = Said.of(Code.INVALID_TYPE)
    else:
        reason = Said.of(Code.INVALID_OTHER)
    field = ".".join(str(part) for part in first.get("loc", ()) if part != "body")[:100]
    return Said.of(Code.ERROR_INVALID, field=field, reason=reason) if field else reason


def unreadable_body(cause: BaseException) -> Said:
    """Why a request body could not be read."""
    if isinstance(cause, RecursionError):
        return Said.of(Code.ERROR_BODY_DEEP)
    if isinstance(cause, UnicodeDecodeError):
        return Said.of(Code.ERROR_BODY_UTF8)
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return Said.of(Code.ERROR_BODY_DIGITS)
    return Said.of(Code.ERROR_BODY_JSON)

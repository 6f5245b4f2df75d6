"""The HTTP answers of refusals, once for the whole API: ``{"detail": English, "code": ..., **params}``.

Domain code raises :class:`~chickenfoot.server.refusals.Refusal`; here, and only here, its
:class:`~chickenfoot.server.refusals.Why` becomes an HTTP status (:data:`STATUS`) and its
``retry_after`` a ``Retry-After`` header (:func:`answer_refusal`, the application's handler of every
``Refusal``). The page renders the code in its reader's language, as it renders the WebSocket's
errors; the English ``detail`` stays for older clients and scripts. Every error the API answers has
this shape: the domain's refusals, the request validation's, an unavailable game store, any other
HTTP error (:func:`install`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import StorageUnavailable

STATUS = {
    Why.INVALID: 400,
    Why.UNAUTHENTICATED: 401,
    Why.FORBIDDEN: 403,
    Why.NOT_FOUND: 404,
    Why.CONFLICT: 409,
    Why.TOO_MANY: 429,
    Why.UNAVAILABLE: 503,
}
"""The HTTP status of each kind of refusal."""
STORE_RETRY_SECONDS = 2
"""When a client may try again after the game store did not answer."""


def body(said: Said, detail: str | None = None) -> dict[str, Any]:
    """The JSON of an error answer: ``detail`` (the message's English unless given), then the message's
    code and parameters."""
    return {"detail": english(said) if detail is None else detail, **said.wire()}


def answer(
    said: Said, status: int, headers: Mapping[str, str] | None = None, detail: str | None = None
) -> JSONResponse:
    return JSONResponse(body(said, detail), status_code=status, headers=dict(headers) if headers else None)


def unchanged(request: Request, etag: str) -> bool:
    """Whether the client's copy (``If-None-Match``) is the one named ``etag``: it gets a 304."""
    wanted = request.headers.get("if-none-match", "")
    return any(tag.strip().removeprefix("W/") in (etag, "*") for tag in wanted.split(","))


def refusal_answer(refusal: Refusal, challenge: str | None = None) -> JSONResponse:
    """A refusal's answer: its status, ``Retry-After`` (whole seconds) when it says when to try again, and
    for an unauthenticated request the scheme it must authenticate with (``WWW-Authenticate``), if any.
    Its ``detail`` is the refusal's text: the message's English, or the words a refusal has always had
    (those of the table's WebSocket ``error`` lines, which the Bot API's answers repeat)."""
    headers = {}
    if refusal.retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(refusal.retry_after)))
    if challenge is not None and refusal.why is Why.UNAUTHENTICATED:
        headers["WWW-Authenticate"] = challenge
    return answer(refusal.said, STATUS[refusal.why], headers, str(refusal))


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


def install(app: FastAPI, challenges: Mapping[str, str]) -> None:
    """Answer every error of ``app`` as a message; ``challenges``: the authentication scheme of each path
    prefix authenticated by a header (the Bot API's bearer tokens), named in its 401 answers."""

    async def answer_refusal(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refusal)
        path = request.url.path
        return refusal_answer(exc, next((s for prefix, s in challenges.items() if path.startswith(prefix)), None))

    async def bad_request(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return answer(invalid(exc.errors()), 400)

    async def http_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        cause = exc.__cause__
        if exc.status_code == 400 and cause is not None:  # FastAPI could not read the body at all
            return answer(unreadable_body(cause), 400)
        return answer(Said.of(Code.ERROR_HTTP, status=exc.status_code), exc.status_code, exc.headers)

    async def storage_unavailable(request: Request, _exc: Exception) -> Response:
        said = Said.of(Code.ERROR_STORE_UNAVAILABLE)
        return await answer_refusal(request, Refusal.busy(said, retry_after=STORE_RETRY_SECONDS))

    async def server_error(_request: Request, _exc: Exception) -> Response:
        return answer(Said.of(Code.ERROR_HTTP, status=500), 500)

    app.add_exception_handler(Refusal, answer_refusal)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(StorageUnavailable, storage_unavailable)
    app.add_exception_handler(Exception, server_error)

"""The page's catalogs: ``GET /api/i18n`` answers the best game language for the reader.

The reader's preferences come as ``?languages=lt,en`` (the page sends its remembered choice, then
``navigator.languages``) or else from the ``Accept-Language`` header. The answer is
:func:`chickenfoot.i18n.catalog_json` of that language plus How to play's sections; there are four
languages, so each answer is built once.
"""

from __future__ import annotations

import json
from functools import cache

from fastapi import APIRouter, Request, Response

from chickenfoot.howto import structure
from chickenfoot.i18n import LANGUAGES, catalog_json, negotiate

MAX_PREFERENCES = 1000
"""Characters of a preference list read; the rest is ignored (a client's cost stays bounded)."""

router = APIRouter()


@cache
def catalog_body(lang: str) -> bytes:
    data = {**catalog_json(lang), "languages": dict(LANGUAGES), "howto": structure()}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


@router.get("/api/i18n")
def catalog(request: Request, languages: str | None = None) -> Response:
    preferences = languages if languages is not None else request.headers.get("accept-language", "")
    lang = negotiate(preferences[:MAX_PREFERENCES])
    return Response(
        catalog_body(lang),
        media_type="application/json",
        headers={"Content-Language": lang, "Vary": "Accept-Language", "Cache-Control": "no-cache"},
    )

"""The moderation page (``/admin``) and its API (``/api/admin/...``): for operators only.

To anyone else, signed in or not, every one of these addresses answers exactly as an address the site
does not have (404, the same body): nothing tells a player that they exist. An operator's requests
that change something carry the session's CSRF token and come from the site's own pages, as the
account's do. The routes parse, authorise and answer; what they do is
:class:`~chickenfoot.server.moderation.service.Moderation`'s. No route changes or deletes a line of the
audit log: it is only read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field, ValidationError

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.moderation.reports import Outcome
from chickenfoot.server.moderation.schema import REASON_LENGTH
from chickenfoot.server.moderation.service import MAX_MINUTES, Moderation, Operator
from chickenfoot.server.moderation.store import AuditLine
from chickenfoot.server.moderation.words import MAX_ENTRY
from chickenfoot.server.refusals import Refusal, Why

PREFIX = "/api/admin"
MAX_ID = 2**31 - 1
"""The database's integer: a larger id is refused before any query."""


class Acting(BaseModel):
    reason: str = Field(min_length=1, max_length=REASON_LENGTH)
    minutes: int | None = Field(default=None, ge=1, le=MAX_MINUTES)
    """For a mute or a suspension: how long."""


class Ending(BaseModel):
    reason: str = Field(min_length=1, max_length=REASON_LENGTH)


class Handling(BaseModel):
    outcome: Outcome
    resolution: str = Field(default="", max_length=REASON_LENGTH)


class NewWord(BaseModel):
    word: str = Field(min_length=1, max_length=MAX_ENTRY)


Body = TypeVar("Body", bound=BaseModel)


def unknown() -> Refusal:
    """The answer of an address the site does not have (``answers.install``'s for any 404)."""
    return Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_HTTP, status=404))


async def body_of(model: type[Body], request: Request) -> Body:
    """The request's JSON body as ``model``, read once the operator is known (a body FastAPI read itself would
    be refused as malformed before anyone is asked who they are), refused as FastAPI refuses one."""
    try:
        data = await request.json()
    except ValueError:
        raise RequestValidationError([{"type": "json_invalid", "loc": ("body",), "msg": "JSON decode error"}]) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False)) from None


def operator_of(request: Request) -> Operator:
    """The operator the router's dependency found for this request."""
    me = request.state.operator
    assert isinstance(me, Operator)
    return me


def written(line: AuditLine) -> dict[str, Any]:
    return {"audit": line.wire()}


def moderation_router(moderation: Moderation, accounts: Accounts, web_dir: Path) -> APIRouter:
    async def signed_in_operator(request: Request) -> None:
        """Keeps the signed-in operator for the route (:func:`operator_of`); anyone else is answered as at
        an address the site does not have."""
        me = await accounts.signed_in(request)
        if me is None or not me.account.operator:
            raise unknown()
        if request.method not in ("GET", "HEAD"):
            accounts.from_its_pages(request, me)
        request.state.operator = Operator(me.account.id, me.account.username)

    # Asked before anything of the request is read or checked: a path or a query wrong for these routes
    # is answered to the others as any address the site does not have.
    router = APIRouter(include_in_schema=False, dependencies=[Depends(signed_in_operator)])

    @router.get("/admin")
    async def page(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "admin", request)

    @router.get(f"{PREFIX}/reports")
    async def reports(
        handled: bool = False, before: int | None = Query(default=None, ge=1, le=MAX_ID)
    ) -> dict[str, Any]:
        """Open reports (``handled``: those handled), the newest first, a page at a time (``before``: an id)."""
        listed = await moderation.listed_reports(handled, before)
        return {"reports": [report.wire() for report in listed], "open": await moderation.reports.count_open()}

    @router.post(f"{PREFIX}/reports/{{report_id}}")
    async def handle(report_id: int, request: Request) -> dict[str, Any]:
        body = await body_of(Handling, request)
        if not 1 <= report_id <= MAX_ID:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_REPORT))
        return {
            "report": (
                await moderation.handle_report(operator_of(request), report_id, body.outcome, body.resolution)
            ).wire()
        }

    @router.get(f"{PREFIX}/players")
    async def player(
        name: str | None = Query(default=None, max_length=64), id: int | None = Query(default=None, ge=1, le=MAX_ID)
    ) -> dict[str, Any]:
        """A player by name (or a look-alike of it), or by their account's id (a closed account has no name)."""
        if id is not None:
            return (await moderation.player_by_id(id)).wire()
        if not name:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_ACCOUNT))
        return (await moderation.player(name)).wire()

    @router.post(f"{PREFIX}/players/{{account_id}}/{{action}}")
    async def act(
        account_id: int,
        action: Literal["mute", "unmute", "suspend", "unsuspend", "close", "rename"],
        request: Request,
    ) -> dict[str, Any]:
        """An action on a player, with its reason (and for a mute or a suspension, its ``minutes``)."""
        body = await body_of(Acting, request)
        if not 1 <= account_id <= MAX_ID:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.MODERATION_NO_ACCOUNT))
        if action in ("mute", "suspend"):
            if body.minutes is None:
                raise Refusal.invalid(
                    Said.of(Code.ERROR_INVALID, field="minutes", reason=Said.of(Code.INVALID_MISSING))
                )
            restrict = moderation.mute if action == "mute" else moderation.suspend
            return written(await restrict(operator_of(request), account_id, body.minutes, body.reason))
        done = {
            "unmute": moderation.unmute,
            "unsuspend": moderation.unsuspend,
            "close": moderation.close,
            "rename": moderation.rename,
        }[action]
        return written(await done(operator_of(request), account_id, body.reason))

    @router.post(f"{PREFIX}/tables/{{code}}/end")
    async def end_table(code: str, request: Request) -> dict[str, Any]:
        """The table's match stops where it is and the table is deleted; its people are told."""
        body = await body_of(Ending, request)
        return written(await moderation.end_table(operator_of(request), code[:16], body.reason))

    @router.get(f"{PREFIX}/words")
    async def words() -> dict[str, Any]:
        """The words added on this page, and how many the lists shipped and the operator's file hold."""
        added = await moderation.words_added()
        return {
            "fixed": len(moderation.words.fixed),
            "added": [
                {"word": word.word, "by": word.added_by, "at": word.added_at.isoformat(timespec="seconds")}
                for word in added
            ],
        }

    @router.post(f"{PREFIX}/words", status_code=201)
    async def add_word(request: Request) -> dict[str, Any]:
        body = await body_of(NewWord, request)
        return written(await moderation.add_word(operator_of(request), body.word))

    @router.delete(f"{PREFIX}/words/{{word}}")
    async def remove_word(word: str, request: Request) -> dict[str, Any]:
        return written(await moderation.remove_word(operator_of(request), word[:MAX_ENTRY]))

    @router.get(f"{PREFIX}/audit")
    async def audit(before: int | None = Query(default=None, ge=1, le=MAX_ID)) -> dict[str, Any]:
        """The audit log, the newest first, a page at a time (``before``: an id). It is only ever read."""
        return {"lines": [line.wire() for line in await moderation.audit(before)]}

    return router

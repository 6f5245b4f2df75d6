"""The turns' HTTP API: ``GET /api/turns`` (the tables waiting for the signed-in account, the least time
left first: the top bar's count and its "next" link) and ``/api/vacation`` (its days left, going on
vacation and coming back; changes carry the session's CSRF token, as every change of an account does)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.turns.service import VACATION_DAYS, Turns


class VacationBody(BaseModel):
    days: int = Field(ge=1, le=VACATION_DAYS)


def turns_router(turns: Turns, accounts: Accounts) -> APIRouter:
    router = APIRouter()

    @router.get("/api/turns")
    async def waiting(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=False)
        return await turns.waiting(me.account.id)

    @router.get("/api/vacation")
    async def vacation(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=False)
        return await turns.vacation(me.account.id)

    @router.post("/api/vacation")
    async def go_away(body: VacationBody, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        return await turns.go_away(me.account.id, body.days)

    @router.delete("/api/vacation")
    async def come_back(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        return await turns.come_back(me.account.id)

    return router

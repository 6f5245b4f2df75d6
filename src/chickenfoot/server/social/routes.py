"""The HTTP API of friends and blocks under ``/api/social`` (docs/api/social.md), and the friends page.

Every route needs a signed-in player; those that change something are checked as the account API's
are (``Origin`` and the session's ``X-CSRF-Token``). Follows, challenges and reports are limited per
account (server/http/limits.py); accepting a challenge makes a table, limited per address as any new
table is. The routes parse, authorise and answer; what they do is the services'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as InPath
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.http.pages import serve_page
from chickenfoot.server.social.challenging import ChallengeRequest, Challenges, Seated
from chickenfoot.server.social.reports import MAX_NOTE, Reason, Reports
from chickenfoot.server.social.service import MAX_ID, Social, Target
from chickenfoot.server.social.store import Audience, Choices

PREFIX = "/api/social"
Id = Annotated[int, InPath(ge=1, le=MAX_ID)]
"""A challenge's number (a bigger one is refused before any query)."""


class ChoicesBody(BaseModel):
    challenges: Audience
    status: Audience


class ReportBody(Target):
    reason: Reason
    note: str = Field(default="", max_length=MAX_NOTE)


def seated(seat: Seated) -> dict[str, Any]:
    return {"code": seat.code, "seat": seat.seat, "token": seat.token}


def choices_json(choices: Choices) -> dict[str, str]:
    return {"challenges": choices.challenges.value, "status": choices.status.value}


def social_router(
    social: Social,
    challenges: Challenges,
    reports: Reports,
    accounts: Accounts,
    limits: RateLimiter,
) -> APIRouter:
    router = APIRouter(prefix=PREFIX)
    poll = social.settings.poll_seconds

    @router.get("/news")
    async def news(request: Request) -> dict[str, Any]:
        """What the player's lobby and friends page show of their challenges: those received and open,
        their own accepted whose seat waits for them, and their own waiting for an answer (what they are
        told of challenges is in their notifications)."""
        me = await accounts.require(request, changing=False)
        await social.present(me)
        await challenges.expire_due(me.account.id)
        return await challenges.news(me) | {"poll": poll}

    @router.get("/friends")
    async def friends(request: Request) -> dict[str, Any]:
        """The players the player follows: online or not, at which table, and whether they may be challenged."""
        me = await accounts.require(request, changing=False)
        return {"friends": await social.friends(me), "poll": poll}

    @router.post("/follows", status_code=201)
    async def follow(body: Target, request: Request) -> dict[str, Any]:
        """Follow a player: by name, by their seat at a table, or by a chat line they said."""
        me = await accounts.require(request, changing=True)
        return {"following": await social.follow(me, body)}

    @router.delete("/follows/{name}")
    async def unfollow(name: str, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await social.unfollow(me, name)
        return {"unfollowed": name}

    @router.get("/blocks")
    async def blocked(request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=False)
        return {"blocked": await social.blocked(me)}

    @router.post("/blocks", status_code=201)
    async def block(body: Target, request: Request) -> dict[str, Any]:
        """Block a player (by name, seat or chat line): they are not told."""
        me = await accounts.require(request, changing=True)
        return {"blocked": await social.block(me, body)}

    @router.delete("/blocks/{name}")
    async def unblock(name: str, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await social.unblock(me, name)
        return {"unblocked": name}

    @router.get("/players/{name}")
    async def relation(name: str, request: Request) -> dict[str, Any]:
        """What the player's profile offers: follow or unfollow, block or unblock, challenge."""
        me = await accounts.require(request, changing=False)
        return await social.relation(me, name)

    @router.get("/tables/{code}")
    async def table_seats(code: str, request: Request) -> dict[str, Any]:
        """The seats of a table that follow an account (whose, it does not say): which one is the asker's,
        which the asker follows. A guest learns which seats have an account."""
        me = await accounts.signed_in(request)
        return {"seats": await social.seats_of(me, code[:16])}

    @router.get("/privacy")
    async def privacy(request: Request) -> dict[str, str]:
        me = await accounts.require(request, changing=False)
        return choices_json(await social.choices(me))

    @router.put("/privacy")
    async def choose(body: ChoicesBody, request: Request) -> dict[str, str]:
        me = await accounts.require(request, changing=True)
        return choices_json(await social.choose(me, Choices(body.challenges, body.status)))

    @router.post("/challenges", status_code=201)
    async def challenge(body: ChallengeRequest, request: Request) -> dict[str, Any]:
        """Challenge a player to a table of these options; they answer within the challenge's time."""
        me = await accounts.require(request, changing=True)
        made = await challenges.challenge(me, body)
        return {"id": made.id, "to": body.to, "expires": made.expires_at.isoformat(timespec="seconds")}

    @router.post("/challenges/{challenge_id}/accept")
    async def accept(challenge_id: Id, request: Request) -> dict[str, Any]:
        """Accept a challenge: the table is made, the player its creator; their seat's credential."""
        me = await accounts.require(request, changing=True)
        await limits.check("table", client_address(request))
        return seated(await challenges.accept(me, challenge_id, request))

    @router.post("/challenges/{challenge_id}/decline")
    async def decline(challenge_id: Id, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await challenges.decline(me, challenge_id)
        return {"declined": challenge_id}

    @router.post("/challenges/{challenge_id}/withdraw")
    async def withdraw(challenge_id: Id, request: Request) -> dict[str, Any]:
        me = await accounts.require(request, changing=True)
        await challenges.withdraw(me, challenge_id)
        return {"withdrawn": challenge_id}

    @router.post("/challenges/{challenge_id}/seat")
    async def take_seat(challenge_id: Id, request: Request) -> dict[str, Any]:
        """The challenger's seat at the table their accepted challenge made: its credential, handed out once."""
        me = await accounts.require(request, changing=True)
        return seated(await challenges.take_seat(me, challenge_id, request))

    @router.post("/reports", status_code=201)
    async def report(body: ReportBody, request: Request) -> dict[str, Any]:
        """Report a player (by name or seat) or a chat line to the operators, with a reason."""
        me = await accounts.require(request, changing=True)
        await limits.check("report", str(me.account.id))
        code = None if body.table is None else body.table.upper()
        by_line = code is not None and body.line is not None
        reported = None if by_line else await social.resolve(me, body, naming=False)
        return {"id": await reports.file(me.account.id, reported, body.reason, body.note, code, body.line)}

    return router


def friends_page_router(web_dir: Path) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/friends")
    async def friends_page(request: Request) -> HTMLResponse:
        return serve_page(web_dir, "friends", request)

    return router

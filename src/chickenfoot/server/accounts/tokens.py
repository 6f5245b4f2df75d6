"""Personal API tokens of bot accounts: minted (shown once), listed and revoked under ``/api/account/tokens``.

A token is ``cfb_`` and a 32-byte random secret (base64url); storage keeps its SHA-256 digest only, so a
token is found by the digest of what a program presents (``Authorization: Bearer ...``), and nobody,
the server included, can show it again. Each token carries scopes: what the Bot API lets it do.
The routes are cookie-authenticated with the CSRF defences of the other account routes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.schema import accounts, api_tokens
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.accounts.store import _aware
from chickenfoot.server.clock import utc
from chickenfoot.server.credentials import MAX_SECRET_LENGTH, digest, new_secret
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import Storage

PREFIX = "cfb_"
SCOPES = ("bot:play", "table:create", "chat")
"""``bot:play``: the event streams, seat views, moves, accepting and declining invitations;
``table:create``: new tables; ``chat``: chat lines at its tables."""
MAX_TOKENS = 20
"""Live tokens per account."""


@dataclass(frozen=True, slots=True)
class Token:
    id: int
    account_id: int
    label: str
    scopes: frozenset[str]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Bearer:
    """Who presented a token: its account (a bot account, by name) and the token's own facts."""

    account_id: int
    username: str
    token: Token


def new_token() -> str:
    """A fresh token: the prefix (so scanners and people recognise it) and a 256-bit secret."""
    return PREFIX + new_secret()


def _token(row: Any) -> Token:
    return Token(row.id, row.account_id, row.label, frozenset(row.scopes.split()), _aware(row.created_at))


class TokenStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def mint(self, account_id: int, label: str, scopes: frozenset[str], at: datetime) -> tuple[Token, str] | None:
        """A new token and its secret (only its digest is stored), or ``None`` when the account has
        :data:`MAX_TOKENS` already."""
        secret = new_token()
        async with self.storage.transaction() as conn:
            count = await conn.execute(
                sa.select(sa.func.count()).select_from(api_tokens).where(api_tokens.c.account_id == account_id)
            )
            if int(count.scalar_one()) >= MAX_TOKENS:
                return None
            row = {"digest": digest(secret), "account_id": account_id, "label": label, "created_at": at}
            inserted = await conn.execute(
                api_tokens.insert().values(scopes=" ".join(sorted(scopes)), **row).returning(api_tokens.c.id)
            )
        return Token(int(inserted.scalar_one()), account_id, label, scopes, at), secret

    async def of(self, account_id: int) -> list[Token]:
        query = sa.select(api_tokens).where(api_tokens.c.account_id == account_id).order_by(api_tokens.c.id)
        async with self.storage.reading() as conn:
            return [_token(row) for row in await conn.execute(query)]

    async def revoke(self, account_id: int, token_id: int) -> bool:
        query = api_tokens.delete().where(api_tokens.c.account_id == account_id, api_tokens.c.id == token_id)
        async with self.storage.transaction() as conn:
            return bool((await conn.execute(query)).rowcount)

    async def bearer(self, secret: str) -> Bearer | None:
        """The live bot account and token a presented secret names, or ``None``."""
        if not secret.startswith(PREFIX) or len(secret) > MAX_SECRET_LENGTH:
            return None
        query = (
            sa.select(api_tokens, accounts.c.username)
            .select_from(api_tokens.join(accounts, accounts.c.id == api_tokens.c.account_id))
            .where(api_tokens.c.digest == digest(secret), accounts.c.bot, ~accounts.c.deleted)
        )
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else Bearer(row.account_id, row.username, _token(row))


class NewToken(BaseModel):
    label: str = Field(default="", max_length=64)
    scopes: list[str] = Field(default_factory=lambda: list(SCOPES), min_length=1, max_length=len(SCOPES))


def token_facts(token: Token) -> dict[str, Any]:
    return {
        "id": token.id,
        "label": token.label,
        "scopes": sorted(token.scopes),
        "created": token.created_at.isoformat(),
    }


def tokens_router(accounts_service: Accounts, tokens: TokenStore) -> APIRouter:
    """``/api/account/tokens``: a bot account's tokens (other accounts have none to mint)."""
    router = APIRouter(prefix="/api/account/tokens")

    @router.get("")
    async def listed(request: Request) -> dict[str, Any]:
        me = await accounts_service.require(request, changing=False)
        owned = await tokens.of(me.account.id) if me.account.bot else []
        return {"bot": me.account.bot, "scopes": list(SCOPES), "tokens": [token_facts(t) for t in owned]}

    @router.post("", status_code=201)
    async def mint(body: NewToken, request: Request) -> dict[str, Any]:
        """A new token: its secret is in this answer and nowhere else, ever."""
        me = await accounts_service.require(request, changing=True)
        if not me.account.bot:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.BOTAPI_NOT_BOT_ACCOUNT))
        unknown = [scope for scope in body.scopes if scope not in SCOPES]
        if unknown:
            raise Refusal(Why.INVALID, Said.of(Code.BOTAPI_UNKNOWN_SCOPE, scope=unknown[0][:40]))
        label = body.label.strip() or "token"
        minted = await tokens.mint(me.account.id, label, frozenset(body.scopes), utc(accounts_service.clock))
        if minted is None:
            raise Refusal(Why.CONFLICT, Said.of(Code.BOTAPI_TOO_MANY_TOKENS, limit=MAX_TOKENS))
        token, secret = minted
        return token_facts(token) | {"token": secret}

    @router.delete("/{token_id}")
    async def revoke(token_id: int, request: Request) -> dict[str, Any]:
        me = await accounts_service.require(request, changing=True)
        if not await tokens.revoke(me.account.id, token_id):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NO_TOKEN))
        return {"revoked": token_id}

    return router

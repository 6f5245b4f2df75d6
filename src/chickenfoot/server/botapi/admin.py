"""The operator's ``chickenfoot account bot NAME``: mark an account as a bot account (and mint its first token)."""

from __future__ import annotations

from chickenfoot.server.botapi.store import MAX_TOKENS, SCOPES, BotStore, TokenStore
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.storage import Storage, default_database_url


async def make_bot_account(database_url: str | None, username: str, mint: bool, *, clock: Clock) -> str | bool | None:
    """``None``: no such account; ``False``: it has played as a person; else ``True``, or with ``mint``
    a new token's secret (every scope). Raises ``ValueError`` when the account has its most tokens."""
    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        bots = BotStore(storage)
        done = await bots.make_bot(username)
        if not done or not mint:
            return done
        found = await bots.bot_named(username)
        assert found is not None
        minted = await TokenStore(storage).mint(found[0], "cli", frozenset(SCOPES), utc(clock))
        if minted is None:
            raise ValueError(f"{username!r} has {MAX_TOKENS} tokens already: revoke one on the account page")
        return minted[1]
    finally:
        await storage.close()

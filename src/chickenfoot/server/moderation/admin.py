"""The operator's ``chickenfoot account op NAME [--revoke]``: grant or revoke the operator's role, written
into the audit log as done on the command line."""

from __future__ import annotations

from chickenfoot.server.accounts import names
from chickenfoot.server.accounts.store import Account, AccountStore
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.moderation.service import Action
from chickenfoot.server.moderation.store import ModerationStore
from chickenfoot.server.storage import Storage, default_database_url


async def set_operator(database_url: str | None, username: str, operator: bool, *, clock: Clock) -> Account | None:
    """Grant (``operator``) or revoke the role of the account named ``username`` (or a look-alike of it);
    the account as it is now, or ``None`` (no such account)."""
    storage = Storage(database_url or default_database_url(), clock)
    try:
        await storage.migrate()
        account = await AccountStore(storage).set_operator(names.skeleton(names.normalised(username)), operator)
        if account is not None:
            action = Action.GRANT if operator else Action.REVOKE
            await ModerationStore(storage).append(utc(clock), None, action, (account.id, account.username), "", {})
        return account
    finally:
        await storage.close()

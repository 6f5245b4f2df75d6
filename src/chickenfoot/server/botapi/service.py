"""What the Bot API does: who a token is (looked up, cached a few seconds, counted against its limits),
the tables a bot account creates, the invitations it gets, accepts and declines, and the events its
account hears (invitations, tables starting, matches ending). Every refusal is a
:class:`~chickenfoot.server.refusals.Refusal`.

An invitation from an account the invited bot account blocks is dropped unheard: the inviter is
answered as for any invitation, and the seat waits as for a bot that does not answer (``ignores``,
answered by server/social).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Literal, get_args

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts, SignedIn
from chickenfoot.server.botapi.gate import PausedTokens
from chickenfoot.server.botapi.store import MAX_TOKENS, SCOPES, Bearer, BotStore, Invitation, Token, TokenStore
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus
from chickenfoot.server.credentials import digest
from chickenfoot.server.http.limits import Kind, RateLimiter
from chickenfoot.server.http.tables import TableLookup
from chickenfoot.server.notices import Invited, Notifier
from chickenfoot.server.ratings.model import Family, Rating
from chickenfoot.server.ratings.rated import why_not_rated
from chickenfoot.server.ratings.service import one_seat_each
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.chat import Listener
from chickenfoot.server.table.commands import Abort, Leave, Resign, SeatBotAccount, Take
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.registry import TableRegistry
from chickenfoot.server.table.seats import refuse_aborted

BEARER_SECONDS = 5.0
"""How long a token looked up is trusted without asking storage again. A revoked token is forgotten at
once by every process that hears of it (its open streams end); this bounds the rest (a process that
missed the message)."""
MAX_KNOWN = 10_000
"""Tokens looked up and kept; past them every one is looked up again."""

Opponent = tuple[str | None, str | None]
"""A seat of a new table besides the bot's own: a bot level that plays it, or a bot account invited to it."""
Configure = Callable[[dict[str, Any]], TableConfig]
"""A table's configuration from the body of ``POST /api/tables`` (already valid); raises :class:`Refusal`."""
Ignores = Callable[[int, int], Awaitable[bool]]
"""Whether the account (first) blocks the account (second)."""
Listening = Callable[[int], Awaitable[Listener]]
"""Who listens at a bot account's table stream: the account, and those whose chat lines it is spared."""


async def ignores_nobody(_account_id: int, _other: int) -> bool:
    return False


async def hears_everyone(account_id: int) -> Listener:
    return Listener(account_id)


def online_key(account_id: int) -> str:
    """Where the account streams a bot account has open are counted, like a table's sockets."""
    return f"bot-online-{account_id}"


def account_channel(account_id: int) -> str:
    """The channel of one account's events (invitations, tables starting and ending), in every process."""
    return f"account:{account_id}"


DeclineReason = Literal["generic", "later", "rated", "casual", "rules", "players"]
DECLINE_REASONS: tuple[str, ...] = get_args(DeclineReason)
"""Why a bot declines an invitation (``generic`` when it does not say), as Lichess's challenge reasons:
not now, not rated (or only rated), not these rules, not this many players."""


def invitation_event(table: Table, invitation: Invitation) -> dict[str, Any]:
    return {
        "type": "invitation",
        "table": table.code,
        "seat": invitation.seat,
        "from": invitation.inviter,
        "rated": table.config.rated,
        "players": len(table.config.seats),
        "rules": table.match.rules.to_dict(),
    }


class BotApi:
    def __init__(
        self,
        hub: TableRegistry,
        accounts: Accounts,
        limits: RateLimiter,
        paused: PausedTokens,
        configure: Configure,
        tables: TableLookup,
        clock: Clock,
        notifier: Notifier,
        bus: Bus,
        ignores: Ignores = ignores_nobody,
        listening: Listening = hears_everyone,
    ) -> None:
        """``paused``: the tokens this process knows to be paused, shared with the flood gate in front;
        ``notifier``: tells an invited account (its list, its devices, its mailbox); ``bus``: the
        cluster's, carrying each account's events to every process; ``ignores``, ``listening``: the
        blocks' ports (server/social)."""
        self.hub, self.accounts, self.limits, self.paused, self.configure = hub, accounts, limits, paused, configure
        self.ignores, self.listening = ignores, listening
        self.tables, self.notifier = tables, notifier
        self.clock, self.bus = clock, bus
        self.tokens, self.bots = TokenStore(hub.storage), BotStore(hub.storage)
        self._known: dict[str, tuple[Bearer | None, float]] = {}
        accounts.live.on_ended(self._forget)  # a token revoked is looked up again
        self._tasks: set[asyncio.Task[None]] = set()

    # --- who is asking --------------------------------------------------------------------------

    async def bearer(self, secret: str | None, address: str, use: Kind, scope: str) -> Bearer:
        """The bot account whose token ``secret`` is, counted for one ``use``; refuses a missing or unknown
        token (an address looking up too many), a token over its limits, a token without ``scope``."""
        if secret is None:
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.BOTAPI_BAD_TOKEN))
        key = digest(secret)
        bearer, until = self._known.get(key, (None, 0.0))
        if until < self.clock.monotonic():
            await self.limits.check("bot_lookup", address)
            bearer = await self.tokens.bearer(secret)
            if len(self._known) > MAX_KNOWN:
                self._known.clear()
            self._known[key] = (bearer, self.clock.monotonic() + BEARER_SECONDS)
        if bearer is None:
            raise Refusal(Why.UNAUTHENTICATED, Said.of(Code.BOTAPI_BAD_TOKEN))
        if (refusal := await self.limits.refusal(use, key)) is not None:
            reason, wait = refusal
            if reason.code is Code.BOTAPI_PAUSED:
                self.paused.pause(key, wait)
            raise Refusal(Why.TOO_MANY, reason, retry_after=wait)
        if scope not in bearer.token.scopes:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.BOTAPI_SCOPE_MISSING, scope=scope))
        return bearer

    def _forget(self, key: str) -> None:
        self._known.pop(key, None)

    async def seated(self, code: str, bearer: Bearer) -> tuple[Table, int]:
        """The table ``code`` and the bot's seat there; refuses a bot not seated at it."""
        table = await self.tables(code)
        seat = await self.accounts.store.seat_at(table.code, bearer.account_id)
        if seat is None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.BOTAPI_NOT_SEATED, table=table.code))
        return table, seat

    # --- tables and invitations -------------------------------------------------------------------

    async def create(
        self, bearer: Bearer, wanted: dict[str, Any], opponents: list[Opponent], rated: bool = False
    ) -> Table:
        """A new table (``wanted``: the rest of ``POST /api/tables``' body): the bot sits at seat 0, bot
        levels play their seats, bot accounts are invited to theirs; ``rated``: the match counts for
        the ratings (refused, with why, when it cannot)."""
        seats: list[dict[str, Any]] = [{"kind": "human", "name": bearer.username}]
        for level, account in opponents:
            if account is not None:
                found = await self.bots.bot_named(account)
                if found is None:
                    raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NOT_A_BOT, name=quoted(account[:64])))
                if rated and found[0] == bearer.account_id:
                    raise Refusal.forbidden(Said.of(Code.RATING_TWO_SEATS))
                seats.append({"kind": "human"})
            else:
                seats.append({"kind": "bot", "bot": level or DEFAULT_LEVEL})
        config = self.configure(wanted | {"seats": seats})
        if rated:
            if (why := why_not_rated(config.rules, config.seats)) is not None:
                raise Refusal.invalid(why)
            config.rated = True  # every seat's player is an account: the bot, the bots invited
        table = await self.hub.create(config)
        await self.sit_down(table, 0, bearer)
        for seat, (_level, account) in enumerate(opponents, 1):
            if account is not None:
                await self.invite(table, seat, account, bearer.username, bearer.account_id)
        return table

    async def invite(self, table: Table, seat: int, name: str, inviter: str | None, sender: int | None = None) -> None:
        """Invite the bot account ``name`` to ``seat``: it hears so on its account's stream, and is notified
        (``sender``: the inviting account, whose invitations are capped; refused past the caps). A bot
        account that blocks ``sender`` is not: nothing is kept, heard or said."""
        found = await self.bots.bot_named(name)
        if found is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NOT_A_BOT, name=quoted(name[:64])))
        if sender is not None and await self.ignores(found[0], sender):
            return
        notice = Invited(table.code, seat=seat, inviter=inviter, players=len(table.config.seats))
        await self.notifier.notify(found[0], notice, sender=sender)
        invitation = Invitation(table.code, seat, found[0], inviter)
        await self.bots.invite(invitation, utc(self.clock))
        await self.tell(found[0], invitation_event(table, invitation))

    async def invite_by_creator(self, table: Table, seat: int, creator_token: str, name: str) -> None:
        """The creator (holding ``creator_token``) invites a bot account to a free seat."""
        if await self.hub.credentials.seat_of(table.code, creator_token) != table.config.creator:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_CREATOR_ONLY))
        if seat not in table.free_seats():
            raise Refusal.conflict(Said.of(Code.BOTAPI_SEAT_NOT_FREE, number=seat))
        creator = await self.bots.account_at(table.code, table.config.creator)
        if creator is None:  # a guest's table: nobody to name, no account's caps
            await self.invite(table, seat, name, None)
        else:
            await self.invite(table, seat, name, creator[1], creator[0])

    async def accept(self, code: str, bearer: Bearer) -> tuple[Table, int]:
        """Take the seat the bot was invited to."""
        table = await self.hub.get(code)
        invitation = None if table is None else await self.bots.take_invitation(table.code, bearer.account_id)
        if table is None or invitation is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NO_INVITATION, table=quoted(code[:16])))
        refuse_aborted(table.config)
        await one_seat_each(self.accounts, table.code, table.config, bearer.account_id)
        if await self.hub.credentials.issue_seat(table.code, invitation.seat) is None:
            raise Refusal.conflict(Said.of(Code.BOTAPI_SEAT_NOT_FREE, number=invitation.seat))
        await table.submit(Take(invitation.seat, bearer.username))
        await self.sit_down(table, invitation.seat, bearer)
        return table, invitation.seat

    async def decline(self, code: str, bearer: Bearer, reason: DeclineReason = "generic") -> str:
        """Decline an invitation, saying why (:data:`DECLINE_REASONS`): the seat stays free (its creator
        may invite another or give it to a bot), and the creator's account hears so on its stream."""
        table = await self.hub.get(code)
        invitation = None if table is None else await self.bots.take_invitation(table.code, bearer.account_id)
        if table is None or invitation is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NO_INVITATION, table=quoted(code[:16])))
        creator = await self.bots.account_at(table.code, table.config.creator)
        if creator is not None:
            declined = {"type": "invitation_declined", "table": table.code, "seat": invitation.seat}
            await self.tell(creator[0], declined | {"by": bearer.username, "reason": reason})
        return table.code

    async def abort(self, code: str, bearer: Bearer) -> Table:
        """The bot calls off the table it created before its match begins: it never starts, every
        invitation to it is withdrawn (each invited bot hears ``invitation_cancelled``) and every other
        bot account seated there hears ``table_aborted``."""
        table, seat = await self.seated(code, bearer)
        await table.submit(Abort(seat))
        for invitation in await self.bots.withdraw_invitations(table.code):
            await self.tell(invitation.account_id, {"type": "invitation_cancelled", "table": table.code})
        for other, account_id in await self.bots.bot_seats(table.code):
            if other != seat:
                await self.tell(account_id, {"type": "table_aborted", "table": table.code, "seat": other})
        return table

    async def resign(self, code: str, bearer: Bearer) -> Table:
        """The bot resigns a match in play: a bot level plays its seat to the end. The seat stays the
        account's (its history; at a rated table it finishes last) but the account acts for it no more."""
        table, seat = await self.seated(code, bearer)
        level = self.hub.services.timing.cover_bot

        async def revoke() -> None:  # a bot account's seat opens by its account only (it holds no credential)
            await self.accounts.store.handed_over(table.code, seat, None)

        await table.submit(Resign(seat, level, revoke))
        return table

    async def leave(self, code: str, bearer: Bearer) -> Table:
        """The bot leaves, as a page's "Leave the table": a bot plays its seat until its table stream
        opens again (at a rated table, not coming back before the end finishes last)."""
        table, seat = await self.seated(code, bearer)
        await table.submit(Leave(seat))
        return table

    async def sit_down(self, table: Table, seat: int, bearer: Bearer) -> None:
        """Seat the bot account, marked so (its name shows the BOT tag); a bot sitting down is ready
        (it has no ready button to press)."""
        await self.accounts.store.sit(table.code, seat, bearer.account_id)
        await table.submit(SeatBotAccount(seat))
        await self.tell(bearer.account_id, {"type": "table_started", "table": table.code, "seat": seat})

    # --- the account's events ---------------------------------------------------------------------

    async def tell(self, account_id: int, event: dict[str, Any]) -> None:
        await self.bus.publish(account_channel(account_id), event)

    def match_finished(self, code: str) -> None:
        """A table's match is over: its bot accounts hear so (a hook of ``TableRegistry.on_match_finished``)."""

        async def announce() -> None:
            table = self.hub.tables.get(code)
            winners = table.winners() if table is not None else None  # a match lost on time: the other player
            for seat, account_id in await self.bots.bot_seats(code):
                await self.tell(account_id, {"type": "match_over", "table": code, "seat": seat, "winners": winners})

        task = asyncio.ensure_future(announce())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- for people -------------------------------------------------------------------------------

    async def bot_accounts(self) -> list[tuple[str, dict[Family, Rating], bool]]:
        """The bot accounts, each with its rating in each family it has one, and whether it is online."""
        listed = await self.bots.bots()
        online = await asyncio.gather(*(self.online(account_id) for account_id, _name, _rated in listed))
        return [(name, rated, up) for (_id, name, rated), up in zip(listed, online, strict=True)]

    # --- online: an account stream open, in any process ---------------------------------------------

    async def online(self, account_id: int) -> bool:
        """Whether the bot account has its account stream open (in any process): it can hear invitations."""
        return (await self.hub.services.counts.counts(online_key(account_id), 1))[0] > 0

    async def stream_opened(self, account_id: int) -> None:
        await self.hub.services.counts.arrive(online_key(account_id), 0)

    def stream_closed(self, account_id: int) -> None:
        """Counted in a task of its own: a stream ends as its response is cancelled, where nothing awaits."""
        task = asyncio.ensure_future(self.hub.services.counts.leave(online_key(account_id), 0))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def may_become_bot(self, me: SignedIn) -> bool:
        """Whether the signed-in account may still turn itself into a bot account (:meth:`become_bot`)."""
        return not me.account.bot and not await self.bots.has_sat(me.account.id)

    async def become_bot(self, me: SignedIn) -> None:
        """Turn the signed-in account into a bot account, for good (Lichess's one-way upgrade): it then
        plays through the Bot API only. Refused for an account that has sat at a table as a person: its
        matches and ratings were a person's."""
        if not me.account.bot and not await self.bots.make_bot_of(me.account.id):
            raise Refusal.conflict(Said.of(Code.BOTAPI_PLAYED_AS_PERSON))

    async def mint(self, me: SignedIn, label: str, scopes: list[str]) -> tuple[Token, str]:
        """A new token of the signed-in bot account, and its secret (shown once)."""
        if not me.account.bot:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.BOTAPI_NOT_BOT_ACCOUNT))
        unknown = [scope for scope in scopes if scope not in SCOPES]
        if unknown:
            raise Refusal.invalid(Said.of(Code.BOTAPI_UNKNOWN_SCOPE, scope=unknown[0][:40]))
        minted = await self.tokens.mint(me.account.id, label.strip() or "token", frozenset(scopes), utc(self.clock))
        if minted is None:
            raise Refusal.conflict(Said.of(Code.BOTAPI_TOO_MANY_TOKENS, limit=MAX_TOKENS))
        return minted

    async def revoke(self, me: SignedIn, token_id: int) -> None:
        """Revoke one of the account's tokens: its open streams end at once, in every process, and every
        process forgets it (a request with it is refused from now on)."""
        revoked = await self.tokens.revoke(me.account.id, token_id)
        if revoked is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.BOTAPI_NO_TOKEN))
        await self.accounts.live.ended([revoked])

"""What a player's requests about other players do: follow and unfollow, block and unblock, the privacy
choices, the friends list with who is online and at which table; and what the rest of the server
asks about blocks (through ports the composition root wires: a seat at a table, a pairing of quick
play, a Bot API invitation, a table connection's listener). Every refusal is a
:class:`~chickenfoot.server.refusals.Refusal`.

A player's *friends* are the players they follow. Whoever blocks someone is spared them everywhere,
and the blocked player is never told: what they are refused is what anyone is refused in the same
place for an ordinary reason ("not accepting challenges", "no free seat", an invite already used),
their challenges and invitations are answered as any unanswered one, and the blocker's online status
looks to them as a hidden one does (offline).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.server.accounts.names import normalised, problem, skeleton
from chickenfoot.server.accounts.service import Accounts, SignedIn
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.notices import ChallengeAnswered, Notifier
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.social.challenges import ChallengeStore
from chickenfoot.server.social.hearing import Hearings
from chickenfoot.server.social.store import Capped, Choices, Listed, SocialStore
from chickenfoot.server.table.chat import Listener

log = logging.getLogger(__name__)

MAX_ID = 2**31 - 1
"""The largest number a row's id (or a chat line's) can be: the database's integer."""
SeatConnected = Callable[[str, int], Awaitable[bool]]
"""Whether someone is connected to ``seat`` of table ``code`` now, in any process."""


@dataclass(frozen=True, slots=True)
class SocialSettings:
    max_follows: int = 500
    max_blocks: int = 1000
    online_seconds: float = 120.0
    """A player whose lobby or friends page asked for news this recently is online."""
    presence_seconds: float = 60.0
    """Presence is written at most this often per account and process (the pages ask every few seconds)."""
    table_hours: float = 48.0
    """Tables made this recently are looked at to find where a friend plays."""
    friends_kept_seconds: float = 5.0
    """A friends list built is answered again for this long (a page polls; a flood costs one build)."""
    poll_seconds: int = 10
    """How often the pages ask (told them with every answer)."""


class Target(BaseModel):
    """Another player: by name, by their seat at a table, or by a chat line they said there."""

    name: str | None = Field(default=None, max_length=64)
    table: str | None = Field(default=None, max_length=16)
    seat: int | None = Field(default=None, ge=0, lt=MAX_PLAYERS)
    line: int | None = Field(default=None, ge=1, le=MAX_ID)


def iso(listed: Listed) -> dict[str, Any]:
    return {"name": listed.username, "bot": listed.bot, "since": listed.since.isoformat(timespec="seconds")}


class Social:
    def __init__(
        self,
        store: SocialStore,
        challenges: ChallengeStore,
        notifier: Notifier,
        hearings: Hearings,
        accounts: Accounts,
        limits: RateLimiter,
        connected: SeatConnected,
        clock: Clock,
        settings: SocialSettings,
    ) -> None:
        self.store, self.challenges, self.notifier, self.hearings = store, challenges, notifier, hearings
        self.accounts, self.limits, self.connected, self.clock, self.settings = (
            accounts,
            limits,
            connected,
            clock,
            settings,
        )
        self._written: dict[int, float] = {}
        self._lists: dict[int, tuple[float, list[dict[str, Any]]]] = {}

    # --- who a request names --------------------------------------------------------------------

    async def resolve(self, me: SignedIn, target: Target, *, naming: bool = True) -> int:
        """The account ``target`` names; refuses a name nobody has, a seat or line of no account, oneself.

        ``naming``: the answer will name the account (a follow, a block). Then a seat or a line names
        one only at a table where ``me`` holds a seat, or whose match is over: a spectator of a match in
        play does not learn whose account is behind a name chosen at the table (a report names nobody).
        """
        if target.name is not None:
            account_id = await self.by_name(target.name)
        elif target.table is not None and (target.seat is not None or target.line is not None):
            code = target.table.upper()
            if naming and not await self.store.may_name_at(code, me.account.id):
                raise Refusal(Why.FORBIDDEN, Said.of(Code.SOCIAL_NOT_AT_TABLE))
            found = (
                await self.accounts.store.account_at(code, target.seat)
                if target.seat is not None
                else await self.store.speaker_of(code, target.line or 0)
            )
            if found is None or not await self.store.usernames([found]):
                raise Refusal(Why.NOT_FOUND, Said.of(Code.SOCIAL_NO_ACCOUNT))
            account_id = found
        else:
            raise Refusal.invalid(Said.of(Code.SOCIAL_NO_TARGET))
        if account_id == me.account.id:
            raise Refusal.invalid(Said.of(Code.SOCIAL_NOT_YOURSELF))
        return account_id

    async def by_name(self, name: str) -> int:
        wanted = normalised(name)[:64]
        known = problem(wanted) in (None, "reserved")
        account = await self.accounts.store.by_skeleton(skeleton(wanted)) if known else None
        if account is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.PROFILE_UNKNOWN, name=quoted(name[:40])))
        return account.id

    async def name_of(self, account_id: int) -> str:
        return (await self.store.usernames([account_id])).get(account_id, "")

    # --- follows and blocks ---------------------------------------------------------------------

    async def follow(self, me: SignedIn, target: Target) -> str:
        """``me`` follows the player ``target`` names; their name."""
        await self.limits.check("follow", str(me.account.id))
        them = await self.resolve(me, target)
        name = await self.name_of(them)
        if await self.store.blocks(me.account.id, them):
            raise Refusal.conflict(Said.of(Code.SOCIAL_YOU_BLOCK, name=name))
        try:
            await self.store.follow(me.account.id, them, utc(self.clock), self.settings.max_follows)
        except Capped as capped:
            raise Refusal(Why.TOO_MANY, Said.of(Code.SOCIAL_FOLLOWS_FULL, limit=capped.limit)) from None
        self._lists.pop(me.account.id, None)
        return name

    async def unfollow(self, me: SignedIn, name: str) -> None:
        await self.store.unfollow(me.account.id, await self.by_name(name))
        self._lists.pop(me.account.id, None)

    async def block(self, me: SignedIn, target: Target) -> str:
        """``me`` blocks the player ``target`` names (and stops following them); their name. Open challenges
        between the two end: theirs as declined, ``me``'s own withdrawn."""
        them = await self.resolve(me, target)
        try:
            await self.store.block(me.account.id, them, utc(self.clock), self.settings.max_blocks)
        except Capped as capped:
            raise Refusal(Why.TOO_MANY, Said.of(Code.SOCIAL_BLOCKS_FULL, limit=capped.limit)) from None
        self._lists.pop(me.account.id, None)
        await self.hearings.changed(me.account.id)
        for declined in await self.challenges.end_between(me.account.id, them, utc(self.clock)):
            answer = ChallengeAnswered(None, declined.id, me.account.username, "declined")
            await self.notifier.notify(them, answer, sender=me.account.id)
        return await self.name_of(them)

    async def unblock(self, me: SignedIn, name: str) -> None:
        await self.store.unblock(me.account.id, await self.by_name(name))
        await self.hearings.changed(me.account.id)

    async def blocked(self, me: SignedIn) -> list[dict[str, Any]]:
        return [iso(listed) for listed in await self.store.blocked_by(me.account.id)]

    async def relation(self, me: SignedIn, name: str) -> dict[str, Any]:
        """What a profile's buttons show: whether ``me`` follows and blocks the player, and may challenge them."""
        them = await self.by_name(name)
        if them == me.account.id:
            return {"you": True, "following": False, "blocking": False, "challenge": False}
        blocking = await self.store.blocks(me.account.id, them)
        return {
            "you": False,
            "following": await self.store.follows(me.account.id, them),
            "blocking": blocking,
            "challenge": not blocking and await self.may_challenge(me.account.id, them),
        }

    async def seats_of(self, me: SignedIn | None, code: str) -> list[dict[str, Any]]:
        """The seats of table ``code`` that follow an account (who is behind them is not said): whether
        each is the asker's own, and whether the asker follows it."""
        followed = {} if me is None else {listed.account_id for listed in await self.store.following(me.account.id)}
        accounts = await self.store.seated_accounts(code.upper())
        return [
            {
                "seat": seat,
                "you": me is not None and account == me.account.id,
                "following": account in followed,
            }
            for seat, account in sorted(accounts.items())
        ]

    # --- privacy ----------------------------------------------------------------------------------

    async def choices(self, me: SignedIn) -> Choices:
        return await self.store.choices(me.account.id)

    async def choose(self, me: SignedIn, choices: Choices) -> Choices:
        await self.store.choose(me.account.id, choices)
        return choices

    async def may_challenge(self, challenger: int, challenged: int) -> bool:
        """Whether ``challenged``'s choices let ``challenger`` challenge them (a block says no, silently);
        a bot account is challenged through the Bot API's invitations, never here."""
        choices = await self.store.choices(challenged)
        follows_them = await self.store.follows(challenged, challenger)
        blocked = await self.store.blocks(challenged, challenger)
        is_bot = await self.store.is_bot(challenged)
        return not blocked and not is_bot and choices.allows("challenges", follows_them)

    # --- the friends list ---------------------------------------------------------------------------

    async def friends(self, me: SignedIn) -> list[dict[str, Any]]:
        """The players ``me`` follows, each with whether they are online and at which table (when their
        choices let ``me`` see it), and whether ``me`` may challenge them."""
        kept = self._lists.get(me.account.id)
        if kept is not None and kept[0] > self.clock.monotonic():
            return kept[1]
        built = await self._friends(me.account.id)
        if len(self._lists) > 4096:
            self._lists.clear()
        self._lists[me.account.id] = (self.clock.monotonic() + self.settings.friends_kept_seconds, built)
        return built

    async def _friends(self, me: int) -> list[dict[str, Any]]:
        followed = await self.store.following(me)
        ids = [listed.account_id for listed in followed]
        choices = await self.store.choices_of(ids)
        follow_me = await self.store.followers_among(me, ids)
        blocking_me = await self.store.blockers_among(me, ids)

        def allowed(account_id: int, what: str) -> bool:
            chosen = choices.get(account_id, Choices())
            return account_id not in blocking_me and chosen.allows(what, account_id in follow_me)

        shown = [account_id for account_id in ids if allowed(account_id, "status")]
        now = utc(self.clock)
        seen = await self.store.seen_since(shown, now - timedelta(seconds=self.settings.online_seconds))
        tables: dict[int, str] = {}
        looked: dict[int, int] = {}
        for account_id, code, seat in await self.store.unfinished_seats(
            shown, now - timedelta(hours=self.settings.table_hours)
        ):
            if account_id in tables or looked.get(account_id, 0) >= 2:
                continue  # the newest two tables of each friend are enough to say where they play
            looked[account_id] = looked.get(account_id, 0) + 1
            if await self.connected(code, seat):
                tables[account_id] = code
        return [
            iso(listed)
            | {
                "online": listed.account_id in seen or listed.account_id in tables,
                "table": tables.get(listed.account_id),
                "challenge": not listed.bot and allowed(listed.account_id, "challenges"),
            }
            for listed in followed
        ]

    async def present(self, me: SignedIn) -> None:
        """``me``'s page asked for news: they are online (written at most every ``presence_seconds``)."""
        now = self.clock.monotonic()
        last = self._written.get(me.account.id)
        if last is not None and now - last < self.settings.presence_seconds:
            return
        if len(self._written) > 65536:
            self._written.clear()
        self._written[me.account.id] = now
        await self.store.seen(me.account.id, utc(self.clock))

    # --- what the rest of the server asks (the composition root wires these as ports) ----------------

    async def kept_out(self, code: str, account_id: int) -> bool:
        """A seat of table ``code`` for ``account_id``: refused when someone seated there blocks them."""
        return await self.store.blocked_at(code, account_id)

    async def apart(self, conn: AsyncConnection, account_ids: Collection[int]) -> set[frozenset[int]]:
        """The pairs of quick play's waiting accounts that must not share a table (read in ``conn``)."""
        return await self.store.blocked_pairs(conn, account_ids)

    async def ignores(self, account_id: int, other: int) -> bool:
        """Whether ``account_id`` blocks ``other`` (a Bot API invitation from them is dropped unheard, and
        no notice they cause reaches ``account_id``)."""
        return await self.store.blocks(account_id, other)

    async def listener(self, account_id: int | None) -> Listener:
        """Who listens at a table connection of ``account_id``: spared the lines of those it blocks."""
        return await self.hearings.listener(account_id)

    async def exported(self, account_id: int) -> dict[str, Any]:
        """The account's part of its data download: the players it follows and blocks, its privacy choices."""
        choices = await self.store.choices(account_id)
        return {
            "friends": {
                "following": [iso(listed) for listed in await self.store.following(account_id)],
                "blocked": [iso(listed) for listed in await self.store.blocked_by(account_id)],
                "privacy": {"challenges": choices.challenges.value, "status": choices.status.value},
            }
        }

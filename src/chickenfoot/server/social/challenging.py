"""Challenging a player: the challenge made (with a table's options), accepted (the table made by the
seating feature's own path), declined, withdrawn or expired, and the challenger told each answer.

The challenged player, accepting, makes the table: they are its creator at seat 0, with their seat's
credential in the answer, and the challenger's seat 1 is kept for them (nobody holds its invite).
The challenger, told of the acceptance, takes that seat once (``take_seat``): a fresh credential.
The seats beyond the two are bots. A challenge is real-time or at its own pace, as a new table is (the
same ``pace``, refused as a new table's); a real-time one waits ``challenge_seconds`` for an answer, one
at its own pace as long as one move's time (at least as long), since its player may be away for hours
(:func:`answer_seconds`). An answered one is kept ``kept_days``, then forgotten.

Players are told through the notify port (server/notices.py): the challenged player of a challenge
received, the challenger of its answer; the notifications keep it in the bell and send it by push and
e-mail as each player chose, in their language. A challenge counts against the notifications' caps of
its sender and its receiver: one refused there is not kept, and is refused as they refuse it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.messages import Code, Said
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.server.accounts.service import SignedIn
from chickenfoot.server.clock import utc
from chickenfoot.server.notices import Challenge as Challenged
from chickenfoot.server.notices import ChallengeAnswered, Notifier
from chickenfoot.server.ratings.rated import why_not_rated
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.seating.service import CreateRequest, NewSeat, Seating, table_config
from chickenfoot.server.social.challenges import AlreadyPending, Caps, Challenge, ChallengeStore, IncomingFull
from chickenfoot.server.social.service import Social, Target
from chickenfoot.server.social.store import Capped
from chickenfoot.server.storage import StorageUnavailable
from chickenfoot.server.table.pace import NewPace

log = logging.getLogger(__name__)

CHALLENGED_SEAT, CHALLENGER_SEAT = 0, 1
FULL_RETRY_SECONDS = 60


@dataclass(frozen=True, slots=True)
class ChallengeSettings:
    challenge_seconds: float = 300.0
    """How long a real-time challenge waits for its answer (one at its own pace waits at least as long)."""
    sweep_seconds: float = 15.0
    """How often each process expires the challenges whose time ran out (and tells their challengers)."""
    caps: Caps = field(default_factory=Caps)
    kept_days: float = 30.0
    """How long an answered challenge (and what its players were told of it) is kept."""


class ChallengeOptions(BaseModel):
    """The table a challenge offers, as the lobby's form makes one."""

    preset: str = Field(default="classic", max_length=40)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    players: int = Field(default=2, ge=2, le=MAX_PLAYERS)
    bot: str = Field(default=DEFAULT_LEVEL, max_length=40)
    """The level of the bots in the seats beyond the two players."""
    rated: bool = False
    turn_timer: Literal[30, 60, 120] | None = 60
    """Seconds per turn at a real-time table (none at one at its own pace)."""
    pace: NewPace | None = None
    """At one's own pace, with a time per move and a rule for a time run out; absent: real-time."""

    def table(self, challenged: str, challenger: str) -> CreateRequest:
        """The table's request: the challenged player at seat 0 (its creator), the challenger at seat 1, bots after."""
        seats = [NewSeat(kind="human", name=challenged), NewSeat(kind="human", name=challenger)]
        seats += [NewSeat(kind="bot", bot=self.bot) for _ in range(self.players - 2)]
        return CreateRequest(
            preset=self.preset,
            rounds=self.rounds,
            seats=seats,
            rated=self.rated,
            turn_timer=self.turn_timer,
            pace=self.pace,
        )


class ChallengeRequest(ChallengeOptions):
    to: str = Field(max_length=64, description="The challenged player's name.")


@dataclass(frozen=True, slots=True)
class Seated:
    """A seat at the table of an accepted challenge, and its credential."""

    code: str
    seat: int
    token: str


class Challenges:
    def __init__(
        self,
        store: ChallengeStore,
        social: Social,
        seating: Seating,
        notifier: Notifier,
        settings: ChallengeSettings,
    ) -> None:
        self.store, self.social, self.seating, self.notifier = store, social, seating, notifier
        self.settings = settings
        self.clock, self.limits = social.clock, social.limits
        self._sweeper: asyncio.Task[None] | None = None

    async def challenge(self, me: SignedIn, request: ChallengeRequest) -> Challenge:
        """``me`` challenges the player ``request.to`` to the table it describes. The challenged player's
        choices (and blocks) may refuse it: the same words, whichever it was."""
        if me.account.bot:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.BOTAPI_PAGE_SEAT))
        them = await self.social.resolve(me, Target(name=request.to))
        name = await self.social.name_of(them)
        await self.limits.check("challenge_player", f"{me.account.id}:{them}")
        if await self.social.store.blocks(me.account.id, them):
            raise Refusal.conflict(Said.of(Code.SOCIAL_YOU_BLOCK, name=name))
        if not await self.social.may_challenge(me.account.id, them):
            raise Refusal(Why.FORBIDDEN, Said.of(Code.SOCIAL_NOT_ACCEPTING, name=name))
        options = ChallengeOptions.model_validate(request.model_dump(exclude={"to"}))
        checked(options, name, me.account.username)
        now = utc(self.clock)
        expires = now + timedelta(seconds=answer_seconds(options, self.settings))
        try:
            made = await self.store.make(me.account.id, them, options.model_dump(), now, expires, self.settings.caps)
        except AlreadyPending:
            raise Refusal.conflict(Said.of(Code.SOCIAL_CHALLENGE_PENDING, name=name)) from None
        except IncomingFull:
            said = Said.of(Code.SOCIAL_THEIR_CHALLENGES_FULL, name=name)
            raise Refusal(Why.TOO_MANY, said, retry_after=FULL_RETRY_SECONDS) from None
        except Capped as capped:
            said = Said.of(Code.SOCIAL_CHALLENGES_FULL, limit=capped.limit)
            raise Refusal(Why.TOO_MANY, said, retry_after=FULL_RETRY_SECONDS) from None
        pace = options.pace
        notice = Challenged(
            None,
            made.id,
            me.account.username,
            options.players,
            options.rated,
            move_seconds=None if pace is None else pace.move_seconds,
            on_timeout=None if pace is None else pace.on_timeout,
        )
        try:
            await self.notifier.notify(them, notice, sender=me.account.id)
        except Refusal:
            await self.store.forget(made.id)  # too many notices from ``me``, or for them: never told, not kept
            raise
        return made

    async def accept(self, me: SignedIn, challenge_id: int, connection: HTTPConnection) -> Seated:
        """``me`` accepts a challenge: the table is made (``me`` its creator, at seat 0), the challenger told."""
        taken = await self.store.answer(challenge_id, "accepted", utc(self.clock), challenged=me.account.id)
        if taken is None:
            raise Refusal.conflict(Said.of(Code.SOCIAL_NO_CHALLENGE))
        try:
            challenger = await self.social.name_of(taken.challenger_id)
            options = ChallengeOptions.model_validate(taken.options)
            config = self.seating.configure(options.table(me.account.username, challenger))
            if options.rated:
                await self.seating.rated(config, connection)
            created = await self.seating.create(config, connection)
        except BaseException:
            await self.store.reopen(challenge_id)
            raise
        code = created.table.code
        await self.store.placed(challenge_id, code, CHALLENGER_SEAT)
        accepted = ChallengeAnswered(code, challenge_id, me.account.username, "accepted")
        await self.notifier.notify(taken.challenger_id, accepted, sender=me.account.id)
        assert created.token is not None  # the creator's seat was free: the table is new
        return Seated(code, CHALLENGED_SEAT, created.token)

    async def decline(self, me: SignedIn, challenge_id: int) -> None:
        """``me`` declines a challenge: its challenger is told."""
        declined = await self.store.answer(challenge_id, "declined", utc(self.clock), challenged=me.account.id)
        if declined is None:
            raise Refusal.conflict(Said.of(Code.SOCIAL_NO_CHALLENGE))
        answer = ChallengeAnswered(None, challenge_id, me.account.username, "declined")
        await self.notifier.notify(declined.challenger_id, answer, sender=me.account.id)

    async def withdraw(self, me: SignedIn, challenge_id: int) -> None:
        """``me`` takes back their challenge (it leaves the challenged player's list)."""
        if await self.store.answer(challenge_id, "withdrawn", utc(self.clock), challenger=me.account.id) is None:
            raise Refusal.conflict(Said.of(Code.SOCIAL_NO_CHALLENGE))

    async def take_seat(self, me: SignedIn, challenge_id: int, connection: HTTPConnection) -> Seated:
        """The challenger takes their seat at the table their accepted challenge made (once)."""
        taken = await self.store.take_seat(challenge_id, me.account.id)
        if taken is None or taken.table_code is None or taken.seat is None:
            raise Refusal.conflict(Said.of(Code.SOCIAL_SEAT_TAKEN))
        token = await self.seating.take_kept(taken.table_code, taken.seat, me.account.username, connection)
        return Seated(taken.table_code, taken.seat, token)

    async def news(self, me: SignedIn) -> dict[str, list[dict[str, object]]]:
        """What the lobby and the friends page list of ``me``'s challenges: those received and open (to
        accept or decline), ``me``'s own accepted whose seat waits for them, and those ``me`` made that
        wait for an answer; the newest first."""
        received, made = await self.store.open_of(me.account.id, utc(self.clock))
        accepted = await self.store.seats_waiting(me.account.id)
        names = await self.social.store.usernames(
            [c.challenger_id for c in received] + [c.challenged_id for c in made + accepted]
        )

        def offered(c: Challenge) -> dict[str, object]:
            return {
                "id": c.id,
                "players": c.options.get("players", 2),
                "rated": bool(c.options.get("rated")),
                "pace": c.options.get("pace"),
                "expires": c.expires_at.isoformat(timespec="seconds"),
            }

        return {
            "received": [offered(c) | {"name": names.get(c.challenger_id)} for c in received],
            "accepted": [{"id": c.id, "name": names.get(c.challenged_id), "table": c.table_code} for c in accepted],
            "waiting": [offered(c) | {"to": names.get(c.challenged_id)} for c in made],
        }

    # --- expiry -------------------------------------------------------------------------------------

    async def expire_due(self, account_id: int | None = None) -> int:
        """Expire the challenges whose time ran out (of ``account_id``, made or received, if given) and tell
        their challengers; how many. The sweep does it for everyone; a player's page asking for news
        does it for theirs at once."""
        expired = await self.store.expire_due(utc(self.clock), account_id)
        names = await self.social.store.usernames(c.challenged_id for c in expired)
        for challenge in expired:
            answer = ChallengeAnswered(None, challenge.id, names.get(challenge.challenged_id, ""), "expired")
            await self.notifier.notify(challenge.challenger_id, answer)
        return len(expired)

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def sweep(self) -> None:
        """Expire the late challenges, and forget those answered long ago."""
        await self.expire_due()
        await self.store.prune(utc(self.clock) - timedelta(days=self.settings.kept_days))

    async def _sweep(self) -> None:
        while True:
            await self.clock.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except StorageUnavailable:
                log.warning("challenges not expired: the game store is unavailable (the next sweep tries again)")


def answer_seconds(options: ChallengeOptions, settings: ChallengeSettings) -> float:
    """How long a challenge waits for its answer: a real-time one ``settings.challenge_seconds``, one at
    its own pace one move's time (never less), as its player answers a move when they can."""
    if options.pace is None:
        return settings.challenge_seconds
    return max(settings.challenge_seconds, float(options.pace.move_seconds))


def checked(options: ChallengeOptions, challenged: str, challenger: str) -> None:
    """Refuse (invalid) options no table could have: bad rules, an unknown bot level, rated where it cannot be."""
    config = table_config(options.table(challenged, challenger), seed=0)
    if options.rated and (why := why_not_rated(config.rules, config.seats)) is not None:
        raise Refusal.invalid(why)

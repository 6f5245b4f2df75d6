"""Tables made and filled: a new table's configuration from its request, creating it (its creator's
seat credential and an invite for every other person's seat), joining an open table, claiming an
invite, taking a seat kept for the one asking (a challenger's), handing an absent friend's seat to a
bot. Every refusal is a :class:`~chickenfoot.server.refusals.Refusal`.

A player blocked by someone seated at a table takes no seat there, by code or by invite; they are
refused as anyone is at a full table or with a spent invite, so they are not told (``kept_out``,
answered by server/social)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import HTTPConnection

from chickenfoot.bots import DEFAULT_LEVEL, check_bot, unknown_bot
from chickenfoot.errors import ChickenfootError
from chickenfoot.messages import Code, Said
from chickenfoot.rules import MAX_PLAYERS, Rules
from chickenfoot.server.accounts.service import Accounts
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.http.tables import TableLookup
from chickenfoot.server.ratings.service import admit, make_rated
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import ReplaceWithBot, Take
from chickenfoot.server.table.config import TURN_TIMERS, Seat, TableConfig
from chickenfoot.server.table.pace import NewPace, pace_facts, paced
from chickenfoot.server.table.protocol import printable_name
from chickenfoot.server.table.registry import TableRegistry, new_code
from chickenfoot.server.table.seats import refuse_aborted

Name = Annotated[str, AfterValidator(printable_name)]
KeptOut = Callable[[str, int], Awaitable[bool]]
"""Whether the account (by id) takes no seat at table ``code``: someone seated there blocks it."""


class NewSeat(BaseModel):
    """A seat of a table to create: a person's (free to take) or a bot's."""

    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=40)
    name: Name | None = None


class CreateRequest(BaseModel):
    preset: str = Field(default="classic", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=20)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    seats: list[NewSeat] = Field(min_length=2, max_length=MAX_PLAYERS)
    open: bool = False
    """Anyone with the room code may take a free seat (otherwise only invited friends)."""
    public: bool = False
    """Listed in the lobby (and so open)."""
    turn_timer: Literal[30, 60, 120] | None = None
    """Seconds per human turn; when absent, 60 with friends seated and off against bots only."""
    rated: bool = False
    """The match counts for its players' ratings (server/ratings): classic rules, signed-in players."""
    pace: NewPace | None = None
    """Turn-based, at this pace (no turn timer then); absent: real-time."""


@dataclass(frozen=True, slots=True)
class Created:
    """A new table, its creator's seat credential, and an invite for every other person's seat."""

    table: Table
    token: str | None
    invites: dict[int, str]


def table_config(request: CreateRequest, seed: int) -> TableConfig:
    """A new table's configuration; raises :class:`Refusal` (invalid) for bad rules or seats.

    The rules' own errors stay English inside the message (``reason``): they are the library's.
    """
    try:
        rules = Rules.from_dict({**Rules.preset(request.preset).to_dict(), **request.rules})
        if request.rounds is not None:
            rules = rules.replace(rounds=request.rounds)
        rules.hand_size_for(len(request.seats))
    except (ChickenfootError, TypeError) as exc:
        raise Refusal.invalid(Said.of(Code.ERROR_BAD_RULES, reason=str(exc))) from None
    if not any(seat.kind == "human" for seat in request.seats):
        raise Refusal.invalid(Said.of(Code.ERROR_NO_HUMAN_SEAT))
    wanted: list[Seat] = []
    for seat in request.seats:
        if seat.kind == "bot":
            wanted.append(Seat("bot", seat.name or None, bot=bot_level(seat.bot or DEFAULT_LEVEL)))
        else:
            wanted.append(Seat("human", seat.name or None))
    creator = next(s for s, seat in enumerate(wanted) if seat.kind == "human")
    wanted[creator].taken = True
    friends = sum(seat.kind == "human" for seat in wanted) > 1
    wanted[creator].ready = not friends  # with friends, the creator too says when they are ready
    timer = request.turn_timer if "turn_timer" in request.model_fields_set else (60 if friends else None)
    assert timer is None or timer in TURN_TIMERS
    pace = None if request.pace is None else paced(request.pace, len(wanted))
    return TableConfig(
        rules,
        wanted,
        seed,
        creator=creator,
        open=request.open or request.public,
        public=request.public,
        turn_timer=None if pace is not None else timer,
        pace=pace,
    )


def bot_level(level: str) -> str:
    """A bot level the server offers; raises :class:`Refusal` (invalid) for any other."""
    try:
        return check_bot(level)
    except ValueError:
        raise Refusal.invalid(unknown_bot(level)) from None


def summary(table: Table) -> dict[str, Any]:
    """A table as the API shows it to anyone: its rules, seats (who is connected), status and score."""
    presence = table.presence()
    return {
        "code": table.code,
        "rules": table.match.rules.to_dict(),
        "players": len(table.config.seats),
        "rounds": table.match.rules.round_count,
        "seats": [
            {"seat": s, "kind": seat.kind, "name": seat.name, "connected": presence.connected[s], "bot": seat.bot}
            for s, seat in enumerate(table.config.seats)
        ],
        "status": table.status,
        "open": table.config.open,
        "public": table.config.public,
        "turn_timer": table.config.turn_timer,
        "pace": pace_facts(table.config.pace),
        "rated": table.config.rated,
        "round": table.match.round_number,
        "totals": table.match.totals(),
    }


async def nobody_kept_out(_code: str, _account_id: int) -> bool:
    return False


class Seating:
    def __init__(
        self, hub: TableRegistry, accounts: Accounts, tables: TableLookup, kept_out: KeptOut = nobody_kept_out
    ) -> None:
        self.hub, self.accounts, self.tables, self.kept_out = hub, accounts, tables, kept_out
        self.credentials: Credentials = hub.credentials

    def configure(self, request: CreateRequest) -> TableConfig:
        """A new table's configuration (its seed dealt now), as :func:`table_config` reads the request."""
        return table_config(request, self.hub.seeds())

    async def rated(self, config: TableConfig, connection: HTTPConnection) -> None:
        """Mark a new table rated (ratings' rules: classic, its creator signed in)."""
        await make_rated(self.accounts, connection, config)

    async def create(self, config: TableConfig, connection: HTTPConnection) -> Created:
        """Make the table: the creator sits (followed by their account, if signed in), the others are invited."""
        table = await self.hub.create(config)
        code, creator = table.code, table.config.creator
        token = await self.credentials.issue_seat(code, creator)
        await self.accounts.sit(connection, code, creator)
        invites = {seat: await self.credentials.invite(code, seat) for seat in table.free_seats()}
        return Created(table, token, invites)

    async def organise(self, conn: AsyncConnection, config: TableConfig, accounts: Mapping[int, int]) -> str:
        """Store a table an organiser seated (a tournament's), in the organiser's transaction ``conn``: its
        people's seats taken and followed by their accounts (opened by their sessions, or a bot account's
        token), nobody its creator. Its code; it is read into memory wherever it is first used."""
        code = new_code()  # a code taken already fails the organiser's transaction, which tries again
        await conn.execute(self.hub.storage.new_table(code, config.to_json()))
        await self.accounts.store.sit_in(conn, code, accounts)
        return code

    async def join(self, code: str, name: str, connection: HTTPConnection) -> tuple[int, str]:
        """Take a free seat of an open table: the seat and a fresh credential."""
        table = await self.tables(code)
        if not table.config.open:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_INVITE_ONLY))
        refuse_aborted(table.config)
        await admit(self.accounts, connection, table.code, table.config)
        if not await self._kept_out(table, connection):
            for seat in table.free_seats():
                if (token := await self._sit(table, seat, name, connection)) is not None:
                    return seat, token
        raise Refusal.conflict(Said.of(Code.ERROR_NO_FREE_SEAT))

    async def take_kept(self, code: str, seat: int, name: str, connection: HTTPConnection) -> str:
        """Take ``seat`` of table ``code``, kept for the one asking (a challenger coming to the table their
        accepted challenge made): a fresh credential."""
        table = await self.tables(code)
        refuse_aborted(table.config)
        await admit(self.accounts, connection, table.code, table.config)
        token = await self._sit(table, seat, name, connection)
        if token is None:
            raise Refusal.conflict(Said.of(Code.ERROR_NO_FREE_SEAT))
        return token

    async def _sit(self, table: Table, seat: int, name: str, connection: HTTPConnection) -> str | None:
        """Seat the one asking at ``seat`` if nobody holds it (followed by their account, if signed in): its
        fresh credential, or ``None``."""
        token = await self.credentials.issue_seat(table.code, seat)
        if token is not None:
            await table.submit(Take(seat, name, ready=False))
            await self.accounts.sit(connection, table.code, seat)
        return token

    async def _kept_out(self, table: Table, connection: HTTPConnection) -> bool:
        signed_in = await self.accounts.signed_in(connection)
        return signed_in is not None and await self.kept_out(table.code, signed_in.account.id)

    async def claim(self, code: str, invite: str, name: str, connection: HTTPConnection) -> tuple[int, str]:
        """Exchange a single-use invite for the invited seat and its credential (a fresh secret)."""
        table = await self.tables(code)
        refuse_aborted(table.config)
        await admit(self.accounts, connection, table.code, table.config)
        kept_out = await self._kept_out(table, connection)
        claimed = None if kept_out else await self.credentials.claim(table.code, invite)
        if claimed is None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_INVITE_USED))
        seat, token = claimed
        await table.submit(Take(seat, name, ready=False))
        await self.accounts.sit(connection, table.code, seat)
        return seat, token

    async def replace_with_bot(self, table: Table, acting: int, seat: int, level: str) -> Table:
        """The creator (the seat ``acting`` for the request) hands an absent friend's seat to a bot; its
        credential and invite open nothing after."""
        if acting != table.config.creator:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_CREATOR_ONLY))
        if not 0 <= seat < len(table.config.seats):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_NO_SEAT, number=seat))
        bot = bot_level(level)

        async def revoke() -> None:
            if not table.config.rated:
                await self.credentials.revoke(table.code, seat)
                return
            # At a rated table the seat stays its account's on record, opened by none of its sessions: the
            # match counts it as abandoned (last), as the docs promise, rather than for nobody.
            await self.credentials.revoke(table.code, seat, keep_account=True)
            await self.accounts.store.handed_over(table.code, seat, None)

        await table.submit(ReplaceWithBot(seat, bot, revoke=revoke))
        return table

    async def new_invites(self, table: Table, acting: int) -> dict[int, str]:
        """The creator's new invite for every seat nobody has taken, for a device of theirs that lacks the
        links (another device of the account): the earlier invites open nothing after. Only digests are
        stored, so a link cannot be shown again; it can only be replaced."""
        if acting != table.config.creator:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.ERROR_ONLY_CREATOR))
        return {seat: await self.credentials.invite(table.code, seat) for seat in table.free_seats()}

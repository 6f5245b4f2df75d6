"""The one rate limiter (the ``limits`` library): per address, per name, per account, per speaker, per API
token, and for everyone together.

Every limit is a :class:`Policy`: what it counts (a client address, a username, an account, a speaker, a
token's digest, or everyone), how many in which window, and the message that refuses one more. Per
address (an IPv6 client's /64, server/http/client.py): connections, new tables (quick play's joins too),
chat lines, replays built, hints searched, sign-ins, quick play's joins, profiles and ratings built,
handover links, e-mails asked for (confirmation and sign-in links), tournaments entered, left and
paused, and the Bot API's look-ups of tokens not known yet. Per name: password sign-ins (and sign-in
links asked for) at one username. Per account: quick play's tables, invitations and challenges one
account sends and one account receives, each a notice on someone's phone, challenges of one same
player, follows, reports and the tournaments it makes, so nobody floods another person from however
many addresses. Per speaker (a chat line's account, or a guest's address): the same line said again,
and lines with a link (server/moderation). From everyone together: sign-ups; past them the server is
busy (503), not the client at fault (the cheap requests of everyone have a budget of their own,
server/http/budget.py). Per token: the Bot API's moves, reads, streams, new tables and chat lines; a
token that keeps going over (``strikes``) is paused whole for the ``pause`` window.

The counters live in a ``limits`` storage named by URI: ``memory://`` for one process; pointing
``storage`` at ``redis://host:6379`` shares them between several server processes. The token look-ups
are counted in this process's memory only: a flood of forged tokens costs no shared counter either.
While the shared storage does not answer, nothing is refused: players keep playing, and the
per-connection limits of each process still hold.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import limits
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError, StorageError
from limits.storage import storage_from_string

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.cluster.redis_client import pool
from chickenfoot.server.refusals import Refusal, Why

Kind = Literal[
    # per client address
    "connection",
    "table",
    "chat",
    "replay",
    "hint",
    "sign_in",
    "quick_play",
    "profile",
    "handover",
    "bot_lookup",
    "mail",
    "tournament",
    # per username
    "sign_in_name",
    # from everyone together
    "sign_up",
    # per account
    "account_table",
    "invitation_sent",
    "invitation_received",
    "challenge_player",
    "follow",
    "report",
    # per speaker
    "chat_repeat",
    "chat_link",
    "tournament_made",
    # per API token
    "bot_move",
    "bot_read",
    "bot_stream",
    "bot_table",
    "bot_chat",
]

log = logging.getLogger(__name__)

EVERYONE = "everyone"
"""The key of the limits counted for every client together."""


@dataclass(frozen=True, slots=True)
class AddressLimits:
    """How many new connections and new tables one client address may open, and how many chat lines it
    may say over all its connections and tables (``limits`` notation)."""

    connections: str = "60/minute"
    tables: str = "20/minute"
    storage: str = "memory://"
    """A ``limits`` storage URI (``memory://``, ``redis://host:6379``, ...)."""
    cutoff: str | None = "1/minute"
    """Cut-offs (for flooding or not reading) an address may have in a window; past them its new
    connections are refused until the window has passed (``1/minute``: one cut-off pauses it for a
    minute; ``None``: no such pause)."""
    chat: str = "30/minute"
    """Chat lines and reactions; each connection has its own smaller budget too, so this bounds a
    client that opens many connections."""
    replays: str = "30/minute"
    """Replays of rounds that must be built (a replay already built, or the client's own copy, is not counted)."""
    hints: str = "30/minute"
    """Hints that must be searched (about a second of a worker's CPU each; a position's hint already
    found, for any table, is not counted)."""
    sign_ins: str = "30/15minutes"
    """Sign-in attempts (password, passkey or one-time link) from one address."""
    sign_ins_per_name: str = "10/15minutes"
    """Password sign-in attempts at one username from all addresses together (the key is the name's
    skeleton, whether an account has it or not: the limit tells nothing about who exists)."""
    quick_plays: str = "20/minute"
    """Joins of the quick play queue (each one a database write and a pairing pass)."""
    profiles: str = "60/minute"
    """Pages of profiles and "My matches" built (a page built in the last seconds is not counted)."""
    handovers: str = "20/minute"
    """Links to continue on another device, made or spent, from one address."""
    mails: str = "10/hour"
    """E-mails asked for from one address: addresses to confirm and sign-in links (each one a message
    to a mailbox that may not be the asker's)."""
    sign_ups: str = "60/minute"
    """New accounts from every address together (each one a hash and rows kept for good): a flood of
    sign-ups from many addresses, each under its own limit, is refused past it."""
    cheap: str = "150/second"
    """Requests from every address together, in each process, that read the store or build an answer
    of their own but each cost little (profiles, ratings, leaderboards, the lobby, presets: server/http/budget.py);
    past it they are refused at once (503), so that a flood from many addresses, each under its limits,
    never stands between a table and its store. The amount is also the burst."""
    tournaments: str = "30/minute"
    """Entries, departures and pauses of tournaments (each one a write every watcher of the event hears of)."""


@dataclass(frozen=True, slots=True)
class AccountLimits:
    """What one account may cause to reach other people's phones and mailboxes, and do to other players
    (``limits`` notation)."""

    invitations_sent: str = "20/hour"
    """Invitations and challenges one account sends."""
    invitations_received: str = "10/hour"
    """Invitations and challenges one account receives, from everyone together."""
    tables: str = "20/minute"
    """Tables one account's joins of quick play may make, from all its addresses (as ``AddressLimits.tables``
    counts per address)."""
    challenges_per_player: str = "3/hour"
    """Challenges of one same player (keyed by both accounts): a decline is an answer."""
    follows: str = "30/hour"
    reports: str = "10/hour"

    tournaments_made: str = "10/day"
    """Private tournaments one account makes."""


@dataclass(frozen=True, slots=True)
class SpeakerLimits:
    """What one speaker (an account, or a guest's address) may say in chat besides the chat's own budget
    (``limits`` notation; server/moderation)."""

    repeats: str = "3/5minutes"
    """The same line (folded: ``GG`` is ``gg``), at any of the speaker's tables."""
    links: str = "2/10minutes"
    """Lines with a link."""


@dataclass(frozen=True, slots=True)
class TokenLimits:
    """What one API token of the Bot API may do (``limits`` notation)."""

    moves: str = "20/second"
    """Moves (and next-round requests): one per turn; two bots at a table of their own may take many
    turns a second, and a bot plays several tables."""
    reads: str = "10/second"
    """Seat views read (a streaming bot reads none: every state comes on its stream)."""
    streams: str = "30/minute"
    """Event streams opened (of the account and of its tables)."""
    tables: str = "10/minute"
    chat: str = "20/minute"
    strikes: str = "30/minute"
    """Refusals a token may collect before it is paused."""
    pause: str = "1/minute"
    """The pause of a token past its strikes: refused whole until this window has passed."""
    lookups: str = "20/second"
    """Per address (in each process): tokens not known yet looked up in storage; forged tokens past it cost nothing."""


@dataclass(frozen=True, slots=True)
class Policy:
    """One limit: ``rate`` of one kind of request per key (an address, a name, a token, an account), refused
    with ``code``."""

    per: Literal["address", "name", "token", "account", "speaker", "everyone"]
    rate: limits.RateLimitItem
    code: Code
    shared: bool = True
    """Counted in the storage the server processes share (``False``: in this process's memory)."""
    in_minutes: bool = False
    """The refusal says only the minutes to wait (``count``): a person locked out of signing in reads it,
    and the window is long."""


def policies(
    addresses: AddressLimits, tokens: TokenLimits, accounts: AccountLimits, speakers: SpeakerLimits
) -> dict[Kind, Policy]:
    """Every limit of the server, from its settings."""
    by_address: dict[Kind, tuple[str, Code]] = {
        "connection": (addresses.connections, Code.ERROR_TOO_MANY_CONNECTIONS),
        "table": (addresses.tables, Code.ERROR_TOO_MANY_TABLES),
        "chat": (addresses.chat, Code.ERROR_TOO_MANY_CHAT_LINES),
        "replay": (addresses.replays, Code.ERROR_TOO_MANY_REPLAYS),
        "hint": (addresses.hints, Code.ERROR_TOO_MANY_HINTS),
        "quick_play": (addresses.quick_plays, Code.QUICKPLAY_TOO_MANY_JOINS),
        "profile": (addresses.profiles, Code.ERROR_TOO_MANY_PROFILES),
        "handover": (addresses.handovers, Code.ERROR_TOO_MANY_HANDOVERS),
        "mail": (addresses.mails, Code.NOTIFY_TOO_MANY_MAILS),
        "tournament": (addresses.tournaments, Code.TOURNAMENT_TOO_MANY),
    }
    by_token: dict[Kind, str] = {
        "bot_move": tokens.moves,
        "bot_read": tokens.reads,
        "bot_stream": tokens.streams,
        "bot_table": tokens.tables,
        "bot_chat": tokens.chat,
    }
    found: dict[Kind, Policy] = {
        kind: Policy("address", limits.parse(rate), code) for kind, (rate, code) in by_address.items()
    }
    found |= {kind: Policy("token", limits.parse(rate), Code.BOTAPI_TOO_MANY) for kind, rate in by_token.items()}
    found["sign_in"] = Policy(
        "address", limits.parse(addresses.sign_ins), Code.ACCOUNT_TOO_MANY_FROM_ADDRESS, in_minutes=True
    )
    # At one name, a passkey still signs its owner in: the refusal says so.
    found["sign_in_name"] = Policy(
        "name", limits.parse(addresses.sign_ins_per_name), Code.ACCOUNT_TOO_MANY_SIGN_INS, in_minutes=True
    )
    found["sign_up"] = Policy("everyone", limits.parse(addresses.sign_ups), Code.ACCOUNT_TOO_MANY_SIGN_UPS)
    found["bot_lookup"] = Policy("address", limits.parse(tokens.lookups), Code.BOTAPI_TOO_MANY_LOOKUPS, shared=False)
    found["account_table"] = Policy("account", limits.parse(accounts.tables), Code.ERROR_TOO_MANY_TABLES)
    found["invitation_sent"] = Policy("account", limits.parse(accounts.invitations_sent), Code.NOTIFY_TOO_MANY_SENT)
    found["invitation_received"] = Policy(
        "account", limits.parse(accounts.invitations_received), Code.NOTIFY_TOO_MANY_RECEIVED
    )
    found["chat_repeat"] = Policy("speaker", limits.parse(speakers.repeats), Code.MODERATION_REPEATED)
    found["chat_link"] = Policy("speaker", limits.parse(speakers.links), Code.MODERATION_LINKS)
    by_account: dict[Kind, tuple[str, Code]] = {
        "follow": (accounts.follows, Code.SOCIAL_TOO_MANY_FOLLOWS),
        "challenge_player": (accounts.challenges_per_player, Code.SOCIAL_TOO_MANY_CHALLENGES_OF),
        "report": (accounts.reports, Code.SOCIAL_TOO_MANY_REPORTED),
        "tournament_made": (accounts.tournaments_made, Code.TOURNAMENT_TOO_MANY_MADE),
    }
    found |= {kind: Policy("account", limits.parse(rate), code) for kind, (rate, code) in by_account.items()}
    return found


def counters(uri: str) -> MovingWindowRateLimiter:
    """Moving windows kept in the ``limits`` storage ``uri``; raises ``ValueError`` for a bad one."""
    # The ``redis`` package (redis-py) rather than ``limits``' default client, on the server's
    # kind of pool (``limits`` takes ``connection_pool`` though its annotation says otherwise).
    options: dict[str, Any] = {}
    if uri.startswith("redis"):
        options = {"implementation": "redispy", "connection_pool": pool(uri)}
    try:
        return MovingWindowRateLimiter(storage_from_string(f"async+{uri}", wrap_exceptions=True, **options))
    except ConfigurationError as exc:
        raise ValueError(f"bad limits storage {uri!r}: {exc}") from None


def _reason(kind: Kind, said: Said) -> str:
    """The metrics' name of a refusal of ``kind`` saying ``said``: an address cut off and a paused token
    are refused whatever they asked."""
    return {Code.ERROR_CUT_OFF: "cutoff", Code.BOTAPI_PAUSED: "paused"}.get(said.code, kind)


class RateLimiter:
    """Counts requests per address, name, account, speaker and token in moving windows, and refuses those
    over a limit."""

    def __init__(
        self,
        addresses: AddressLimits,
        tokens: TokenLimits | None = None,
        accounts: AccountLimits | None = None,
        speakers: SpeakerLimits | None = None,
    ) -> None:
        self.tokens = tokens or TokenLimits()
        self.policies = policies(addresses, self.tokens, accounts or AccountLimits(), speakers or SpeakerLimits())
        self.cutoff = None if addresses.cutoff is None else limits.parse(addresses.cutoff)
        self.strikes, self.pause = limits.parse(self.tokens.strikes), limits.parse(self.tokens.pause)
        self.shared = counters(addresses.storage)
        self.local = counters("memory://")
        self.refused = Counter[tuple[str, str]]()
        """Refusals so far, by what the limit counts per (address, name, token, account, speaker) and why (the kind of
        request, ``cutoff`` or ``paused``), for the metrics."""

    async def check(self, kind: Kind, key: str) -> None:
        """Count one ``kind`` of request by ``key``; raises :class:`Refusal` (too many, and when to try
        again) if it is over the limit."""
        if (refused := await self.refusal(kind, key)) is not None:
            said, wait = refused
            # A limit of everyone together is no fault of the one refused: the server is busy.
            why = Why.UNAVAILABLE if self.policies[kind].per == "everyone" else Why.TOO_MANY
            raise Refusal(why, said, retry_after=wait)

    async def refusal(self, kind: Kind, key: str) -> tuple[Said, int] | None:
        """``None`` if ``key`` may make one more ``kind`` of request now (and counts it), else the reason
        and the seconds to wait."""
        try:
            refused = await self._refusal(kind, key)
        except StorageError as exc:
            log.warning("%s limits not checked (%s)", self.policies[kind].per, exc)
            return None
        if refused is not None:
            self.refused[self.policies[kind].per, _reason(kind, refused[0])] += 1
        return refused

    async def _refusal(self, kind: Kind, key: str) -> tuple[Said, int] | None:
        policy = self.policies[kind]
        counted = self.shared if policy.shared else self.local
        if kind == "connection" and self.cutoff is not None and not await counted.test(self.cutoff, "cutoff", key):
            wait = await self._wait(counted, self.cutoff, "cutoff", key)
            return Said.of(Code.ERROR_CUT_OFF, seconds=wait), wait
        if policy.per == "token" and not await counted.test(self.pause, "bot-pause", key):
            return await self._paused(key)
        if await counted.hit(policy.rate, kind, key):
            return None
        if policy.per == "token" and not await counted.hit(self.strikes, "bot-strikes", key):
            await counted.hit(self.pause, "bot-pause", key)
            return await self._paused(key)
        wait = await self._wait(counted, policy.rate, kind, key)
        if policy.in_minutes:
            return Said.of(policy.code, count=math.ceil(wait / 60)), wait
        return Said.of(policy.code, limit=policy.rate.amount, window=policy.rate.get_expiry(), seconds=wait), wait

    async def _paused(self, token: str) -> tuple[Said, int]:
        wait = await self._wait(self.shared, self.pause, "bot-pause", token)
        return Said.of(Code.BOTAPI_PAUSED, seconds=wait), wait

    async def cut_off(self, address: str) -> None:
        """A connection from ``address`` was cut off for flooding or not reading: pause its new ones."""
        if self.cutoff is not None:
            try:
                await self.shared.hit(self.cutoff, "cutoff", address)
            except StorageError as exc:
                log.warning("cut-off of %s not counted (%s)", address, exc)

    async def _wait(self, counted: MovingWindowRateLimiter, item: limits.RateLimitItem, kind: str, key: str) -> int:
        stats = await counted.get_window_stats(item, kind, key)
        # The system's clock, always: ``limits`` keeps its windows in it, whatever clock the server runs on.
        return max(1, math.ceil(stats.reset_time - SYSTEM_CLOCK.now()))

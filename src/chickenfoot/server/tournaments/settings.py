"""What an event is: its format and settings, checked once when it is made (a refusal names what is wrong,
in the reader's language) and stored as JSON with the event.

The formats are the library's (:mod:`chickenfoot.tournament`): an **arena** (a fixed time, seated again
as soon as you finish), a **Swiss** (rounds paired by the standings), a **round-robin** (a schedule made
in advance). A Swiss or a round-robin may deal **duplicate**: every table of a round plays the same deal,
and each player is compared with those who held the same seat of it. An arena's tables start at
different times, each with its own deal: it is never duplicate.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS
from chickenfoot.errors import ChickenfootError
from chickenfoot.messages import Code, Said
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server.ratings.rated import why_not_rated
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import TURN_TIMERS, Seat
from chickenfoot.tournament import (
    ARENA_TIEBREAKS,
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    TABLE_SIZES,
    Scoring,
    Tiebreak,
)
from chickenfoot.tournament.round_robin import MAX_ROUNDS

MAX_ENTRANTS = {"arena": 500, "swiss": 200, "round_robin": 40}
"""Entrants an event of each format takes at most: an arena's standings and pairings stay within a
fraction of a second of a worker's CPU at 500 (docs/operators/tournaments.md), a Swiss's exact pairing
search is for club fields, and a round-robin's schedule is searched whole before it starts."""
MAX_SWISS_ROUNDS = 20
MINUTES = (0.5, 24 * 60.0)
"""An arena's length: from half a minute (tests, a quick demonstration) to a day."""
MAX_WAIT = (5.0, 300.0)
"""Seconds a free arena player may be left waiting for people before bots fill the table."""
LATEST_START = timedelta(days=60)
"""How far ahead an event may be scheduled."""
REPEATS = {"daily": timedelta(days=1), "weekly": timedelta(weeks=1)}
"""How an operator's public event may repeat: its next one is scheduled when it starts."""


class Format(StrEnum):
    ARENA = "arena"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


@dataclass(frozen=True, slots=True)
class EventSettings:
    """How one event runs. Build it with :meth:`checked` (or :meth:`from_json` for one stored)."""

    format: Format
    table_size: int = 4
    """Seats at every table: 2, 3 or 4."""
    preset: str = "classic"
    match_rounds: int | None = None
    """Rounds of each match (``None``: the rules' own number, all of them)."""
    rated: bool = False
    """The tables count for their players' ratings (the ratings' rules: the classic game whole)."""
    rounds: int | None = None
    """Rounds of a Swiss or a round-robin."""
    minutes: float | None = None
    """An arena's length."""
    closing_minutes: float = 0.0
    """No arena table starts this close to the end."""
    max_wait: float = 30.0
    """Seconds a free arena player waits for people before bots fill the table (and before a rematch
    of their last table is allowed)."""
    bots: bool = True
    """Bots fill an arena table the free players cannot (a Swiss's and a round-robin's byes always are)."""
    bot_level: str = DEFAULT_LEVEL
    """The level of every bot the event seats."""
    duplicate: Scoring | None = None
    """A Swiss or round-robin dealing duplicate, ranked by match points or by difference."""
    par: bool = False
    """A duplicate event's table of bots playing every deal, as the reference everyone is compared with."""
    bot_accounts: bool = False
    """Bot accounts may enter (through the Bot API)."""
    turn_timer: int = 60
    """Seconds a person may take per turn (their bot plays when it runs out)."""

    @classmethod
    def checked(cls, **wanted: Any) -> EventSettings:
        """Settings from a request's or the command line's values; raises :class:`Refusal` (invalid) naming
        the first that cannot be."""
        try:
            chosen = Format(str(wanted.get("format")))
        except ValueError:
            raise Refusal.invalid(Said.of(Code.TOURNAMENT_BAD_FORMAT)) from None
        try:
            duplicate = None if (scoring := wanted.get("duplicate")) is None else Scoring(str(scoring))
        except ValueError:
            raise invalid(Code.TOURNAMENT_BAD_SCORING) from None
        settings = cls(**{**wanted, "format": chosen, "duplicate": duplicate})
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse (invalid) settings an event cannot run with."""
        if self.table_size not in TABLE_SIZES:
            raise invalid(Code.TOURNAMENT_BAD_TABLE_SIZE)
        if self.bot_level not in LEVELS:
            raise invalid(Code.TOURNAMENT_BAD_BOT)
        if self.turn_timer not in TURN_TIMERS:
            raise invalid(Code.TOURNAMENT_BAD_TURN_TIMER)
        rules = self.rules()
        if self.rated and (reason := why_not_rated(rules, self.sample_seats())) is not None:
            raise Refusal.invalid(Said.of(Code.TOURNAMENT_NOT_RATED, reason=reason))
        if self.format is Format.ARENA:
            if self.minutes is None or not MINUTES[0] <= self.minutes <= MINUTES[1]:
                raise invalid(Code.TOURNAMENT_BAD_MINUTES)
            if not 0 <= self.closing_minutes < self.minutes or not MAX_WAIT[0] <= self.max_wait <= MAX_WAIT[1]:
                raise invalid(Code.TOURNAMENT_BAD_WAIT)
            if self.rounds is not None or self.duplicate is not None or self.par:
                raise invalid(Code.TOURNAMENT_ARENA_ROUNDS)
        else:
            most = MAX_SWISS_ROUNDS if self.format is Format.SWISS else MAX_ROUNDS
            if self.rounds is None or not 1 <= self.rounds <= most:
                raise Refusal.invalid(Said.of(Code.TOURNAMENT_BAD_ROUNDS, most=most))
            if self.minutes is not None:
                raise invalid(Code.TOURNAMENT_ROUNDS_NOT_MINUTES)
            if self.par and self.duplicate is None:
                raise invalid(Code.TOURNAMENT_PAR_NOT_DUPLICATE)

    def rules(self) -> Rules:
        """The rules every table plays; raises :class:`Refusal` (invalid) for rules that cannot be."""
        if self.preset not in PRESETS:
            raise invalid(Code.TOURNAMENT_BAD_RULES)
        try:
            rules = Rules.preset(self.preset)
            if self.match_rounds is not None:
                rules = rules.replace(rounds=self.match_rounds)
            rules.hand_size_for(self.table_size)
        except ChickenfootError:
            raise invalid(Code.TOURNAMENT_BAD_RULES) from None
        return rules

    def sample_seats(self) -> list[Seat]:
        """A table's seats as the ratings judge them: people, and a bot where the event may seat one."""
        return [Seat("human") for _ in range(self.table_size - 1)] + [Seat("bot", bot=self.bot_level)]

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """The tie-breaks the standings state, in order."""
        if self.duplicate is not None:
            return (Tiebreak.DIFFERENCE if self.duplicate is Scoring.MATCHPOINTS else Tiebreak.MATCHPOINTS,)
        return {
            Format.ARENA: ARENA_TIEBREAKS,
            Format.SWISS: SWISS_TIEBREAKS,
            Format.ROUND_ROBIN: ROUND_ROBIN_TIEBREAKS,
        }[self.format]

    @property
    def max_entrants(self) -> int:
        return MAX_ENTRANTS[self.format]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EventSettings:
        duplicate = data.get("duplicate")
        return cls(**{**data, "format": Format(data["format"]), "duplicate": duplicate and Scoring(duplicate)})


def invalid(code: Code) -> Refusal:
    return Refusal.invalid(Said.of(code))


def check_schedule(starts_at: datetime | None, repeat: str | None, now: datetime, *, public: bool) -> None:
    """Refuse (invalid) a start or a repetition an event cannot have: it starts in the next
    :data:`LATEST_START` (a public event always at a set time, a private one may wait for its creator),
    and only a public event repeats, daily or weekly."""
    if starts_at is None:
        if public:
            raise invalid(Code.TOURNAMENT_PUBLIC_NEEDS_START)
    elif starts_at.tzinfo is None or not now < starts_at < now + LATEST_START:
        raise invalid(Code.TOURNAMENT_BAD_START)
    if repeat is not None:
        if repeat not in REPEATS:
            raise invalid(Code.TOURNAMENT_BAD_REPEAT)
        if not public:
            raise invalid(Code.TOURNAMENT_REPEAT_PUBLIC)


def next_start(first: datetime, repeat: str, now: datetime) -> datetime:
    """The start of a repeating event's next one: the first of its series (every ``repeat`` from ``first``)
    after both ``first`` and ``now``, so a server stopped for a week skips the ones it missed rather than
    starting them all at once."""
    period = REPEATS[repeat]
    missed = max(0, (now - first) // period)
    return first + period * (missed + 1)


def event_name(name: str) -> str:
    """An event's name as it is kept: its spaces tidied, at most 80 characters; refused (invalid) when empty."""
    tidy = " ".join(name.split())
    if not tidy:
        raise invalid(Code.TOURNAMENT_NO_NAME)
    return tidy[:80]

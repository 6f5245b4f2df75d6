"""A table's configuration: its seats, rules and options as stored (never a secret), and the pauses of
its automatic play."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.rules import Rules


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses of the automatic play, in seconds (all 0 in tests)."""

    bot_delay: float = 0.8
    forced_delay: float = 0.8
    next_round_delay: float = 6.0
    grace: float = 12.0
    """Seconds a player who closed the page keeps their seat before their bot covers it (docs/players/browser.md)."""
    bot_seconds: float | None = None
    """A cap on a bot's thinking per move (``None``: each level's own budget)."""
    cover_bot: str = DEFAULT_LEVEL


TURN_TIMERS = (30, 60, 120)
"""Seconds a human may take per turn, when the table has a turn timer."""

HOUR, DAY = 3_600, 86_400
MOVE_TIMES = (HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY)
"""Seconds a player may take per move at a turn-based table."""
TimeoutRule = Literal["move", "replace", "lose"]
TIMEOUT_RULES: tuple[TimeoutRule, ...] = ("move", "replace", "lose")
"""What happens when a player's time runs out at a turn-based table: a bot plays that one move, a bot
replaces the player for the rest of the match, or (two players) the match is lost on time."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A turn-based table's pace: the time per move and what happens when it runs out."""

    move_seconds: int
    on_timeout: TimeoutRule = "move"


@dataclass(slots=True)
class Seat:
    kind: Literal["human", "bot"]
    name: str | None = None
    """The name its player chose; ``None`` until then (each reader sees "Player 2" in their own language)."""
    bot: str | None = None
    taken: bool = False
    """A player holds the seat's credential (the credential itself is in storage, as a digest)."""
    left: bool = False
    """The player left the match: a bot plays the seat until they come back with their credential."""
    ready: bool = True
    """``False`` while its player has yet to press "Ready" for the first deal: a seat taken by invite
    or room code, and the creator's at a table for several people (:mod:`chickenfoot.server.table.readiness`)."""
    bot_account: bool = False
    """A bot account (a program through the Bot API) holds the seat: its name is shown with the BOT tag."""
    replaced: bool = False
    """At a turn-based table whose rule says so, the player's time ran out: a bot plays the seat for the
    rest of the match."""
    away_from: float | None = None
    away_until: float | None = None
    """The player's vacation (wall times), shown to everyone: their turn-based clock stands meanwhile."""


@dataclass(frozen=True, slots=True)
class Series:
    """The matches before a rematch's table, along its chain of rematches."""

    previous: str
    """The code of the table whose rematch this is."""
    played: int
    """Matches played before this one."""
    wins: tuple[int, ...]
    """Matches each seat won among them (each winner of a shared win counts it)."""

    def after(self, code: str, winners: list[int]) -> Series:
        """The series of the rematch of table ``code`` (this series' latest match), won by ``winners``."""
        wins = tuple(won + (seat in winners) for seat, won in enumerate(self.wins))
        return Series(code, self.played + 1, wins)


@dataclass(slots=True)
class TableConfig:
    """What is stored about a table besides its actions (never a secret)."""

    rules: Rules
    seats: list[Seat]
    seed: int
    creator: int = 0
    open: bool = False
    """Anyone with the room code may take a free seat (otherwise only invited friends)."""
    public: bool = False
    """Listed in the lobby (a public table is open)."""
    turn_timer: int | None = None
    playing_since: float | None = None
    """When the last human seat was taken and ready (seconds since the epoch): the first turn's clock starts."""
    rated: bool = False
    """The match counts for its players' ratings (server/ratings/rated.py)."""
    series: Series | None = None
    """The matches before this one when this table is a rematch."""
    pace: Pace | None = None
    """A turn-based table's pace; ``None``: real-time."""
    lost_on_time: int | None = None
    """The seat whose time ran out at a turn-based table of two whose rule is "lost on time": the match
    is over and the other player won it."""
    lost_at: float | None = None
    """When that seat's time ran out (seconds since the epoch): when the match ended."""
    aborted: bool = False
    """Its creator called it off before the match began: it never starts (:func:`.seats.abort`)."""
    organised: bool = False
    """A tournament's table: it plays to its end with nobody watching, a bot covering each absent player
    (an event waits for nobody)."""

    def bot_levels(self) -> list[str | None]:
        """Each seat's bot level, ``None`` for a person's seat (a bot's default name says its level)."""
        return [(seat.bot or DEFAULT_LEVEL) if seat.kind == "bot" else None for seat in self.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [asdict(s) for s in self.seats],
            "seed": self.seed,
            "creator": self.creator,
            "open": self.open,
            "public": self.public,
            "turn_timer": self.turn_timer,
            "playing_since": self.playing_since,
            "rated": self.rated,
            "series": None if self.series is None else asdict(self.series),
            "pace": None if self.pace is None else asdict(self.pace),
            "lost_on_time": self.lost_on_time,
            "lost_at": self.lost_at,
            "aborted": self.aborted,
            "organised": self.organised,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            Rules.from_dict(data["rules"]),
            [Seat(**s) for s in data["seats"]],
            int(data["seed"]),
            creator=int(data.get("creator", 0)),
            open=bool(data.get("open", False)),
            public=bool(data.get("public", False)),
            turn_timer=data.get("turn_timer"),
            playing_since=data.get("playing_since"),
            rated=bool(data.get("rated", False)),
            series=_series(data.get("series")),
            pace=None if data.get("pace") is None else Pace(**data["pace"]),
            lost_on_time=data.get("lost_on_time"),
            lost_at=data.get("lost_at"),
            aborted=bool(data.get("aborted", False)),
            organised=bool(data.get("organised", False)),
        )


def _series(data: dict[str, Any] | None) -> Series | None:
    if data is None:
        return None
    return Series(str(data["previous"]), int(data["played"]), tuple(int(won) for won in data["wins"]))

"""The arena (Lichess's format): a fixed time; whoever finishes a match is seated again as soon as enough
players are free; the most points when the time is up wins.

What is kept of Lichess's arena, and what is not:

- **Points by finishing place**, as in every format here (:func:`~chickenfoot.tournament.results.place_points`):
  2 for every seat finished above, 1 for every seat tied. At two seats that is Lichess's 2 for a win, 1
  for a draw, 0 for a loss; at four, 6-4-2-0. The points a table hands out do not depend on who won, so
  no table is worth more than another of its size.
- **No streaks, no berserk.** Lichess doubles a player's points after two wins in a row (to reward
  winning over drawing) and gives a point for halving one's clock (berserk). A Chicken Foot match is
  decided by the deal as much as by the play: two wins in a row are often two good deals, and
  doubling would reward the luck the format cannot remove. There is no chess clock to halve.
- **Only matches that end in time count**, as on Lichess; and no table starts in the last
  :attr:`ArenaSettings.closing` seconds, where a match could not finish.
- **Pairing by rank**: the free players, best ranked first, are cut into tables of neighbours, like
  Lichess's pairing by rank; a table is moved away from any two players who sat together at their
  last table (Lichess forbids an immediate rematch), unless someone has waited
  :attr:`ArenaSettings.max_wait` seconds, after which they play whoever is there. Before both, the
  grouping keeps apart two players who must not meet (one blocks the other) whenever another grouping
  of the free players exists.
- **Waiting**: when the free players do not fill a table, the ones freed last wait for the next; once
  the longest of them has waited :attr:`ArenaSettings.max_wait` seconds, bots fill their table (when
  the arena allows bots).
- **Pause, leave, join**: a paused or departed entrant is not seated; their points stay. Anyone may
  join while the arena runs.
- **Tie-breaks** (:data:`ARENA_TIEBREAKS`): the points per match (Lichess breaks ties by performance, a
  rating; per match is its plain measure), then wins.

Time is an input: every function takes ``now`` in the caller's clock, in seconds.

>>> settings = ArenaSettings(table_size=2, starts_at=0, ends_at=3600)
>>> entrants = [Entrant("ann", 0), Entrant("bob", 0), Entrant("cy", 0), Entrant("dan", 0, paused=True)]
>>> arena_pairings(settings, entrants, playing=[], results=[], now=5)
[('ann', 'bob')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from chickenfoot.errors import TournamentError
from chickenfoot.tournament._grouping import Cost, group, seat
from chickenfoot.tournament._history import History, blocked_among, keyed, pair
from chickenfoot.tournament.results import Result, Seating, check_table_size
from chickenfoot.tournament.standings import PlayerStanding, Tiebreak, standings

ARENA_TIEBREAKS = (Tiebreak.PER_MATCH, Tiebreak.WINS)
"""An arena's tie-breaks, in order."""


@dataclass(frozen=True, slots=True)
class ArenaSettings:
    """How one arena runs. Raises :class:`~chickenfoot.errors.TournamentError` for settings that cannot run."""

    table_size: int
    """Seats at every table: 2, 3 or 4."""
    starts_at: float
    """When the first tables may start (seconds, the caller's clock)."""
    ends_at: float
    """When the arena ends: a match finished later does not count."""
    closing: float = 0.0
    """No table starts this many seconds before the end (set it to a match's usual length)."""
    max_wait: float = 30.0
    """Seconds a free player waits for people before bots fill the table, or before an immediate rematch
    is allowed."""
    bots: bool = True
    """Whether bots fill the tables the free players cannot."""

    def __post_init__(self) -> None:
        check_table_size(self.table_size)
        if not self.starts_at < self.ends_at:
            raise TournamentError("an arena must end after it starts")
        if self.closing < 0 or self.max_wait < 0:
            raise TournamentError("an arena's closing and waiting times cannot be negative")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player who has joined the arena."""

    player: str
    """The player's id."""
    since: float
    """When they joined, or last came back from a pause."""
    paused: bool = False
    """Paused or gone: not seated, points kept."""


def arena_standings(
    settings: ArenaSettings, results: Sequence[Result], entrants: Sequence[Entrant] = ()
) -> list[PlayerStanding]:
    """The arena's standings at any moment: the matches finished by the end, ranked with :data:`ARENA_TIEBREAKS`.

    >>> settings = ArenaSettings(table_size=2, starts_at=0, ends_at=60)
    >>> results = [Result.from_points("t1", ("ann", "bob"), (0, 30), finished_at=50),
    ...            Result.from_points("t2", ("bob", "ann"), (0, 30), finished_at=70)]
    >>> [(row.player, row.score) for row in arena_standings(settings, results)]
    [('ann', 2), ('bob', 0)]
    """
    counted = [r for r in results if r.finished_at <= settings.ends_at]
    return standings(counted, ARENA_TIEBREAKS, [e.player for e in entrants])


def arena_pairings(
    settings: ArenaSettings,
    entrants: Sequence[Entrant],
    playing: Sequence[Seating],
    results: Sequence[Result],
    now: float,
    ranking: Sequence[PlayerStanding] | None = None,
    apart: Collection[tuple[str, str]] = (),
) -> list[Seating]:
    """The tables to start at ``now``: only free players (not paused, not at a table of ``playing``), each
    seated once; none before the start or in the closing time.

    ``ranking`` is :func:`arena_standings`, passed when the caller already has it (it is computed
    otherwise). ``apart``: pairs of players (in either order) seated together
    only when no other grouping of the free players exists (the objective's first cost). Raises
    :class:`~chickenfoot.errors.TournamentError` when an entrant is listed twice or a
    player sits at two tables of ``playing``: the caller's state is then wrong, and pairing on it could
    seat someone twice.
    """
    if not settings.starts_at <= now < settings.ends_at - settings.closing:
        return []
    busy: set[str] = set()
    for seating in playing:
        for player in seating:
            if player is not None:
                if player in busy:
                    raise TournamentError(f"{player} is at two tables at once")
                busy.add(player)
    free_since: dict[str, float] = {}
    for entrant in entrants:
        if entrant.player in free_since:
            raise TournamentError(f"{entrant.player} is entered twice")
        if not entrant.paused and entrant.player not in busy:
            free_since[entrant.player] = entrant.since
    if not free_since:
        return []
    last: dict[str, tuple[float, Result]] = {}
    for result in results:
        for player in result.players:
            if player in free_since:
                free_since[player] = max(free_since[player], result.finished_at)
                if player not in last or result.finished_at >= last[player][0]:
                    last[player] = (result.finished_at, result)
    just_met = {
        pair(a, b)
        for _, result in last.values()
        for a in result.players
        for b in result.players
        if a is not None and b is not None and a < b
    }
    ranking = ranking if ranking is not None else arena_standings(settings, results, entrants)
    place = {row.player: i for i, row in enumerate(ranking)}
    size = settings.table_size
    # Whoever was freed last waits when the count does not fill the tables.
    by_wait = sorted(free_since, key=lambda p: (free_since[p], place.get(p, len(place))))
    seated = by_wait[: len(by_wait) - len(by_wait) % size]
    waiting = by_wait[len(seated) :]
    tables: list[list[str]] = []
    kept_apart = keyed(apart)
    if seated:
        order = sorted(seated, key=lambda p: place.get(p, len(place)))

        def cost(members: tuple[int, ...], _bots: int) -> Cost:
            names = [order[i] for i in members]
            rematches = sum(pair(a, b) in just_met for k, a in enumerate(names) for b in names[k + 1 :])
            places = sum((a - b) ** 2 for k, a in enumerate(members) for b in members[k + 1 :])
            return (blocked_among(names, kept_apart), rematches, places)

        for members in group(len(order), [size] * (len(order) // size), size, cost):
            names = [order[i] for i in members]
            rematch = any(pair(a, b) in just_met for k, a in enumerate(names) for b in names[k + 1 :])
            if rematch and min(free_since[p] for p in names) > now - settings.max_wait:
                continue  # nobody here has waited long enough to face the same people again
            tables.append(names)
    if waiting and settings.bots and min(free_since[p] for p in waiting) <= now - settings.max_wait:
        tables.append(sorted(waiting, key=lambda p: place.get(p, len(place))))
    history = History.of(results)
    return [seat(names, size, history.seats) for names in tables]

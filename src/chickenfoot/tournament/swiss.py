"""Swiss for tables of 2, 3 or 4: a fixed number of rounds, each round's tables made from the standings.

Chess's Swiss rules (FIDE's Dutch system) pair two players; there is no standard for tables of three or
four. Events of multi-player games (Magic's Commander pods, riichi mahjong's Swiss rounds, board game
tournaments' "power pairing") seat the standings in consecutive groups — the leaders together, then the
next ones — and move a player to a neighbouring table to avoid a repeat. This module does that with
one stated objective, so every round can be checked by hand:

1. **Round 1** deals the seeding order over the tables as a snake (tables 1, 2, … t, then t … 2, 1, …):
   the top seeds start apart, as chess's top half meets its bottom half. When the snake seats a blocked
   pair together, round 1 takes the seating with the fewest blocked pairs, then the fewest players moved
   from their snake table.
2. **Later rounds** take, among every way to seat the field at the same tables, the one with

   0. the fewest **blocked pairs**: two players who must be kept apart (one blocks the other) share a
      table only when no seating of the field avoids it;
   1. the fewest **repeats**: for every pair of players at a new table, the tables they already
      shared; and for every player at a table with bots, the bots they already sat beside (chess
      gives nobody a second bye; here nobody sits with bots twice while others have not);
   2. then the smallest **score spread**: the squared difference of the scores of every two people at
      a table (bots counted with the lowest score);
   3. then the closest to the **standings order**: the squared difference of every two people's
      places (bots counted below the last player).

   Up to 12 players every split is tried (up to ``EXACT_LIMIT`` splits, in the private ``_grouping``);
   above, consecutive groups are improved by swaps between nearby tables until no swap helps.
3. **Byes** are bots: when the field does not fill the tables, the empty seats are spread one per
   table from the bottom, and the objective puts the lowest scores beside them.
4. **Seats**: at each table, players take the seats they have held least often.

Tie-breaks (:data:`SWISS_TIEBREAKS`): the opponents' average score (Buchholz for tables), then head to
head among the tied, then fewer game points.

>>> from chickenfoot.tournament import Result, standings
>>> entrants = ["p1", "p2", "p3", "p4", "p5", "p6"]
>>> first = swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], 3)
>>> first
[('p1', 'p4', 'p5'), ('p2', 'p3', 'p6')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from chickenfoot.errors import TournamentError
from chickenfoot.tournament._grouping import Cost, group, seat, table_sizes
from chickenfoot.tournament._history import History, blocked_among, keyed
from chickenfoot.tournament.results import Result, Seating, check_table_size
from chickenfoot.tournament.standings import PlayerStanding, Tiebreak

SWISS_TIEBREAKS = (Tiebreak.OPPONENTS_AVERAGE, Tiebreak.HEAD_TO_HEAD, Tiebreak.GAME_POINTS)
"""A Swiss's tie-breaks, in order."""


def snake(players: int, sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``players`` in order over tables of ``sizes``: across, back, across… skipping full tables.

    >>> snake(10, [4, 3, 3])
    [[0, 5, 6, 9], [1, 4, 7], [2, 3, 8]]
    """
    tables: list[list[int]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    lanes = forward + forward[::-1]
    step = 0
    for player in range(players):
        while len(tables[lanes[step % len(lanes)]]) == sizes[lanes[step % len(lanes)]]:
            step += 1
        tables[lanes[step % len(lanes)]].append(player)
        step += 1
    return tables


def swiss_round(
    standing: Sequence[PlayerStanding],
    results: Sequence[Result],
    table_size: int,
    apart: Collection[tuple[str, str]] = (),
) -> list[Seating]:
    """The next round's tables for the players of ``standing`` (best first), given the tables they finished.

    ``standing`` is the event's standings (:func:`~chickenfoot.tournament.standings.standings` with
    :data:`SWISS_TIEBREAKS`, or a duplicate event's) for the players still in; its order before any
    result is the seeding. ``apart``: pairs of players (in either order) seated together
    only when no other seating exists. Returns the tables, the leaders' first, each
    seated (``None``: a bot).
    Raises :class:`~chickenfoot.errors.TournamentError` for fewer than two players.
    """
    check_table_size(table_size)
    players = [row.player for row in standing]
    if len(players) < 2:
        raise TournamentError("a round needs at least 2 players")
    if len(set(players)) != len(players):
        raise TournamentError("a player is listed twice in the standings")
    sizes = table_sizes(len(players), table_size)
    history = History.of(results)
    kept_apart = keyed(apart)
    if not any(player in history.seats for player in players):
        dealt = snake(len(players), sizes)
        tables = [tuple(t) for t in dealt]
        if any(blocked_among([players[i] for i in t], kept_apart) for t in tables):
            snake_tables = [set(t) for t in dealt]

            def moved(members: tuple[int, ...], _bots: int) -> Cost:
                names = [players[i] for i in members]
                return (blocked_among(names, kept_apart), min(len(set(members) - t) for t in snake_tables))

            tables = group(len(players), sizes, table_size, moved)
    else:
        scores = [row.score for row in standing]
        lowest = min(scores)
        bottom = len(players)

        def cost(members: tuple[int, ...], bots: int) -> Cost:
            names = [players[i] for i in members]
            repeats = history.meetings(names) + bots * sum(history.with_bots[p] for p in names)
            spread = sum((scores[a] - scores[b]) ** 2 for k, a in enumerate(members) for b in members[k + 1 :])
            places = sum((a - b) ** 2 for k, a in enumerate(members) for b in members[k + 1 :])
            spread += bots * sum((scores[a] - lowest) ** 2 for a in members)
            places += bots * sum((bottom - a) ** 2 for a in members)
            return (blocked_among(names, kept_apart), repeats, spread, places)

        tables = group(len(players), sizes, table_size, cost)
    return [seat([players[i] for i in members], table_size, history.seats) for members in tables]

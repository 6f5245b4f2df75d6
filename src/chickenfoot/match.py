"""A match of rounds (docs/rules.md §2, §5, §6), its standings and its record.

>>> m = Match(Rules(rounds=2), players=3, seed=1)
>>> while not m.is_over():
...     if m.round.is_over():
...         _ = m.next_round()
...     m.push(m.legal_moves()[0])
>>> len(m.round_points), Match.from_record(m.record()).totals() == m.totals()
(2, True)
>>> Match.from_record({**m.record(), "player": 3})
Traceback (most recent call last):
...
chickenfoot.errors.PositionError: unknown field 'player'
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chickenfoot.errors import (
    ChickenfootError,
    IllegalMoveError,
    PositionError,
    RulesError,
    UnreadableFile,
    quoted_english,
    shown,
)
from chickenfoot.i18n import DEFAULT, english, unreadable
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.reading import (
    list_field,
    load_json,
    move_text,
    object_field,
    read_text,
    same_numbers,
    tile_list,
    whole_number,
)
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile
from chickenfoot.view import MatchStanding, SeatView

RECORD_FORMAT = "chickenfoot-match/1"
_RECORD_FIELDS = ("format", "rules", "players", "seed", "rounds", "seats", "lost_on_time")
"""The top-level fields of a match record; ``seats``, the seat kinds, only in a saved terminal game;
``lost_on_time``, the seat to move where the record ends, only in a match the server's table ended when
that player's time ran out (a rule of the table, not of the game: the match read back is not over)."""
_ROUND_FIELDS = ("start_double", "hands", "boneyard", "moves", "points")


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place in the match; equal ranks share the place (rank 1 wins)."""

    seat: int
    """The seat."""
    total: int
    """Its points over the rounds counted."""
    zero_rounds: int
    """How many of those rounds it scored 0 (the first tie-break)."""
    lowest_nonzero: int | None
    """The seat's lowest non-zero round score (``None``: every round scored 0)."""
    rank: int
    """Its place, 1 for the winners; seats that no rule separates share a rank."""

    def tie_key(self) -> tuple[int, int, int]:
        """The key docs/rules.md §6 ranks by, lower better: the total, then more zero rounds, then the lowest
        non-zero round (a seat with no non-zero round beats any that has one)."""
        return (self.total, -self.zero_rounds, -1 if self.lowest_nonzero is None else self.lowest_nonzero)


def standings(round_points: Sequence[Sequence[int]], players: int) -> list[Standing]:
    """Rank seats by docs/rules.md §6 from each round's points; best first."""
    rows = []
    for seat in range(players):
        scores = [points[seat] for points in round_points]
        nonzero = [s for s in scores if s]
        rows.append(Standing(seat, sum(scores), len(scores) - len(nonzero), min(nonzero) if nonzero else None, 0))
    keys = [row.tie_key() for row in rows]
    ranked = [
        Standing(r.seat, r.total, r.zero_rounds, r.lowest_nonzero, 1 + sum(k < keys[r.seat] for k in keys))
        for r in rows
    ]
    return sorted(ranked, key=lambda s: (s.rank, s.seat))


def winner_reason(table: Sequence[Standing]) -> Said:
    """Who won and which rule of docs/rules.md §6 decided it (``match.win.*``; seats as tuples)."""
    best_total = min(s.total for s in table)
    tied = [s for s in table if s.total == best_total]
    winners = [s for s in table if s.rank == 1]
    if len(tied) == 1:
        return Said.of(Code.MATCH_WIN_LOWEST, seat=tied[0].seat, total=best_total)
    tied_seats = tuple(s.seat for s in tied)
    most_zero = max(s.zero_rounds for s in tied)
    by_zero = [s for s in tied if s.zero_rounds == most_zero]
    if len(by_zero) == 1:
        return Said.of(
            Code.MATCH_WIN_ZERO_ROUNDS, tied=tied_seats, total=best_total, seat=by_zero[0].seat, zeros=most_zero
        )
    lowest = min(by_zero, key=lambda s: s.tie_key()).lowest_nonzero
    if len(winners) == 1:
        if lowest is None:
            return Said.of(Code.MATCH_WIN_NO_NONZERO, tied=tied_seats, total=best_total, seat=winners[0].seat)
        return Said.of(
            Code.MATCH_WIN_LOWEST_ROUND, tied=tied_seats, total=best_total, seat=winners[0].seat, points=lowest
        )
    return Said.of(Code.MATCH_WIN_SHARED, names=tuple(s.seat for s in winners))


def explain_winner(table: Sequence[Standing]) -> str:
    """:func:`winner_reason` in English."""
    return english(winner_reason(table))


class Match:
    """Rounds ``max_pip``-``max_pip`` down to 0-0 (or ``rules.rounds`` of them), with running totals."""

    def __init__(self, rules: Rules | None = None, players: int = 4, seed: int | None = None) -> None:
        """A match of ``players`` seats by ``rules`` (default ``Rules()``), its first round dealt.

        Every round's deal follows from ``seed``, so the same seed deals the same match; ``None`` deals
        at random. Raises :class:`~chickenfoot.errors.RulesError` when the set cannot deal ``players``
        hands.
        """
        self.rules = rules or Rules()
        """The rule options of every round."""
        self.players = players
        """The number of seats."""
        self.seed = seed
        """The seed every round's deal follows from (``None``: dealt at random, then not replayable
        from the seed alone; the record keeps every deal)."""
        self.rules.hand_size_for(players)
        self._round_seeds = _round_seeds(self.rules, seed)
        self.rounds: list[Round] = []
        """Every round dealt so far, the current one last."""
        self.deals: list[tuple[list[list[Tile]], list[Tile]]] = []
        """Each round's deal as dealt: the hands and the boneyard in draw order."""
        self.round_points: list[list[int]] = []
        """Points of each finished round."""
        self._start(Round.deal(self.rules, players, self._round_seeds[0], start_double=self.rules.start_doubles()[0]))

    def _start(self, round_: Round) -> None:
        self.rounds.append(round_)
        self.deals.append(([round_.hand(s) for s in range(self.players)], round_.boneyard_tiles()))

    @property
    def round(self) -> Round:
        """The round being played (or the last one, once the match is over)."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        """1-based number of the current round."""
        return len(self.rounds)

    @property
    def to_move(self) -> int:
        """The seat to act in the current round."""
        return self.round.to_move

    def legal_moves(self) -> list[Move]:
        """The legal moves in the current round (none between rounds: call :meth:`next_round`)."""
        return self.round.legal_moves()

    def push(self, move: Move) -> None:
        """Make a move in the current round; records the round's points when it ends."""
        self.round.push(move)
        if self.round.is_over():
            self.round_points.append(self.round.points())

    def pop(self) -> Move:
        """Take back the last move of the current round."""
        if self.round.is_over():
            self.round_points.pop()
        return self.round.pop()

    def next_round(self) -> Round:
        """Deal the next round once the current one is over."""
        if not self.round.is_over():
            raise IllegalMoveError("the current round is not over")
        if self.is_over():
            raise IllegalMoveError("the match is over")
        k = len(self.rounds)
        self._start(
            Round.deal(self.rules, self.players, self._round_seeds[k], start_double=self.rules.start_doubles()[k])
        )
        return self.round

    def is_over(self) -> bool:
        """Whether every round has been played (:meth:`winners` then says who won)."""
        return len(self.round_points) == self.rules.round_count

    def standing(self) -> MatchStanding:
        """The standings before the current round, as every seat sees them."""
        earlier = self.round_points[: self.round_number - 1]
        table = sorted(standings(earlier, self.players), key=lambda s: s.seat)
        return MatchStanding(
            round_number=self.round_number,
            rounds=self.rules.round_count,
            totals=tuple(s.total for s in table),
            zero_rounds=tuple(s.zero_rounds for s in table),
            lowest_nonzero=tuple(s.lowest_nonzero for s in table),
        )

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know of the current round (:meth:`Round.view`), with the match standings."""
        return dataclasses.replace(self.round.view(seat), match=self.standing())

    def totals(self) -> list[int]:
        """Each seat's points over the finished rounds, by seat."""
        return [sum(points[s] for points in self.round_points) for s in range(self.players)]

    def standings(self) -> list[Standing]:
        """The seats ranked by docs/rules.md §6 over the finished rounds, best first."""
        return standings(self.round_points, self.players)

    def winners(self) -> list[int]:
        """Seats in first place (more than one when the win is shared)."""
        return [s.seat for s in self.standings() if s.rank == 1]

    def winner_reason(self) -> Said:
        """Who leads (or won) and which rule of docs/rules.md §6 decided it, as a message to render in any
        language (:func:`~chickenfoot.i18n.say`)."""
        return winner_reason(self.standings())

    def explain_winner(self) -> str:
        """:meth:`winner_reason` in English, e.g. ``'seat 0 wins with the lowest total (41)'``."""
        return explain_winner(self.standings())

    # --- the match record ---------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match record: rules, seed, every deal and every move (JSON-ready)."""
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "rounds": [
                {
                    "start_double": round_.start_double,
                    "hands": [[str(t) for t in hand] for hand in hands],
                    "boneyard": [str(t) for t in boneyard],
                    "moves": [str(step.move) for step in round_.history],
                    "points": round_.points() if round_.is_over() else None,
                }
                for round_, (hands, boneyard) in zip(self.rounds, self.deals, strict=True)
            ],
        }

    def dumps(self) -> str:
        """The match record (:meth:`record`) as JSON text, as the terminal game saves it."""
        return json.dumps(self.record(), indent=1) + "\n"

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Match:
        """Replay a match record, checking every field and move; raises :class:`PositionError` naming the problem."""
        data = object_field(data, "a match record")
        if data.get("format") != RECORD_FORMAT:
            raise PositionError(f"format must be {RECORD_FORMAT!r}, got {shown(data.get('format'))}")
        for key in ("rules", "players", "rounds"):
            if key not in data:
                raise PositionError(f"missing field {key!r}")
        unknown = sorted(set(data) - set(_RECORD_FIELDS))
        if unknown:
            raise PositionError(f"unknown field {quoted_english(unknown[0])}")
        try:
            rules = Rules.from_dict(object_field(data["rules"], "rules"))
        except RulesError as exc:
            raise PositionError(f"rules: {exc}") from None
        players = whole_number(data["players"], "players", 2)
        try:
            size = rules.hand_size_for(players)
        except RulesError as exc:
            raise PositionError(str(exc)) from None
        seed = data.get("seed")
        if seed is not None:
            whole_number(seed, "seed")
        seats = data.get("seats")
        if "seats" in data and not (
            isinstance(seats, list) and len(seats) == players and all(isinstance(kind, str) for kind in seats)
        ):
            raise PositionError(f"seats must be a list of seat kinds, one per player ({players}), got {shown(seats)}")
        match = cls.__new__(cls)
        match.rules, match.players, match.seed = rules, players, seed
        match._round_seeds = _round_seeds(rules, seed)
        match.rounds, match.deals, match.round_points = [], [], []
        entries = list_field(data["rounds"], "rounds", "rounds")
        if not 1 <= len(entries) <= rules.round_count:
            raise PositionError(f"a match record holds 1 to {rules.round_count} rounds, got {len(entries)}")
        for k, entry in enumerate(entries):
            if k and not match.round.is_over():
                raise PositionError(f"round {k} is not over but round {k + 1} follows")
            match._replay_round(k, object_field(entry, f"rounds[{k}]"), size)
        if "lost_on_time" in data:
            lost = whole_number(data["lost_on_time"], "lost_on_time", 0, players - 1)
            if match.round.is_over() or lost != match.to_move:
                raise PositionError(f"lost_on_time must be the seat to move where the record ends, got {lost}")
        return match

    def _replay_round(self, k: int, entry: Mapping[str, Any], size: int) -> None:
        where = f"rounds[{k}]"
        for key in ("start_double", "hands", "boneyard", "moves"):
            if key not in entry:
                raise PositionError(f"{where}: missing field {key!r}")
        unknown = sorted(set(entry) - set(_ROUND_FIELDS))
        if unknown:
            raise PositionError(f"{where}: unknown field {quoted_english(unknown[0])}")
        start = self.rules.start_doubles()[k]
        if entry["start_double"] != start or not isinstance(entry["start_double"], int):
            raise PositionError(f"round {k + 1} must start with {start}-{start}, got {shown(entry['start_double'])}")
        hands_value = list_field(entry["hands"], f"{where}.hands", "hands")
        if len(hands_value) != self.players:
            raise PositionError(f"round {k + 1} deals {len(hands_value)} hands for {self.players} players")
        hands = [tile_list(hand, f"{where}.hands[{s}]") for s, hand in enumerate(hands_value)]
        boneyard = tile_list(entry["boneyard"], f"{where}.boneyard")
        if any(len(hand) != size for hand in hands):
            raise PositionError(f"round {k + 1}: every hand must be dealt {size} tiles")
        if size * self.players + len(boneyard) != self.rules.tile_count:
            raise PositionError(f"round {k + 1} is not dealt from the whole set")
        round_ = Round(self.rules, hands, boneyard, start_double=start)
        self._start(round_)
        for ply, value in enumerate(list_field(entry["moves"], f"{where}.moves", "moves")):
            text = move_text(value, f"round {k + 1}, move {ply + 1}")
            try:
                self.push(Move.parse(text))
            except ChickenfootError as exc:
                raise PositionError(f"round {k + 1}, move {ply + 1} ({quoted_english(text)}): {exc}") from None
        recorded = entry.get("points")
        if recorded is not None and not same_numbers(recorded, self.round_points[k] if round_.is_over() else None):
            raise PositionError(f"round {k + 1}: recorded points {shown(recorded)} do not match the replay")

    @classmethod
    def loads(cls, text: str) -> Match:
        """The match of a record's JSON text (:meth:`dumps`), checked as :meth:`from_record` checks it."""
        return cls.from_record(load_json(text))


def read_match(path: Path, lang: str = DEFAULT) -> tuple[Match, list[str] | None]:
    """The match of a record file (a download or a saved terminal game) and its seat kinds when it
    names them; raises :class:`PositionError` naming the file and the problem (in ``lang`` when the
    system will not read the file)."""
    try:
        text = read_text(path)  # its other errors name the file already
    except UnreadableFile as exc:
        raise PositionError(unreadable(exc, lang)) from None
    try:
        data = load_json(text)
        match = Match.from_record(data)
    except ChickenfootError as exc:
        raise PositionError(f"{path}: {exc}") from None
    return match, data.get("seats")


def _round_seeds(rules: Rules, seed: int | None) -> list[int]:
    """The deal seed of each round of a match seeded with ``seed`` (fresh randomness for ``None``)."""
    seeder = random.Random(seed)
    return [seeder.getrandbits(64) for _ in range(rules.round_count)]

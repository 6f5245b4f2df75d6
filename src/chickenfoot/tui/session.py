"""A match with its seats (humans and bots), shared by the terminal game and the plain line mode.

Everything here goes through the engine: legal moves come from the view, moves are pushed on the
:class:`~chickenfoot.match.Match`, and the log is worded from the round's events.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS, check_bot, make_bot
from chickenfoot.errors import ChickenfootError, PositionError, quoted, shown
from chickenfoot.match import Match
from chickenfoot.move import Move
from chickenfoot.reading import load_json, read_text
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.view import SeatView

HUMAN = "human"
SEAT_KINDS = (HUMAN, *LEVELS)


def check_seat(kind: str) -> str:
    """``kind`` if it is ``human`` or names a bot (a difficulty level or a bot kind)."""
    if kind != HUMAN:
        try:
            check_bot(kind)
        except ValueError:
            choices = ", ".join(SEAT_KINDS)
            raise ValueError(f"unknown seat kind {quoted(kind)} (choose from {choices} or a bot name)") from None
    return kind


def parse_seats(text: str, players: int) -> list[str]:
    """Seat kinds from ``human,medium,...``; missing seats get bots of the default level."""
    kinds = [check_seat(word.strip().lower()) for word in text.split(",") if word.strip()]
    if len(kinds) > players:
        raise ValueError(f"{len(kinds)} seats given for {players} players")
    return kinds + [DEFAULT_LEVEL] * (players - len(kinds))


class Session:
    """A match being played: which seats are human, the bots, undo and saving."""

    def __init__(self, match: Match, seats: Sequence[str], *, bot_seed: int | None = None) -> None:
        if len(seats) != match.players:
            raise ValueError(f"{len(seats)} seat kinds for {match.players} players")
        self.match = match
        self.seats = list(seats)
        self.bots = {
            s: make_bot(check_seat(kind), None if bot_seed is None else bot_seed + s)
            for s, kind in enumerate(self.seats)
            if kind != HUMAN
        }
        self.choices: list[int] = []
        """Plies of the current round at which a human chose a move (undo goes back to the last)."""

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: Sequence[str],
        seed: int | None = None,
    ) -> Session:
        return cls(Match(rules, len(seats), seed), seats, bot_seed=seed)

    # --- state ------------------------------------------------------------------------------

    @property
    def round(self) -> Round:
        return self.match.round

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def hot_seat(self) -> bool:
        """Several humans share the terminal: hands are hidden between their turns."""
        return len(self.humans) > 1

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    def name(self, seat: int) -> str:
        if self.is_human(seat) and not self.hot_seat:
            return "You"
        return f"Seat {seat}"

    def label(self, seat: int) -> str:
        kind = self.seats[seat]
        return f"Seat {seat} ({'human' if kind == HUMAN else 'bot ' + kind})"

    def view(self, seat: int | None) -> SeatView:
        return self.round.view(seat)

    def forced_move(self) -> Move | None:
        """The move to make for a human who has no choice: :meth:`Round.forced_move`, on a human's turn."""
        round_ = self.round
        return round_.forced_move() if self.is_human(round_.to_move) else None

    def bot_move(self) -> Move:
        """The move of the bot to move, thinking as long as its level allows."""
        seat = self.round.to_move
        return self.bots[seat].choose(self.view(seat))

    # --- moves ------------------------------------------------------------------------------

    def play(self, move: Move, *, chosen: bool = False) -> list[str]:
        """Push a move of the seat to move; returns the log lines. ``chosen``: a human picked it."""
        ply = self.round.ply
        self.match.push(move)
        if chosen:
            self.choices.append(ply)
        return self.describe_last()

    def describe_last(self) -> list[str]:
        """The last move in words, showing a drawn tile only when one human plays alone."""
        lines = []
        for event in self.round.events_of_last():
            who = self.name(event.seat)
            if event.kind in ("hub", "play", "pass") and event.move is not None:
                lines.append(event.move.describe(who))
            elif event.kind == "chicken_foot":
                lines.append(f"Chicken foot! {event.tile} needs {self.round.rules.toes} toes")
            elif event.kind == "foot_done":
                lines.append(f"The chicken foot on {event.tile} is complete")
            elif event.kind == "draw" and event.move is not None:
                shown = self.is_human(event.seat) and not self.hot_seat
                lines.append(event.move.describe(who, event.tile if shown else None))
            elif event.kind == "round_over":
                lines.append(f"Round {self.match.round_number} is over: {self.end_words()}")
        return lines

    def end_words(self) -> str:
        """How the round ended, in words."""
        round_ = self.round
        if round_.end_reason == "blocked":
            return "blocked, nobody can play"
        out = next(s for s in range(round_.players) if not round_.hands[s])
        return f"{self.name(out)} {'are' if self.name(out) == 'You' else 'is'} out of tiles"

    def can_undo(self) -> bool:
        """Undo is for one human against bots, back to their last chosen move of this round."""
        return len(self.humans) == 1 and bool(self.choices) and not self.round.is_over()

    def undo(self) -> int:
        """Take back everything since the human's last chosen move; returns the moves taken back."""
        if not self.can_undo():
            raise ChickenfootError("nothing to undo (undo works in games against bots only)")
        target = self.choices.pop()
        count = 0
        while self.round.ply > target:
            self.match.pop()
            count += 1
        return count

    def next_round(self) -> None:
        self.match.next_round()
        self.choices.clear()

    # --- saving -----------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match record, with the seat kinds (the record format ignores extra fields)."""
        return {**self.match.record(), "seats": self.seats}

    def save(self, path: str | Path) -> Path:
        target = Path(path).expanduser()
        try:
            target.write_text(json.dumps(self.record(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise ChickenfootError(f"cannot save to {target}: {exc.strerror or exc}") from None
        return target

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """Resume the match saved in a file; raises :class:`PositionError` naming the file and the problem."""
        source = Path(path).expanduser()
        text = read_text(source)  # its errors name the file already
        try:
            return cls.loads(text)
        except ChickenfootError as exc:
            raise PositionError(f"{source}: {exc}") from None

    @classmethod
    def loads(cls, text: str) -> Session:
        """A saved match from its text; a plain match record gets one human (seat 0) against medium bots."""
        data = load_json(text)
        match = Match.from_record(data)
        seats = data.get("seats")
        if seats is None:
            seats = [HUMAN] + [DEFAULT_LEVEL] * (match.players - 1)
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise PositionError(f"seats must be a list of seat kinds, got {shown(seats)}")
        try:
            return cls(match, seats, bot_seed=match.seed)
        except ValueError as exc:
            raise PositionError(str(exc)) from None

"""A match with its seats (humans and bots), shared by the terminal game and the plain line mode.

Everything here goes through the engine: legal moves come from the view, moves are pushed on the
:class:`~chickenfoot.match.Match`, and the log is worded from the round's events.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS, check_bot, make_bot
from chickenfoot.errors import ChickenfootError, PositionError, quoted, shown
from chickenfoot.i18n import render, say
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.reading import load_json, read_text
from chickenfoot.round import Event, Round
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

    def __init__(self, match: Match, seats: Sequence[str], *, bot_seed: int | None = None, lang: str = "en") -> None:
        if len(seats) != match.players:
            raise ValueError(f"{len(seats)} seat kinds for {match.players} players")
        self.lang = lang
        """The language of every word shown (a catalog of :mod:`chickenfoot.i18n`)."""
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
        lang: str = "en",
    ) -> Session:
        return cls(Match(rules, len(seats), seed), seats, bot_seed=seed, lang=lang)

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

    def t(self, code: Code, /, **params: object) -> str:
        """A message of the catalog in the session's language."""
        return render(code, self.lang, **params)

    def say(self, said: Said) -> str:
        """An engine's message in the session's language, seats by :meth:`name`."""
        return say(said, self.lang, self.names())

    def is_you(self, seat: int) -> bool:
        """The seat is the one human at the keyboard, called "you"."""
        return self.is_human(seat) and not self.hot_seat

    def name(self, seat: int) -> str:
        return self.t(Code.YOU) if self.is_you(seat) else self.t(Code.SEAT, seat=seat)

    def names(self) -> list[str]:
        return [self.name(seat) for seat in range(self.match.players)]

    def label(self, seat: int) -> str:
        kind = self.seats[seat]
        if kind == HUMAN:
            return self.t(Code.TUI_KIND_HUMAN, seat=seat)
        return self.t(Code.TUI_KIND_BOT, seat=seat, level=self.kind_name(kind))

    def kind_name(self, kind: str) -> str:
        """A bot's level or kind in words (``medium``), as the catalog has it."""
        try:
            return self.t(Code.parse(f"ui.bot.{kind}"))
        except ValueError:
            return kind

    def view(self, seat: int | None) -> SeatView:
        return self.round.view(seat)

    def forced_move(self) -> Move | None:
        """The move to make for a human who has no choice: :meth:`Round.forced_move`, on a human's turn."""
        round_ = self.round
        return round_.forced_move() if self.is_human(round_.to_move) else None

    def bot_move(self) -> Move:
        """The move of the bot to move, thinking as long as its level allows."""
        seat = self.round.to_move
        return self.bots[seat].choose(self.match.view(seat))

    # --- moves ------------------------------------------------------------------------------

    def play(self, move: Move, *, chosen: bool = False) -> list[str]:
        """Push a move of the seat to move; returns the log lines. ``chosen``: a human picked it."""
        ply = self.round.ply
        self.match.push(move)
        if chosen:
            self.choices.append(ply)
        return self.describe_last()

    def last_events(self) -> list[tuple[Event, str]]:
        """The last move's events (not the handing on of the turn) with their words, showing a
        drawn tile only when one human plays alone."""
        lines = []
        for event in self.round.events_of_last():
            if event.kind == "turn":
                continue
            if event.kind == "draw" and not self.is_you(event.seat):
                event = dataclasses.replace(event, tile=None)
            lines.append((event, self.round_over_words() if event.kind == "round_over" else self.event_words(event)))
        return lines

    def describe_last(self) -> list[str]:
        """The last move in words (:meth:`last_events`)."""
        return [words for _, words in self.last_events()]

    def event_words(self, event: Event) -> str:
        return self.say(event.said(self.match.round_number))

    def round_over_words(self) -> str:
        """How the round ended: ``event.round_over.domino`` (``domino_you``) or ``blocked``."""
        round_ = self.round
        number = self.match.round_number
        if round_.end_reason == "blocked":
            return self.t(Code.EVENT_ROUND_OVER_BLOCKED, round=number)
        out = next(s for s in range(round_.players) if not round_.hands[s])
        if self.is_you(out):
            return self.t(Code.EVENT_ROUND_OVER_DOMINO_YOU, round=number)
        return self.t(Code.EVENT_ROUND_OVER_DOMINO, round=number, name=self.name(out))

    def hub_name(self) -> str:
        """The hub of the round being played (``9-9``)."""
        double = self.round.start_double
        return f"{double}-{double}"

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
    def load(cls, path: str | Path, lang: str = "en") -> Session:
        """Resume the match saved in a file; raises :class:`PositionError` naming the file and the problem."""
        source = Path(path).expanduser()
        text = read_text(source)  # its errors name the file already
        try:
            return cls.loads(text, lang)
        except ChickenfootError as exc:
            raise PositionError(f"{source}: {exc}") from None

    @classmethod
    def loads(cls, text: str, lang: str = "en") -> Session:
        """A saved match from its text; a plain match record gets one human (seat 0) against medium bots."""
        data = load_json(text)
        match = Match.from_record(data)
        seats = data.get("seats")
        if seats is None:
            seats = [HUMAN] + [DEFAULT_LEVEL] * (match.players - 1)
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise PositionError(f"seats must be a list of seat kinds, got {shown(seats)}")
        try:
            return cls(match, seats, bot_seed=match.seed, lang=lang)
        except ValueError as exc:
            raise PositionError(str(exc)) from None

"""A match with its seats (humans and bots), shared by the terminal game and the plain line mode.

Everything here goes through the engine: legal moves come from the view, moves are pushed on the
:class:`~chickenfoot.match.Match`, and the log is worded from the round's events.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from chickenfoot.bots import DEFAULT_LEVEL, LEVELS, check_bot, make_bot
from chickenfoot.errors import ChickenfootError, PositionError, UnreadableFile, quoted_english, shown
from chickenfoot.i18n import file_problem, phrases, render, say, unreadable
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.reading import load_json, read_text
from chickenfoot.round import Event, Round
from chickenfoot.rules import Rules
from chickenfoot.view import SeatView

HUMAN = "human"
SEAT_KINDS = (HUMAN, *LEVELS)

YOU_WORDING: Final[Mapping[Code, Code]] = {
    Code.EVENT_HUB: Code.EVENT_HUB_YOU,
    Code.EVENT_PLAY: Code.EVENT_PLAY_YOU,
    Code.EVENT_DRAW: Code.EVENT_DRAW_YOU,
    Code.EVENT_PASS: Code.EVENT_PASS_YOU,
    Code.EVENT_TURN: Code.EVENT_YOUR_TURN,
    Code.EVENT_ROUND_OVER_DOMINO: Code.EVENT_ROUND_OVER_DOMINO_YOU,
    Code.EVENT_MATCH_OVER: Code.EVENT_MATCH_OVER_YOU,
    Code.MOVE_FORCED: Code.MOVE_FORCED_YOU,
    Code.ILLEGAL_MUST_PLAY_DRAWN: Code.ILLEGAL_MUST_PLAY_DRAWN_YOU,
    Code.ILLEGAL_MUST_PLAY_DRAWN_OR_PASS: Code.ILLEGAL_MUST_PLAY_DRAWN_OR_PASS_YOU,
    Code.ILLEGAL_MUST_DRAW: Code.ILLEGAL_MUST_DRAW_YOU,
    Code.ILLEGAL_MUST_PLAY: Code.ILLEGAL_MUST_PLAY_YOU,
    Code.ILLEGAL_NOT_IN_HAND: Code.ILLEGAL_NOT_IN_HAND_YOU,
    Code.ILLEGAL_ONLY_DRAWN: Code.ILLEGAL_ONLY_DRAWN_YOU,
    Code.MATCH_WIN_LOWEST: Code.MATCH_WIN_LOWEST_YOU,
    Code.MATCH_WIN_ZERO_ROUNDS: Code.MATCH_WIN_ZERO_ROUNDS_YOU,
    Code.MATCH_WIN_LOWEST_ROUND: Code.MATCH_WIN_LOWEST_ROUND_YOU,
    Code.MATCH_WIN_NO_NONZERO: Code.MATCH_WIN_NO_NONZERO_YOU,
    Code.ROUND_WON_BLOCKED: Code.ROUND_WON_BLOCKED_YOU,
    Code.TUI_HAND_TITLE: Code.TUI_HAND_TITLE_YOU,
    Code.PLAIN_SEAT_HAND: Code.PLAIN_SEAT_HAND_YOU,
}
"""The wording of a message about the one player at the keyboard, to them: "You drew 6-4", never
"Seat 0 drew 6-4" (the verb agrees with "you" in every language)."""


def check_seat(kind: str) -> str:
    """``kind`` if it is ``human`` or names a bot (a difficulty level or a bot kind)."""
    if kind != HUMAN:
        try:
            check_bot(kind)
        except ValueError:
            choices = ", ".join(SEAT_KINDS)
            unknown = quoted_english(kind)
            raise ValueError(f"unknown seat kind {unknown} (choose from {choices} or a bot name)") from None
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
        self.choices: list[int] = self.chosen_plies()
        """Plies of the current round at which a human chose a move (undo goes back to the last); a
        match resumed in mid-round has them from its moves."""

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

    @property
    def you(self) -> int | None:
        """The seat of the one human at the keyboard, called "you" (``None`` with none or several)."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def addressed(self, said: Said) -> Said:
        """``said`` in the second person (:data:`YOU_WORDING`) when it is about :attr:`you` alone."""
        you = YOU_WORDING.get(said.code)
        if you is None or self.you is None:
            return said
        params = dict(said.params)
        if params.get("seat") == self.you or params.get("names") == (self.you,):
            return Said(you, said.params)
        return said

    def say(self, said: Said, names: Sequence[str] | None = None) -> str:
        """An engine's message in the session's language, to the player at the keyboard; seats by
        :meth:`name` (or ``names``)."""
        return say(self.addressed(said), self.lang, self.names() if names is None else names)

    def phrases(self, said: Said) -> list[str]:
        """:meth:`say` in phrases a narrow log may break between (:func:`chickenfoot.i18n.phrases`)."""
        return phrases(self.addressed(said), self.lang, self.names())

    def is_you(self, seat: int) -> bool:
        """The seat is the one human at the keyboard, called "you"."""
        return seat == self.you

    def seat_name(self, seat: int) -> str:
        """The seat's player, a person or a bot: "Player 2" (seats count from 1, as on the page)."""
        return self.t(Code.SEAT_DEFAULT, number=seat + 1)

    def name(self, seat: int) -> str:
        """The seat's player in a sentence about them: "Player 2", and the one at the keyboard "Player 1 (you)".

        A sentence about "you" alone has its own wording (:data:`YOU_WORDING`); in a list of
        players ("Player 1 (you) and Player 3 tied"), or anywhere else, a bare "you" would take a
        verb of the third person, which is wrong in every language but English.
        """
        name = self.seat_name(seat)
        return self.t(Code.NAME_YOU, name=name) if self.is_you(seat) else name

    def names(self) -> list[str]:
        return [self.name(seat) for seat in range(self.match.players)]

    def label(self, seat: int) -> str:
        """The seat's player in a table's cell: "You", or as :meth:`seat_name` calls them."""
        return self.t(Code.YOU) if self.is_you(seat) else self.seat_name(seat)

    def labels(self) -> list[str]:
        return [self.label(seat) for seat in range(self.match.players)]

    def kind_name(self, kind: str) -> str:
        """A bot's level or kind in words (``medium``), as the catalog has it."""
        try:
            return self.t(Code.parse(f"ui.bot.{kind}"))
        except ValueError:
            return kind

    def bot_kind(self, seat: int) -> str | None:
        """The level or kind of the seat's bot in words (``medium``), shown beside its name; ``None`` for a person."""
        kind = self.seats[seat]
        return None if kind == HUMAN else self.kind_name(kind)

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
        return [self.say(said) for _, said in self.last_events()]

    def last_events(self) -> list[tuple[Event, Said]]:
        """The last move's events (not the handing on of the turn) as messages, a drawn tile named
        only to the one human who plays alone."""
        return self.events_of(self.round)

    def events_of(self, round_: Round) -> list[tuple[Event, Said]]:
        said = []
        for event in round_.events_of_last():
            if event.kind == "turn":
                continue
            if event.kind == "draw" and not self.is_you(event.seat):
                event = dataclasses.replace(event, tile=None)
            said.append((event, event.said(self.match.round_number)))
        return said

    def round_log(self) -> list[tuple[Event | None, Said]]:
        """The round so far as its log: how it started, then every move's events (as :meth:`last_events`)."""
        start = Said.of(Code.EVENT_ROUND_START, round=self.match.round_number, tile=self.hub_name())
        moves: list[list[tuple[Event, Said]]] = []
        back = self.round.copy()
        while back.ply:
            moves.append(self.events_of(back))
            back.pop()
        return [(None, start), *(entry for events in reversed(moves) for entry in events)]

    def round_over_said(self) -> Said:
        """How the round ended: ``event.round_over.domino`` (to "you": ``domino_you``) or ``blocked``."""
        round_ = self.round
        number = self.match.round_number
        if round_.end_reason == "blocked":
            return Said.of(Code.EVENT_ROUND_OVER_BLOCKED, round=number)
        out = next(s for s in range(round_.players) if not round_.hands[s])
        return Said.of(Code.EVENT_ROUND_OVER_DOMINO, round=number, seat=out)

    def round_over_words(self) -> str:
        return self.say(self.round_over_said())

    def round_winner_said(self) -> Said | None:
        """Who won a blocked round: the fewest points left in hand (a round that went out says so already)."""
        round_ = self.round
        if round_.end_reason != "blocked":
            return None
        points = round_.points()
        fewest = min(points)
        winners = tuple(seat for seat, p in enumerate(points) if p == fewest)
        return Said.of(
            Code.ROUND_WON_BLOCKED,
            names=winners,
            count=len(winners),
            points=Said.of(Code.ROUND_POINTS, count=fewest),
        )

    def hub_name(self) -> str:
        """The hub of the round being played (``9-9``)."""
        double = self.round.start_double
        return f"{double}-{double}"

    def chosen_plies(self) -> list[int]:
        """Plies of the current round at which a human moved with a choice: every human move but the
        forced ones (:meth:`forced_move`), which the game makes for them."""
        back = self.round.copy()
        plies = []
        while back.ply:
            back.pop()
            if self.is_human(back.to_move) and back.forced_move() is None:
                plies.append(back.ply)
        return plies[::-1]

    def can_undo(self) -> bool:
        """Undo is for one human against bots, back to their last chosen move of this round."""
        return len(self.humans) == 1 and bool(self.choices) and not self.round.is_over()

    def undo(self) -> int:
        """Take back everything since the human's last chosen move; returns the moves taken back."""
        if not self.can_undo():
            raise ChickenfootError(self.t(Code.MOVE_NOTHING_TO_UNDO))
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
            failed = Said.of(Code.FILE_SAVE_FAILED, file=str(target), reason=file_problem(exc))
            raise ChickenfootError(say(failed, self.lang)) from None
        return target

    @classmethod
    def load(cls, path: str | Path, lang: str = "en") -> Session:
        """Resume the match saved in a file; raises :class:`PositionError` naming the file and the problem."""
        source = Path(path).expanduser()
        try:
            text = read_text(source)  # its other errors name the file already
        except UnreadableFile as exc:
            raise PositionError(unreadable(exc, lang)) from None
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

"""The plain line mode: moves in the notation of docs/rules.md §7 on standard input, the position as text.

No colour and no cursor movement, so it works through a pipe and with a screen reader. Bad input
gets one line starting ``error:`` and the prompt again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from chickenfoot.bots import hint
from chickenfoot.errors import ChickenfootError, NotationError, quoted
from chickenfoot.layout import Phase
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.tui.board import board_text
from chickenfoot.tui.howto import howto_text
from chickenfoot.tui.session import Session
from chickenfoot.view import SeatView


def tiles_line(session: Session, tiles: tuple[object, ...]) -> str:
    return " ".join(str(t) for t in tiles) or session.t(Code.PLAIN_NONE)


def entries(session: Session, values: Sequence[int]) -> str:
    """A number for each seat, as the catalog words one ("You (7), Player 2 (9)")."""
    return ", ".join(session.t(Code.PLAIN_ENTRY, name=session.label(s), value=v) for s, v in enumerate(values))


def open_ends_text(session: Session, view: SeatView) -> str:
    """What is open on the table: the hub's missing arms, the open chicken foot, or the open ends."""
    if not view.open_ends:
        return session.t(Code.OPEN_NONE)
    if view.phase in (Phase.HUB, Phase.FOOT):
        target, number = view.open_ends[0]
        on_it = sum(1 for _, on in view.layout if on == target)
        if view.phase == Phase.HUB:
            return session.t(Code.OPEN_HUB, tile=target, count=view.rules.hub_arms - on_it, number=number)
        return session.t(Code.OPEN_FOOT, tile=target, count=view.rules.toes - on_it, number=number)
    ends = ", ".join(session.t(Code.OPEN_END, number=number, tile=target) for target, number in view.open_ends)
    return session.t(Code.OPEN_ENDS, ends=ends)


def position_text(session: Session, seat: int) -> str:
    """What the seat to move needs to know, in lines of plain text."""
    view = session.view(seat)
    match = session.match
    t = session.t
    counts = entries(session, view.hand_sizes)
    status = t(
        Code.ROUND_STATUS,
        round=match.round_number,
        rounds=match.rules.round_count,
        tile=session.hub_name(),
        count=view.boneyard_size,
    )
    hand = session.say(Said.of(Code.PLAIN_SEAT_HAND, seat=seat, tiles=tiles_line(session, view.hand)))
    if view.drawn:
        hand += f" ({t(Code.MOVE_DREW_PLAYABLE, tile=view.drawn)})"
    lines = [
        f"== {status} ==",
        board_text(view, session.lang),
        open_ends_text(session, view),
        t(Code.PLAIN_TILES_IN_HAND, counts=counts),
        hand,
        legal_text(session, view),
    ]
    return "\n".join(lines)


def legal_text(session: Session, view: SeatView) -> str:
    return session.t(Code.PLAIN_LEGAL, moves=" ".join(str(m) for m in view.legal_moves))


def round_end_text(session: Session) -> str:
    match = session.match
    view = session.view(None)
    t = session.t
    hands = view.revealed_hands or ()
    points = view.points or ()
    lines = [f"== {session.round_over_words()} =="]
    round_winner = session.round_winner_said()
    if round_winner is not None:
        lines.append(session.say(round_winner))
    for seat, hand in enumerate(hands):
        scored = t(Code.ROUND_POINTS, count=points[seat])
        lines.append(
            t(Code.PLAIN_ROUND_HAND, player=session.label(seat), points=scored, tiles=tiles_line(session, hand))
        )
    lines.append(t(Code.PLAIN_TOTALS, totals=entries(session, match.totals())))
    if match.is_over():
        lines.append(f"== {t(Code.MATCH_OVER)} ==")
        for row in match.standings():
            lines.append(f"{row.rank}. {session.label(row.seat)}: {row.total}")
        lines.append(session.say(match.winner_reason()))
    return "\n".join(lines)


class PlainGame:
    """Plays a session on text streams until the match ends or the input does."""

    def __init__(self, session: Session, stdin: TextIO, stdout: TextIO) -> None:
        self.session = session
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def run(self) -> bool:
        """Play on; returns ``False`` if the input ended (or ``quit``) before the match was over."""
        session = self.session
        while True:
            round_ = session.round
            if round_.is_over():
                self.say(round_end_text(session))
                if session.match.is_over():
                    return True
                session.next_round()
                continue
            seat = round_.to_move
            forced = session.forced_move()
            if not session.is_human(seat):
                self.log(session.play(session.bot_move()))
            elif forced is not None:
                self.log(session.play(forced))
            elif not self.human_turn(seat):
                return False

    def log(self, lines: list[str]) -> None:
        for line in lines:
            self.say(f"* {line}")

    def human_turn(self, seat: int) -> bool:
        """Read commands until the seat moves; ``False`` when the input ends or the player quits."""
        self.say(position_text(self.session, seat))
        while True:
            self.stdout.write(self.prompt(seat))
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\n" + self.session.t(Code.PLAIN_INPUT_ENDED))
                return False
            command = line.strip()
            if not command:
                continue
            word, _, rest = command.partition(" ")
            try:
                if word == "quit":
                    self.say(self.session.t(Code.PLAIN_BYE))
                    return False
                if self.command(word, rest.strip(), seat):
                    return True
            except ChickenfootError as exc:
                self.say(self.session.t(Code.PLAIN_ERROR, message=exc))

    def prompt(self, seat: int) -> str:
        """ "Your turn> ", or with several players at the keyboard "Player 2 to play> "."""
        return self.session.say(Said.of(Code.EVENT_TURN, seat=seat)) + "> "

    def command(self, word: str, rest: str, seat: int) -> bool:
        """Carry out one command; ``True`` once a move was made."""
        session = self.session
        view = session.view(seat)
        if word == "help":
            self.say(session.t(Code.PLAIN_HELP))
        elif word == "howto":
            self.say(howto_text(session.lang))
        elif word == "moves":
            self.say(legal_text(session, view))
        elif word == "board":
            self.say(position_text(session, seat))
        elif word == "hint":
            advice = hint(view)
            self.say(session.t(Code.HINT, move=session.say(advice.move.advice()), reason=session.say(advice.why)))
        elif word == "save":
            if not rest:
                raise ChickenfootError(session.t(Code.PLAIN_SAVE_NEEDS_FILE))
            self.say(session.t(Code.TUI_SAVED, path=session.save(rest)))
        elif word == "undo":
            count = session.undo()
            self.say(session.t(Code.MOVE_UNDONE, count=count))
            return True
        else:
            typed = word if not rest else f"{word} {rest}"
            try:
                move = Move.parse(typed)
            except NotationError:
                raise ChickenfootError(session.t(Code.NOTATION_BAD_MOVE, text=quoted(typed))) from None
            if move not in view.legal_moves:
                reason = session.say(session.round.illegal_reason(move))
                raise ChickenfootError(session.t(Code.ILLEGAL_MOVE, move=typed, reason=reason))
            self.log(session.play(move, chosen=True))
            return True
        return False

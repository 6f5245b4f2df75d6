"""The plain line mode: moves in RULES.md notation on standard input, the position as text.

No colour and no cursor movement, so it works through a pipe and with a screen reader. Bad input
gets one line starting ``error:`` and the prompt again.
"""

from __future__ import annotations

from typing import TextIO

from chickenfoot.bots import hint
from chickenfoot.errors import ChickenfootError
from chickenfoot.layout import Phase
from chickenfoot.move import Move
from chickenfoot.tui.board import board_text
from chickenfoot.tui.session import Session
from chickenfoot.view import SeatView

HELP = (
    "Type a move (9-4@9-9, 9-9, draw, pass), or: moves, board, hint, undo, save FILE, help, quit. "
    "TILE@TARGET puts TILE on the open end of TARGET."
)


def tiles_line(tiles: tuple[object, ...]) -> str:
    return " ".join(str(t) for t in tiles) or "(none)"


def open_ends_text(view: SeatView) -> str:
    if not view.open_ends:
        return "Open ends: none yet."
    if view.phase == Phase.HUB:
        target, number = view.open_ends[0]
        missing = view.rules.hub_arms - sum(1 for _, on in view.layout if on == target)
        return f"Open: the hub {target} needs {missing} more arm{'s' if missing > 1 else ''} carrying {number}."
    if view.phase == Phase.FOOT:
        target, number = view.open_ends[0]
        return f"Open: only the chicken foot on {target}, toes carrying {number}."
    return "Open ends: " + ", ".join(f"{number} on {target}" for target, number in view.open_ends) + "."


def position_text(session: Session, seat: int) -> str:
    """What the seat to move needs to know, in lines of plain text."""
    view = session.view(seat)
    match = session.match
    counts = ", ".join(f"{session.name(s)} {n}" for s, n in enumerate(view.hand_sizes))
    lines = [
        f"== Round {match.round_number} of {match.rules.round_count}, hub {view.start_double}-{view.start_double}, "
        f"boneyard {view.boneyard_size} ==",
        board_text(view),
        open_ends_text(view),
        f"Tiles in hand: {counts}.",
        f"Seat {seat} hand: {tiles_line(view.hand)}" + (f" (drew {view.drawn}: play it or pass)" if view.drawn else ""),
        f"Legal moves: {' '.join(str(m) for m in view.legal_moves)}",
    ]
    return "\n".join(lines)


def round_end_text(session: Session) -> str:
    match = session.match
    view = session.view(None)
    hands = view.revealed_hands or ()
    points = view.points or ()
    lines = [f"== Round {match.round_number} over: {session.end_words()} =="]
    for seat, hand in enumerate(hands):
        lines.append(f"{session.label(seat)}: {points[seat]} points, hand {tiles_line(hand)}")
    lines.append("Totals: " + ", ".join(f"{session.name(s)} {t}" for s, t in enumerate(match.totals())) + ".")
    if match.is_over():
        lines.append("== Match over ==")
        for row in match.standings():
            lines.append(f"{row.rank}. {session.label(row.seat)}: {row.total}")
        lines.append(match.explain_winner()[0].upper() + match.explain_winner()[1:] + ".")
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
            self.stdout.write(f"seat {seat}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\nInput ended; the match is not finished (use save FILE to keep it).")
                return False
            command = line.strip()
            if not command:
                continue
            word, _, rest = command.partition(" ")
            try:
                if word == "quit":
                    self.say("Bye.")
                    return False
                if self.command(word, rest.strip(), seat):
                    return True
            except ChickenfootError as exc:
                self.say(f"error: {exc}")

    def command(self, word: str, rest: str, seat: int) -> bool:
        """Carry out one command; ``True`` once a move was made."""
        session = self.session
        view = session.view(seat)
        if word == "help":
            self.say(HELP)
        elif word == "moves":
            self.say(f"Legal moves: {' '.join(str(m) for m in view.legal_moves)}")
        elif word == "board":
            self.say(position_text(session, seat))
        elif word == "hint":
            advice = hint(view)
            self.say(f"Hint: {advice.move} ({advice.reason})")
        elif word == "save":
            if not rest:
                raise ChickenfootError("save needs a file name: save FILE")
            self.say(f"Saved to {session.save(rest)}.")
        elif word == "undo":
            count = session.undo()
            self.say(f"Took back {count} move{'s' if count > 1 else ''}.")
            return True
        else:
            typed = word if not rest else f"{word} {rest}"
            move = Move.parse(typed)
            if move not in view.legal_moves:
                raise ChickenfootError(f"illegal move {typed}: {session.round.why_illegal(move)}")
            self.log(session.play(move, chosen=True))
            return True
        return False

"""The end of a round and of the match: every hand and its points, the scoreboard."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from chickenfoot.messages import Code, Said
from chickenfoot.tui.keys import KeyBar, translated
from chickenfoot.tui.screens.quit import ask_quit
from chickenfoot.tui.screens.save import offer_save
from chickenfoot.tui.session import Session


def labelled(session: Session, seat: int) -> Text:
    """The seat's player in a table's cell ("Player 2"), a bot's level beside it in grey."""
    label = Text(session.label(seat))
    kind = session.bot_kind(seat)
    if kind is not None:
        label.append(f" {kind}", "grey62")
    return label


class RoundEnd(Screen[None]):
    """Every hand and its points, the scoreboard and, at the end, the winner."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "next", "Next round"),
        Binding("s", "save", "Save"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        keys = {"next": Code.TABLE_NEXT_ROUND, "save": Code.TUI_KEY_SAVE, "quit": Code.TUI_QUIT}
        translated(self, session.lang, keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No next round once the match is over (the footer drops the key)."""
        return not (action == "next" and self.session.match.is_over())

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="round-end"):
            yield Static(self.summary())
        yield KeyBar()

    def summary(self) -> RenderableType:
        session, match = self.session, self.session.match
        view = session.view(None)
        t = session.t
        title = Text(session.round_over_words(), style="bold yellow")
        hands = Table(title=t(Code.TUI_HANDS), title_justify="left", expand=False, box=None, padding=(0, 1))
        hands.add_column(t(Code.PLAYER))
        hands.add_column(t(Code.TUI_TILES_LEFT))
        hands.add_column(t(Code.POINTS), justify="right")
        for seat, hand in enumerate(view.revealed_hands or ()):
            points = (view.points or ())[seat]
            tiles = " ".join(str(t) for t in hand) or t(Code.ROUND_OUT)
            hands.add_row(labelled(session, seat), tiles, str(points), style="bold green" if not hand else "")
        board = Table(title=t(Code.SCORES), title_justify="left", box=None, padding=(0, 1))
        board.add_column(t(Code.PLAYER))
        for k, _ in enumerate(match.round_points):
            board.add_column(t(Code.ROUND_SHORT, round=k + 1), justify="right")
        board.add_column(t(Code.TOTAL), justify="right", style="bold")
        totals = match.totals()
        for seat in range(match.players):
            board.add_row(labelled(session, seat), *(str(p[seat]) for p in match.round_points), str(totals[seat]))
        parts: list[RenderableType] = [title]
        round_winner = session.round_winner_said()
        if round_winner is not None:
            parts.append(Text(session.say(round_winner), style="bold"))
        parts += [Text(""), hands, Text(""), board, Text("")]
        if match.is_over():
            winners = tuple(match.winners())
            won = session.say(Said.of(Code.EVENT_MATCH_OVER, names=winners, count=len(winners)))
            parts.append(Text(won, style="bold yellow"))
            parts.append(Text(session.say(match.winner_reason()), style="italic"))
            parts.append(Text(t(Code.TUI_PRESS_QUIT), style="grey62"))
        else:
            parts.append(Text(t(Code.TUI_PRESS_NEXT), style="grey62"))
        return Group(*parts)

    def action_next(self) -> None:
        if not self.session.match.is_over():
            self.dismiss(None)

    def action_save(self) -> None:
        offer_save(self, self.session)

    def action_quit(self) -> None:
        ask_quit(self, self.session)

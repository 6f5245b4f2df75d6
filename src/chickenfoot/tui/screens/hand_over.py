"""Hot-seat: the screen covered between two players."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Center
from textual.screen import ModalScreen
from textual.widgets import Static

from chickenfoot.i18n import render
from chickenfoot.messages import Code


class HandOver(ModalScreen[None]):
    """Hot-seat: the screen is covered until the next player is at the keyboard."""

    def __init__(self, seat: int, player: str, lang: str) -> None:
        super().__init__()
        self.seat = seat
        self.player = player
        """The seat's player, as the game names them ("Player 2")."""
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Center(id="handover"):
            yield Static(
                Text.assemble(
                    (render(Code.EVENT_TURN, self.lang, name=self.player) + "\n\n", "bold yellow"),
                    render(Code.TUI_HANDOVER, self.lang, name=self.player),
                ),
                id="handover-text",
            )

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)

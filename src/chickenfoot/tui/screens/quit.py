"""Quitting: a match in progress asks first whether to save it."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.tui.keys import KeyBar, translated
from chickenfoot.tui.screens.save import offer_save
from chickenfoot.tui.session import Session


class QuitPrompt(ModalScreen[str]):
    """Quitting a match in progress: save it first (``save``), quit (``quit``), or play on (``stay``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,y", "answer('save')", "Save and quit"),
        Binding("n,q", "answer('quit')", "Quit without saving"),
        Binding("escape", "answer('stay')", "Keep playing"),
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        translated(
            self,
            lang,
            {
                "answer('save')": Code.TUI_SAVE_AND_QUIT,
                "answer('quit')": Code.TUI_QUIT_WITHOUT_SAVING,
                "answer('stay')": Code.TUI_KEEP_PLAYING,
            },
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-box"):
            yield Label(render(Code.TUI_QUIT_QUESTION, self.lang))
            with Horizontal(id="quit-buttons"):
                yield Button(render(Code.TUI_SAVE_AND_QUIT, self.lang), variant="primary", id="save")
                yield Button(render(Code.TUI_QUIT_WITHOUT_SAVING, self.lang), variant="error", id="quit")
                yield Button(render(Code.TUI_KEEP_PLAYING, self.lang), id="stay")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


def ask_quit(screen: Screen[Any], session: Session) -> None:
    """Quit; a match in progress asks first whether to save it."""
    if session.match.is_over():
        screen.app.exit()
        return

    def answered(answer: str | None) -> None:
        if answer == "save":
            offer_save(screen, session, screen.app.exit)
        elif answer == "quit":
            screen.app.exit()

    screen.app.push_screen(QuitPrompt(session.lang), answered)

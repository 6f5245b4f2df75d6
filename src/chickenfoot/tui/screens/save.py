"""Saving the match to a file."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label

from chickenfoot.errors import ChickenfootError
from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.tui.keys import translated
from chickenfoot.tui.session import Session

DEFAULT_SAVE = "chickenfoot-match.json"


class SavePrompt(ModalScreen[str | None]):
    """Asks for the file to save the match to."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        translated(self, lang, {"cancel": Code.TUI_CANCEL})

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box"):
            yield Label(render(Code.TUI_SAVE_PROMPT, self.lang))
            yield Input(DEFAULT_SAVE, id="save-path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def offer_save(screen: Screen[Any], session: Session, then: Callable[[], object] | None = None) -> None:
    """Ask for a file and save the match there; ``then`` runs once it is saved."""

    def save_to(path: str | None) -> None:
        if path is None:
            return
        try:
            saved = session.save(path)
        except ChickenfootError as exc:
            screen.notify(str(exc), severity="error")
            return
        screen.notify(session.t(Code.TUI_SAVED, path=saved))
        if then is not None:
            then()

    screen.app.push_screen(SavePrompt(session.lang), save_to)

"""How to play, over the game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from chickenfoot.messages import Code
from chickenfoot.tui.howto import howto_text
from chickenfoot.tui.keys import KeyBar, translated


class HowTo(ModalScreen[None]):
    """How to play (:func:`~chickenfoot.tui.howto.howto_text`), scrolling, over the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "Back")]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        translated(self, lang, {"close": Code.BACK})

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="howto"):
            yield Static(Text(howto_text(self.lang, max(40, self.app.size.width - 10))))
        yield KeyBar()

    def action_close(self) -> None:
        self.dismiss(None)

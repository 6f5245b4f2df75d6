"""The terminal game (Textual): the app, which opens the start screen and the game it starts.

The screens (:mod:`chickenfoot.tui.screens`) only draw what the session says: legal moves come from
the seat's view, and every move goes through :class:`~chickenfoot.tui.session.Session`.
"""

from __future__ import annotations

from textual.app import App

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.quit import QuitPrompt, ask_quit
from chickenfoot.tui.screens.round_end import RoundEnd
from chickenfoot.tui.screens.start import StartOptions, StartScreen
from chickenfoot.tui.session import Session
from chickenfoot.tui.styles import STYLESHEET


class ChickenFootApp(App[None]):
    """``pace``: seconds at least between moves others make (0 in tests)."""

    TITLE = "Chicken Foot"
    CSS = STYLESHEET
    ENABLE_COMMAND_PALETTE = False
    """Textual's command palette speaks only English; every key of the game is on the key bar."""

    def __init__(
        self,
        options: StartOptions | None = None,
        *,
        session: Session | None = None,
        pace: float = 0.4,
    ) -> None:
        super().__init__()
        self.options = options or StartOptions()
        self.session = session
        self.pace = pace
        self.title = render(Code.GAME_NAME, session.lang if session is not None else self.options.lang)

    async def action_quit(self) -> None:
        """Ctrl+Q asks, as ``q`` does, whether to save a match in progress (even from a dialog over it)."""
        if isinstance(self.screen, QuitPrompt):
            return  # already asking
        game = next((s for s in reversed(self.screen_stack) if isinstance(s, GameScreen | RoundEnd)), None)
        if game is None:
            self.exit()
        else:
            ask_quit(self.screen, game.session)

    def action_help_quit(self) -> None:
        """Ctrl+C (outside a text box, where it copies) quits as Ctrl+Q does, in place of Textual's
        notice in English about which key quits."""
        self.call_next(self.action_quit)

    def on_mount(self) -> None:
        self.push_screen(StartScreen(self.options))
        if self.session is not None:
            self.play(self.session)

    def on_start_screen_chosen(self, message: StartScreen.Chosen) -> None:
        self.play(message.session)

    def play(self, session: Session) -> None:
        self.push_screen(GameScreen(session, pace=self.pace))

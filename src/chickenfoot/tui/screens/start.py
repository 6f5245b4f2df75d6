"""The start screen: rules, seats and seed for a new match, or a saved match to resume."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from chickenfoot.bots import DEFAULT_LEVEL
from chickenfoot.errors import ChickenfootError, PositionError, quoted
from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.reading import parse_whole_number
from chickenfoot.rules import MAX_PLAYERS, PRESETS, Rules
from chickenfoot.tui.keys import KeyBar, translated
from chickenfoot.tui.session import HUMAN, SEAT_KINDS, Session


@dataclass
class StartOptions:
    """What the start screen shows first (from the command line)."""

    seed: int | None = None
    players: int = 4
    preset: str = "classic"
    rounds: int | None = None
    seats: list[str] = field(default_factory=lambda: [HUMAN])
    lang: str = "en"


def seat_kinds(seats: list[str], players: int) -> list[str]:
    return [seats[s] if s < len(seats) else (HUMAN if s == 0 else DEFAULT_LEVEL) for s in range(players)]


class StartScreen(Screen[None]):
    """Rules, seats and seed for a new match, or a saved match to resume; says which in :class:`Chosen`."""

    class Chosen(Message):
        """The match to play: a new one or one resumed."""

        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "Start"), Binding("escape", "app.quit", "Quit")]

    def __init__(self, options: StartOptions) -> None:
        super().__init__()
        self.options = options
        self.lang = options.lang
        translated(self, self.lang, {"start": Code.TUI_START, "app.quit": Code.TUI_QUIT})

    def t(self, code: Code, /, **params: object) -> str:
        return render(code, self.lang, **params)

    def kind_label(self, kind: str) -> str:
        """``human`` or the bot's level (``medium``): short enough for the seat's box in every language."""
        if kind == HUMAN:
            return self.t(Code.HUMAN)
        try:
            return self.t(Code.parse(f"ui.bot.{kind}"))
        except ValueError:
            return f"{self.t(Code.BOT)} {kind}"

    def compose(self) -> ComposeResult:
        opts, t = self.options, self.t
        kinds = seat_kinds(opts.seats, MAX_PLAYERS)
        # The levels on offer, and any other bot the command line named.
        offered = [*SEAT_KINDS, *sorted(set(kinds) - set(SEAT_KINDS))]
        options = [(self.kind_label(kind), kind) for kind in offered]
        with VerticalScroll(id="start"):
            yield Static(Text(t(Code.GAME_NAME), style="bold yellow"), id="title")
            with Grid(id="settings"):
                yield Label(t(Code.RULES))
                yield Label(t(Code.TUI_SEATS))
                yield Label(t(Code.ROUNDS))
                yield Label(t(Code.TUI_SEED))
                yield Select(
                    [(t(Code.parse(f"preset.{name}")), name) for name in PRESETS],
                    value=opts.preset,
                    allow_blank=False,
                    id="preset",
                )
                yield Select(
                    [(str(n), n) for n in range(2, MAX_PLAYERS + 1)],
                    value=min(max(opts.players, 2), MAX_PLAYERS),
                    allow_blank=False,
                    id="seat-count",
                )
                yield Input(str(opts.rounds or ""), placeholder=t(Code.ROUNDS_ALL), id="rounds")
                yield Input("" if opts.seed is None else str(opts.seed), placeholder=t(Code.TUI_SEED_RANDOM), id="seed")
            with Grid(id="seats"):
                for seat in range(MAX_PLAYERS):
                    with Vertical(classes="seat", id=f"seat-box-{seat}"):
                        yield Label(t(Code.SEAT, seat=seat + 1))
                        yield Select(options, value=kinds[seat], allow_blank=False, id=f"seat-{seat}")
            with Horizontal(id="start-buttons"):
                yield Button(t(Code.TUI_START_MATCH), variant="success", id="start-button")
                yield Input(placeholder=t(Code.TUI_SAVED_FILE), id="resume-path")
                yield Button(t(Code.TUI_RESUME), id="resume-button")
            yield Static("", id="start-error")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_seats()
        self.query_one("#start-button", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "seat-count":
            self.show_seats()

    def players(self) -> int:
        value = self.query_one("#seat-count", Select).value
        return value if isinstance(value, int) else 4

    def show_seats(self) -> None:
        for seat in range(MAX_PLAYERS):
            self.query_one(f"#seat-box-{seat}").display = seat < self.players()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()
        elif event.button.id == "resume-button":
            self.resume()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "resume-path":
            self.resume()
        else:
            self.action_start()

    def error(self, message: str) -> None:
        self.query_one("#start-error", Static).update(Text(message, style="bold red"))

    def whole_number(self, widget_id: str, field: Code) -> int | None:
        """The number typed in a box (``None`` if empty); anything else is an error naming the box."""
        text = self.query_one(widget_id, Input).value.strip()
        if not text:
            return None
        try:
            return parse_whole_number(text, "")
        except PositionError:
            raise ChickenfootError(self.t(Code.TUI_WHOLE_NUMBER, field=self.t(field), text=quoted(text))) from None

    def action_start(self) -> None:
        try:
            preset = self.query_one("#preset", Select).value
            rules = Rules.preset(preset if isinstance(preset, str) else "classic")
            rounds = self.whole_number("#rounds", Code.ROUNDS)
            if rounds is not None:
                rules = rules.replace(rounds=rounds)
            seed = self.whole_number("#seed", Code.TUI_SEED)
            kinds = [str(self.query_one(f"#seat-{s}", Select).value) for s in range(self.players())]
            session = Session.new(rules, kinds, seed, lang=self.lang)
        except (ChickenfootError, ValueError) as exc:
            self.error(str(exc))
            return
        self.post_message(self.Chosen(session))

    def resume(self) -> None:
        path = self.query_one("#resume-path", Input).value.strip()
        if not path:
            self.error(self.t(Code.TUI_RESUME_NEEDS_FILE))
            return
        try:
            session = Session.load(path, lang=self.lang)
        except ChickenfootError as exc:
            self.error(str(exc))
            return
        self.post_message(self.Chosen(session))

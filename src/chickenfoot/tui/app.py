"""The terminal game (Textual): start screen, board, hand, bots, hot-seat, round end and saving.

The screens only draw what the session says: legal moves come from the seat's view, and every
move goes through :class:`~chickenfoot.tui.session.Session`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Grid, Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.geometry import Region, Spacing
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from chickenfoot.bots import DEFAULT_LEVEL, Hint, hint
from chickenfoot.errors import ChickenfootError, PositionError, shown
from chickenfoot.i18n import render
from chickenfoot.layout import Phase
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.reading import parse_whole_number
from chickenfoot.round import Event
from chickenfoot.rules import MAX_PLAYERS, PRESETS, Rules
from chickenfoot.tiles import Tile
from chickenfoot.tui.board import Line, Role, board_lines
from chickenfoot.tui.howto import howto_text
from chickenfoot.tui.log import GameLog
from chickenfoot.tui.session import HUMAN, SEAT_KINDS, Session
from chickenfoot.view import SeatView

DEFAULT_SAVE = "chickenfoot-match.json"
DIALOG_WAIT = 0.1
"""Seconds between looks at whether a dialog over the game has closed (a bot's move waits for it)."""

STYLES: dict[Role, Style] = {
    "tile": Style(color="bright_white"),
    "hub": Style(color="magenta", bold=True),
    "double": Style(color="yellow", bold=True),
    "line": Style(color="grey50"),
    "open": Style(color="green", bold=True),
    "target": Style(color="black", bgcolor="green", bold=True),
    "chosen": Style(color="black", bgcolor="yellow", bold=True),
    "note": Style(color="grey62", italic=True),
}


def styled_board(view: SeatView, lang: str = "en") -> Text:
    """The layout in colour."""
    return styled_lines(board_lines(view, lang=lang))


def styled_lines(lines: list[Line], clickable: bool = False) -> Text:
    """Drawn lines of the layout in colour; with ``clickable``, a click on a target plays there."""
    text = Text(no_wrap=True, end="")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        for seg in line:
            style = STYLES[seg.role]
            if clickable and seg.role in ("target", "chosen") and seg.tile is not None:
                style += Style(meta={"@click": f"screen.play_on({seg.tile.id})"})
            text.append(seg.text, style)
    return text


def chosen_region(lines: list[Line]) -> Region | None:
    """Where the chosen target is drawn (its tile and its open end), in the board's cells."""
    found: Region | None = None
    for y, line in enumerate(lines):
        x = 0
        for seg in line:
            size = cell_len(seg.text)
            if seg.role == "chosen":
                here = Region(x, y, size, 1)
                found = here if found is None else found.union(here)
            x += size
    return found


BOARD_MARGIN = Spacing(1, 2, 1, 2)
"""What is kept in sight around the chosen target when the board scrolls to it."""


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


# --- the start screen -----------------------------------------------------------------------


def translated(node: DOMNode, lang: str, descriptions: Mapping[str, Code]) -> None:
    """Word the keys the footer shows in ``lang``: Textual keeps a screen's (or app's) bindings per instance."""
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [
            dataclasses.replace(b, description=render(descriptions[b.action], lang)) if b.action in descriptions else b
            for b in bindings
        ]


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
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class StartScreen(Screen[None]):
    """Rules, seats and seed for a new match, or a saved match to resume."""

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
                        yield Label(t(Code.SEAT, seat=seat))
                        yield Select(options, value=kinds[seat], allow_blank=False, id=f"seat-{seat}")
            with Horizontal(id="start-buttons"):
                yield Button(t(Code.TUI_START_MATCH), variant="success", id="start-button")
                yield Input(placeholder=t(Code.TUI_SAVED_FILE), id="resume-path")
                yield Button(t(Code.TUI_RESUME), id="resume-button")
            yield Static("", id="start-error")
        yield Footer()

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
            raise ChickenfootError(self.t(Code.TUI_WHOLE_NUMBER, field=self.t(field), text=shown(text))) from None

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
        self.app.push_screen(GameScreen(session))

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
        self.app.push_screen(GameScreen(session))


# --- small dialogs --------------------------------------------------------------------------


class HandOver(ModalScreen[None]):
    """Hot-seat: the screen is covered until the next player is at the keyboard."""

    def __init__(self, seat: int, lang: str) -> None:
        super().__init__()
        self.seat = seat
        self.lang = lang

    def compose(self) -> ComposeResult:
        name = render(Code.SEAT, self.lang, seat=self.seat)
        with Center(id="handover"):
            yield Static(
                Text.assemble(
                    (render(Code.EVENT_TURN, self.lang, name=name) + "\n\n", "bold yellow"),
                    render(Code.TUI_HANDOVER, self.lang, seat=self.seat),
                ),
                id="handover-text",
            )

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


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
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


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


# --- the game -------------------------------------------------------------------------------


def tile_label(tile: Tile) -> str:
    return f"{tile.high}|{tile.low}"


class GameScreen(Screen[None]):
    """The board, the hand of the seat at the keyboard, the players and the log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "pick(-1)", "Tile", show=False),
        Binding("right", "pick(1)", "Tile ←→"),
        Binding("up", "aim(-1)", "Target", show=False),
        Binding("down", "aim(1)", "Target ↑↓"),
        Binding("enter,space", "play", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save"),
        Binding("question_mark,f1", "howto", "How to play"),
        Binding("q", "quit", "Quit"),
        # Look around a board larger than the screen (choosing a target scrolls to it as well).
        Binding("pageup", "scroll_board(0, -1)", show=False),
        Binding("pagedown", "scroll_board(0, 1)", show=False),
        Binding("shift+left", "scroll_board(-1, 0)", show=False),
        Binding("shift+right", "scroll_board(1, 0)", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        translated(
            self,
            session.lang,
            {
                "pick(1)": Code.TUI_KEY_TILE,
                "aim(1)": Code.TUI_KEY_TARGET,
                "play": Code.TUI_KEY_PLAY,
                "draw": Code.DRAW,
                "pass": Code.PASS,
                "hint": Code.TUI_KEY_HINT,
                "undo": Code.TUI_KEY_UNDO,
                "save": Code.TUI_KEY_SAVE,
                "howto": Code.HOW_TO_PLAY,
                "quit": Code.TUI_QUIT,
            },
        )
        self.viewer: int | None = None if session.hot_seat else session.humans[0] if session.humans else None
        """The seat whose hand is shown (``None``: hidden, between hot-seat players)."""
        self.busy = False
        """A bot or a forced move is under way: the keys wait."""
        self.generation = 0
        """Bumped when the game jumps (undo): a late bot answer for an older position is dropped."""
        self.selected = 0
        self.aimed = 0
        self.message = Text("")

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with ScrollableContainer(id="board-box", can_focus=False):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield GameLog(id="log")
        yield Static(id="announce")
        yield Static(id="hand")
        yield Static(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        self.write_log()
        self.advance()

    # --- what is shown ----------------------------------------------------------------------

    @property
    def pace(self) -> float:
        return self.app.pace if isinstance(self.app, ChickenFootApp) else 0.0

    def t(self, code: Code, /, **params: object) -> str:
        return self.session.t(code, **params)

    def write_log(self) -> None:
        """The round so far, from the match record: a resumed match shows its log too."""
        self.query_one(GameLog).reset()
        for event, said in self.session.round_log():
            self.log_event(said, event)

    def log_event(self, said: Said, event: Event | None = None) -> None:
        foot = event is not None and event.kind == "chicken_foot"
        self.query_one(GameLog).add(self.session.phrases(said), "bold yellow" if foot else "")

    def shown_view(self) -> SeatView:
        return self.session.view(self.viewer)

    def my_turn(self) -> bool:
        round_ = self.session.round
        return not self.busy and not round_.is_over() and round_.to_move == self.viewer

    def hand(self) -> tuple[Tile, ...]:
        return self.shown_view().hand

    def selected_tile(self) -> Tile | None:
        hand = self.hand()
        return hand[self.selected % len(hand)] if hand else None

    def moves_of_selected(self) -> list[Move]:
        tile = self.selected_tile()
        if tile is None or not self.my_turn():
            return []
        return [m for m in self.shown_view().legal_moves if m.tile == tile]

    def aimed_move(self) -> Move | None:
        moves = self.moves_of_selected()
        return moves[self.aimed % len(moves)] if moves else None

    def refresh_all(self) -> None:
        session, round_ = self.session, self.session.round
        view = self.shown_view()
        match = session.match
        if round_.is_over():
            turn = self.t(Code.ROUND_OVER, round=match.round_number)
        else:
            turn = session.say(Said.of(Code.EVENT_TURN, seat=round_.to_move))
        status = self.t(
            Code.ROUND_STATUS,
            round=match.round_number,
            rounds=match.rules.round_count,
            tile=session.hub_name(),
            count=view.boneyard_size,
        )
        self.query_one("#status", Static).update(
            Text.assemble(
                (f" {self.t(Code.GAME_NAME)} ", "bold black on yellow"),
                f"  {status}  ·  ",
                (turn, "bold green" if self.my_turn() else "bold"),
            )
        )
        self.draw_board(view)
        self.draw_players(view)
        self.draw_hand(view)
        self.draw_actions(view)
        self.query_one("#announce", Static).update(self.message)

    def draw_board(self, view: SeatView) -> None:
        moves = self.moves_of_selected()
        aimed = self.aimed_move()
        targets = [m.target for m in moves if m.target is not None]
        chosen = aimed.target if aimed is not None else None
        lines = board_lines(view, targets, chosen, self.session.lang)
        self.query_one("#board", Static).update(styled_lines(lines, clickable=True))
        region = chosen_region(lines)
        if region is not None:
            # After the refresh: the board's new size bounds the scrolling.
            self.call_after_refresh(self.show_on_board, region)

    def action_scroll_board(self, across: int, down: int) -> None:
        """Scroll the board by most of a screen."""
        box = self.query_one("#board-box", ScrollableContainer)
        window = box.scrollable_content_region
        box.scroll_relative(across * max(1, window.width - 4), down * max(1, window.height - 2), animate=False)

    def show_on_board(self, region: Region) -> None:
        """Scroll the board (however large) so that the chosen target is in sight."""
        box = self.query_one("#board-box", ScrollableContainer)
        box.scroll_to_region(region, spacing=BOARD_MARGIN, animate=False, immediate=True)

    def draw_players(self, view: SeatView) -> None:
        session = self.session
        table = Table(box=None, padding=(0, 0, 0, 1), header_style="grey62", pad_edge=False)
        table.add_column("", width=1)
        table.add_column(self.t(Code.PLAYER), no_wrap=True, overflow="ellipsis", max_width=14)
        table.add_column(self.t(Code.TUI_COLUMN_TILES), justify="right")
        table.add_column(self.t(Code.TUI_COLUMN_POINTS), justify="right")
        totals = session.match.totals()
        for seat, count in enumerate(view.hand_sizes):
            mark = "▶" if seat == view.to_move and not view.is_over else ""
            kind = session.seats[seat]
            name = Text(session.name(seat))
            if kind != HUMAN:
                name.append(f" {session.kind_name(kind)}", "grey62")
            table.add_row(mark, name, str(count), str(totals[seat]), style="bold" if mark else "")
        boneyard = Text(" " + self.t(Code.BONEYARD, count=view.boneyard_size))
        self.query_one("#players", Static).update(Group(table, boneyard))

    def draw_hand(self, view: SeatView) -> None:
        box = self.query_one("#hand", Static)
        if self.viewer is None:
            box.border_title = self.t(Code.TUI_HAND_HIDDEN)
            box.border_subtitle = ""
            box.update(Text(self.t(Code.TUI_HAND_HIDDEN_NOTE), style="italic grey62"))
            return
        box.border_title = self.session.say(Said.of(Code.TUI_HAND_TITLE, seat=self.viewer, count=len(view.hand)))
        box.border_subtitle = self.t(Code.TUI_CHOOSE_TILE)
        playable = {m.tile for m in view.legal_moves}
        selected = self.selected_tile() if self.my_turn() else None
        text = Text()
        for index, tile in enumerate(view.hand):
            if tile == selected:
                style = Style(color="black", bgcolor="yellow", bold=True)
            elif tile in playable:
                style = Style(color="bright_green", bold=True)
            else:
                style = Style(color="grey58")
            style += Style(meta={"@click": f"screen.pick_tile({index})"})
            drawn = "*" if tile == view.drawn else ""
            text.append(f"[{tile_label(tile)}]{drawn}", style)
            text.append(" ")
        box.update(text)

    def draw_actions(self, view: SeatView) -> None:
        round_ = self.session.round
        text = Text()
        if round_.is_over():
            text.append(self.t(Code.ROUND_OVER, round=self.session.match.round_number), "bold")
        elif not self.my_turn():
            who = self.session.name(round_.to_move)
            waiting = Code.TUI_THINKING if not self.session.is_human(round_.to_move) else Code.EVENT_TURN
            text.append(self.t(waiting, name=who), "italic")
        else:
            tile = self.selected_tile()
            moves = self.moves_of_selected()
            if tile is not None and moves:
                text.append(self.t(Code.TUI_PLAY_ON, tile=tile) + " ", "bold")
                aimed = self.aimed_move()
                for move in moves:
                    target = move.target
                    label = self.t(Code.BOARD_HUB) if target is None else str(target)
                    style = STYLES["chosen" if move == aimed else "target"]
                    meta = Style(meta={"@click": f"screen.play_move({move.code})"})
                    text.append(f" {label} ", style + meta)
                    text.append(" ")
                text.append(" " + self.t(Code.TUI_WHERE), "grey62")
            elif tile is not None:
                text.append(self.t(Code.TUI_CANNOT_PLAY, tile=tile), "grey62")
            if any(m.kind == "pass" for m in view.legal_moves):
                text.append("  ·  " + self.t(Code.TUI_P_PASSES), "bold")
        self.query_one("#actions", Static).update(text)

    def say(self, message: str, style: str = "bold") -> None:
        self.message = Text(message, style=style)

    # --- the flow of the game ---------------------------------------------------------------

    def advance(self) -> None:
        """What happens next: the round end, a bot's move, a hand-over, a forced move, or a human's choice."""
        session, round_ = self.session, self.session.round
        self.busy = False
        if round_.is_over():
            self.refresh_all()
            self.app.push_screen(RoundEnd(session), self.after_round)
            return
        seat = round_.to_move
        if not session.is_human(seat):
            self.busy = True
            self.refresh_all()
            self.think(self.generation)
            return
        if self.viewer != seat:
            self.viewer = None
            self.refresh_all()
            self.app.push_screen(HandOver(seat, session.lang), partial(self.take_over, seat))
            return
        forced = session.forced_move()
        if forced is not None:
            self.busy = True
            self.say(session.say(Said.of(Code.MOVE_FORCED, seat=seat, move=forced.advice())), "bold cyan")
            self.refresh_all()
            then = partial(self.apply, forced, False, self.generation)
            if self.pace > 0:
                self.set_timer(self.pace, then)
            else:
                self.call_later(then)
            return
        self.start_turn()

    def take_over(self, seat: int, _: None = None) -> None:
        self.viewer = seat
        self.advance()

    def start_turn(self) -> None:
        """Select the first playable tile (the drawn one if any) for the human to move."""
        view = self.shown_view()
        playable = [m.tile for m in view.legal_moves if m.tile is not None]
        if playable:
            self.selected = view.hand.index(playable[0])
        self.aimed = 0
        if view.drawn is not None:
            self.say(self.t(Code.MOVE_DREW_PLAYABLE, tile=view.drawn), "bold cyan")
        elif view.phase == Phase.FOOT:
            self.say(self.session.say(self.session.round.layout.open_foot()), "bold yellow")
        self.refresh_all()

    @work(thread=True, exclusive=True, group="bot")
    def think(self, generation: int) -> None:
        started = time.monotonic()
        move = self.session.bot_move()
        time.sleep(max(0.0, self.pace - (time.monotonic() - started)))
        self.app.call_from_thread(self.apply, move, False, generation)

    def apply(self, move: Move, chosen: bool, generation: int) -> None:
        if generation != self.generation:
            return
        if not self.is_active:  # a dialog is open (save, quit, How to play): the game waits for it
            self.set_timer(DIALOG_WAIT, partial(self.apply, move, chosen, generation))
            return
        session = self.session
        seat = session.round.to_move
        session.play(move, chosen=chosen)
        events = session.last_events()
        for event, said in events:
            self.log_event(said, event)
        feet = [said for event, said in events if event.kind == "chicken_foot"]
        if feet:
            self.say(session.say(feet[0]), "bold yellow")
        elif events:
            self.say(session.say(events[0][1]), "")
        if session.hot_seat and session.is_human(seat) and chosen:
            self.viewer = None
        self.advance()

    # --- the keys and the mouse -------------------------------------------------------------

    def action_pick(self, step: int) -> None:
        if self.my_turn() and self.hand():
            self.selected = (self.selected + step) % len(self.hand())
            self.aimed = 0
            self.refresh_all()

    def pick_tile(self, index: int) -> None:
        if not self.my_turn():
            return
        if index == self.selected % max(len(self.hand()), 1) and len(self.moves_of_selected()) == 1:
            self.action_play()
            return
        self.selected = index
        self.aimed = 0
        self.refresh_all()

    def action_pick_tile(self, index: int) -> None:
        self.pick_tile(index)

    def action_aim(self, step: int) -> None:
        moves = self.moves_of_selected()
        if moves:
            self.aimed = (self.aimed + step) % len(moves)
            self.refresh_all()

    def action_play(self) -> None:
        move = self.aimed_move()
        if move is not None:
            self.apply(move, True, self.generation)

    def action_play_on(self, target_id: int) -> None:
        """A click on a highlighted open end: play the selected tile there."""
        for move in self.moves_of_selected():
            if move.target is not None and move.target.id == target_id:
                self.apply(move, True, self.generation)
                return

    def action_play_move(self, code: int) -> None:
        move = Move.from_code(code)
        if self.my_turn() and move in self.shown_view().legal_moves:
            self.apply(move, True, self.generation)

    def only(self, kind: str) -> None:
        if not self.my_turn():
            return
        for move in self.shown_view().legal_moves:
            if move.kind == kind:
                self.apply(move, True, self.generation)
                return
        self.say(self.session.say(self.session.round.illegal_reason(Move.parse(kind))), "bold red")
        self.refresh_all()

    def action_draw(self) -> None:
        self.only("draw")

    def action_pass(self) -> None:
        self.only("pass")

    def action_hint(self) -> None:
        if not self.my_turn():
            return
        self.say(self.t(Code.TUI_THINKING, name=self.t(Code.HINTS)), "magenta")
        self.refresh_all()
        self.advise(self.shown_view(), self.generation)

    @work(thread=True, exclusive=True, group="hint")
    def advise(self, view: SeatView, generation: int) -> None:
        """The search's hint (about a second) off the interface's thread."""
        self.app.call_from_thread(self.show_hint, view, hint(view), generation)

    def show_hint(self, view: SeatView, advice: Hint, generation: int) -> None:
        if generation != self.generation or self.shown_view() != view:
            return  # the game moved on while the hint was thought about
        move = advice.move
        if move.tile is not None:
            self.selected = view.hand.index(move.tile)
            self.aimed = self.moves_of_selected().index(move)
        words = self.t(Code.HINT, move=self.session.say(move.advice()), reason=self.session.say(advice.why))
        self.say(words, "bold magenta")
        self.refresh_all()

    def action_undo(self) -> None:
        if not self.my_turn() or not self.session.can_undo():
            self.say(self.t(Code.MOVE_NOTHING_TO_UNDO), "bold red")
            self.refresh_all()
            return
        count = self.session.undo()
        self.generation += 1
        self.write_log()  # the round as it now stands, then what was taken back
        self.log_event(Said.of(Code.MOVE_UNDONE, count=count))
        self.say(self.t(Code.MOVE_UNDONE_YOURS), "bold cyan")
        self.advance()

    def action_save(self) -> None:
        offer_save(self, self.session)

    def action_quit(self) -> None:
        ask_quit(self, self.session)

    def action_howto(self) -> None:
        self.app.push_screen(HowTo(self.session.lang))

    def after_round(self, _: None = None) -> None:
        session = self.session
        if session.match.is_over():
            return
        session.next_round()
        self.viewer = None if session.hot_seat else self.viewer
        self.message = Text("")
        self.write_log()
        self.advance()


# --- the end of a round and of the match ----------------------------------------------------


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
        yield Footer()

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
            hands.add_row(session.label(seat), tiles, str(points), style="bold green" if not hand else "")
        board = Table(title=t(Code.SCORES), title_justify="left", box=None, padding=(0, 1))
        board.add_column(t(Code.PLAYER))
        for k, _ in enumerate(match.round_points):
            board.add_column(t(Code.ROUND_SHORT, round=k + 1), justify="right")
        board.add_column(t(Code.TOTAL), justify="right", style="bold")
        totals = match.totals()
        for seat in range(match.players):
            board.add_row(session.label(seat), *(str(p[seat]) for p in match.round_points), str(totals[seat]))
        parts: list[RenderableType] = [title]
        round_winner = session.round_winner_said()
        if round_winner is not None:
            parts.append(Text(session.say(round_winner, session.labels()), style="bold"))
        parts += [Text(""), hands, Text(""), board, Text("")]
        if match.is_over():
            winners = tuple(match.winners())
            labels = session.labels()
            won = session.say(Said.of(Code.EVENT_MATCH_OVER, names=winners, count=len(winners)), labels)
            parts.append(Text(won, style="bold yellow"))
            parts.append(Text(session.say(match.winner_reason(), labels), style="italic"))
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


class ChickenFootApp(App[None]):
    """``pace``: seconds at least between moves others make (0 in tests)."""

    TITLE = "Chicken Foot"
    CSS = """
    #title { width: 100%; content-align: center middle; height: 1; margin: 0 0 1 0; }
    #settings { grid-size: 4; grid-rows: 1 3; grid-columns: 1fr 1fr 1fr 1fr; height: 5; grid-gutter: 0 1; }
    #seats { grid-size: 4; grid-rows: 4; height: auto; grid-gutter: 0 1; margin: 1 0 0 0; }
    .seat { height: 4; }
    #start-buttons { height: 3; margin: 1 0 0 0; }
    #resume-path { width: 1fr; }
    #start-error { height: auto; }
    #status { height: 1; background: $panel; }
    #main { height: 1fr; }
    #board-box { width: 1fr; border: round $primary; border-title-color: $text; }
    #board { width: auto; height: auto; }
    #side { width: 27; }
    #players { height: auto; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    #announce { height: 1; padding: 0 1; }
    #hand { height: auto; max-height: 5; border: round $accent; padding: 0 1; }
    #actions { height: 1; padding: 0 1; }
    HandOver { align: center middle; }
    #handover { width: 48; height: 9; border: double $warning; background: $surface; padding: 1 2; }
    #handover-text { width: 100%; content-align: center middle; text-align: center; }
    SavePrompt { align: center middle; }
    QuitPrompt { align: center middle; }
    #quit-box { width: auto; height: auto; border: round $warning; background: $surface; padding: 0 1; }
    #quit-buttons { width: auto; height: auto; margin: 1 0 0 0; }
    #quit-buttons Button { margin: 0 1 0 0; }
    #save-box { width: 60; height: 7; border: round $primary; background: $surface; padding: 0 1; }
    #round-end { padding: 1 2; }
    HowTo { background: $surface; }
    #howto { padding: 1 2; }
    """

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

    def on_mount(self) -> None:
        self.push_screen(StartScreen(self.options))
        if self.session is not None:
            self.push_screen(GameScreen(self.session))

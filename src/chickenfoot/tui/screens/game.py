"""The game: the board, the hand of the seat at the keyboard, the players and the log."""

from __future__ import annotations

import time
from collections.abc import Iterable
from functools import partial
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.geometry import Region, Spacing
from textual.screen import Screen
from textual.widgets import Static

from chickenfoot.bots import Hint, hint
from chickenfoot.layout import Phase
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.round import Event
from chickenfoot.tiles import Tile
from chickenfoot.tui.board import Line, board_lines
from chickenfoot.tui.keys import KeyBar, translated
from chickenfoot.tui.log import GameLog
from chickenfoot.tui.screens.hand_over import HandOver
from chickenfoot.tui.screens.howto import HowTo
from chickenfoot.tui.screens.quit import ask_quit
from chickenfoot.tui.screens.round_end import RoundEnd, labelled
from chickenfoot.tui.screens.save import offer_save
from chickenfoot.tui.session import Session
from chickenfoot.tui.styles import STYLES, styled_lines
from chickenfoot.view import SeatView

DIALOG_WAIT = 0.1
"""Seconds between looks at whether a dialog over the game has closed (a bot's move waits for it)."""


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


def widest(header: str, numbers: Iterable[int]) -> int:
    """The cells a column of numbers needs to show its header and every number whole."""
    return max(cell_len(header), *(len(str(n)) for n in numbers))


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

    def __init__(self, session: Session, *, pace: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        """Seconds at least between moves others make (0 in tests)."""
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
        yield KeyBar()

    def on_mount(self) -> None:
        self.write_log()
        self.advance()

    # --- what is shown ----------------------------------------------------------------------

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
        """Seats, hands and points; a long name gives way (…) so that no header or number is ever cut."""
        session = self.session
        totals = session.match.totals()
        tiles, points = self.t(Code.TUI_COLUMN_TILES), self.t(Code.TUI_COLUMN_POINTS)
        table = Table(box=None, padding=(0, 0, 0, 1), header_style="grey62", pad_edge=False, expand=True)
        table.add_column("", width=1)
        table.add_column(self.t(Code.PLAYER), no_wrap=True, overflow="ellipsis", ratio=1)
        table.add_column(tiles, justify="right", width=widest(tiles, view.hand_sizes))
        table.add_column(points, justify="right", width=widest(points, totals))
        for seat, count in enumerate(view.hand_sizes):
            mark = "▶" if seat == view.to_move and not view.is_over else ""
            name = labelled(session, seat)
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
            self.app.push_screen(HandOver(seat, session.name(seat), session.lang), partial(self.take_over, seat))
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

"""``chickenfoot replay``: a finished match stepped through in the terminal, every hand face up.

←/→ step a move, Home/End go to the start or end of the round, PageUp/PageDown (or 1–9) change
round, space plays and pauses.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.timer import Timer
from textual.widgets import Static

from chickenfoot.i18n import choose_language, phrases, render, seat_name
from chickenfoot.match import Match, read_match
from chickenfoot.messages import Code
from chickenfoot.review import replay_rounds
from chickenfoot.round import Round
from chickenfoot.tiles import Tile
from chickenfoot.tui.keys import KeyBar, translated
from chickenfoot.tui.log import wrap
from chickenfoot.tui.styles import styled_board

PLAY_SECONDS = 0.7
"""Time between moves while playing."""
LOG_WIDTH = 40
"""The log's width before the screen is laid out."""


def positions(match: Match) -> list[list[Round]]:
    """Every position of every round: before the first move, then after each move."""
    out = []
    for r, moves in replay_rounds(match):
        frames = [r.copy()]
        for move in moves:
            r.push(move)
            frames.append(r.copy())
        out.append(frames)
    return out


def tiles_text(tiles: list[Tile]) -> str:
    return " ".join(f"[{t.high}|{t.low}]" for t in tiles) or "—"


class ReplayApp(App[None]):
    """One match's positions; ``round_index`` and ``ply`` say which is shown, in the language ``lang``."""

    CSS = """
    #status { height: 1; background: $panel; }
    #main { height: 1fr; }
    #board-box { width: 1fr; border: round $primary; }
    #board { width: auto; height: auto; }
    #side { width: 44; }
    #hands { height: auto; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    """
    ENABLE_COMMAND_PALETTE = False
    """Textual's command palette speaks only English; every key of the game is on the key bar."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("home", "edge(0)", "Start"),
        Binding("end", "edge(1)", "End"),
        Binding("pageup", "round(-1)", "Round −"),
        Binding("pagedown", "round(1)", "Round +"),
        Binding("space", "play_pause", "Play/pause"),
        *(Binding(str(k), f"jump({k})", show=False) for k in range(1, 10)),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self, match: Match, names: list[str] | None = None, lang: str = "en", step_seconds: float = PLAY_SECONDS
    ) -> None:
        super().__init__()
        self.lang = lang
        self.step_seconds = step_seconds
        """The pause between moves while playing (a test that reads the screen mid-play sets it long)."""
        self.title = f"{self.t(Code.GAME_NAME)} · {self.t(Code.REPLAY_BADGE)}"
        translated(
            self,
            lang,
            {
                "step(-1)": Code.REPLAY_KEY_BACK,
                "step(1)": Code.REPLAY_KEY_FORWARD,
                "edge(0)": Code.REPLAY_KEY_START,
                "edge(1)": Code.REPLAY_KEY_END,
                "round(-1)": Code.REPLAY_KEY_ROUND_BACK,
                "round(1)": Code.REPLAY_KEY_ROUND_FORWARD,
                "play_pause": Code.REPLAY_KEY_PLAY_PAUSE,
                "quit": Code.TUI_QUIT,
            },
        )
        self.match = match
        self.rounds = positions(match)
        self.names = names or [seat_name(s, None, None, lang) for s in range(match.players)]
        self.round_index = 0
        self.ply = 0
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with ScrollableContainer(id="board-box", can_focus=False):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="hands")
                yield Static(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show()

    def t(self, code: Code, /, **params: object) -> str:
        return render(code, self.lang, **params)

    @property
    def frames(self) -> list[Round]:
        return self.rounds[self.round_index]

    def show(self) -> None:
        r = self.frames[self.ply]
        view = r.view(None)
        t = self.t
        where = [
            t(Code.REPLAY_ROUND_OF, round=self.round_index + 1, rounds=len(self.rounds)),
            t(Code.REPLAY_COUNTER, move=self.ply, moves=len(self.frames) - 1),
            t(Code.BONEYARD, count=r.boneyard_size),
            *([t(Code.REPLAY_PLAYING)] if self.timer is not None else []),
        ]
        self.query_one("#status", Static).update(
            Text.assemble((f" {t(Code.REPLAY_BADGE)} ", "bold black on yellow"), "  " + "  ·  ".join(where))
        )
        self.query_one("#board", Static).update(styled_board(view, self.lang))
        hands = Table(box=None, pad_edge=False, show_header=False)
        hands.add_column("", no_wrap=True)
        hands.add_column("")
        for seat in range(self.match.players):
            turn = "▶ " if seat == r.to_move and not r.is_over() else "  "
            hands.add_row(Text(turn + self.names[seat], "bold" if turn.strip() else ""), tiles_text(r.hand(seat)))
        hands.add_row(Text("  " + t(Code.REPLAY_BONEYARD), "grey62"), tiles_text(r.boneyard_tiles()))
        if r.is_over():
            hands.add_row(Text("  " + t(Code.POINTS), "bold"), " ".join(str(p) for p in r.points()))
        self.query_one("#hands", Static).update(hands)
        log = Text()
        steps = self.frames[-1].history
        first = max(0, self.ply - 12)
        width = self.query_one("#log", Static).content_region.width or LOG_WIDTH
        for index, step in enumerate(steps[first : self.ply + 6], start=first):
            # Wrapped between phrases as the game's log is, under the move's number.
            lines = wrap(phrases(step.move.said(step.seat, step.drawn), self.lang, self.names), width - 4)
            text = f"{index + 1:>3} " + "\n    ".join(line.strip() for line in lines) + "\n"
            log.append(text, "bold reverse" if index == self.ply - 1 else "grey50" if index >= self.ply else "")
        self.query_one("#log", Static).update(log)

    def go(self, round_index: int, ply: int) -> None:
        self.round_index = max(0, min(round_index, len(self.rounds) - 1))
        self.ply = max(0, min(ply, len(self.frames) - 1))
        self.show()

    def action_step(self, delta: int) -> None:
        ply = self.ply + delta
        if ply < 0 and self.round_index > 0:
            self.go(self.round_index - 1, len(self.rounds[self.round_index - 1]) - 1)
        elif ply >= len(self.frames) and self.round_index < len(self.rounds) - 1:
            self.go(self.round_index + 1, 0)
        else:
            self.go(self.round_index, ply)

    def action_edge(self, end: int) -> None:
        self.go(self.round_index, len(self.frames) - 1 if end else 0)

    def action_round(self, delta: int) -> None:
        self.go(self.round_index + delta, 0)

    def action_jump(self, number: int) -> None:
        self.go(number - 1, 0)

    def action_help_quit(self) -> None:
        """Ctrl+C quits, in place of Textual's notice in English about which key quits."""
        self.call_next(self.action_quit)

    def action_play_pause(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        else:
            self.timer = self.set_interval(self.step_seconds, self.tick)
        self.show()

    def tick(self) -> None:
        at_end = self.ply == len(self.frames) - 1 and self.round_index == len(self.rounds) - 1
        if at_end:
            self.action_play_pause()
        else:
            self.action_step(1)


def replay_command(file: Path, lang: str | None = None) -> None:
    """Replay the match of ``file`` in ``lang`` (``--lang``), else the environment's language."""
    language = choose_language(lang)
    match, _ = read_match(file, language)
    ReplayApp(match, lang=language).run()
